// GPU prefetching in the L1 as a policy. The prefetcher is the one policy that acts on every L1
// access, chosen once per trial; `None` compiles to nothing (an SM side without prefetch code),
// every other one is boxed (sim/src/any_prefetcher.hpp: its hooks inline into its Boxed<P>, which
// builds the L1Access, and the one prefetching SM side calls the box).
//
// Contract of a prefetcher type P:
//   static constexpr std::string_view kName          its prefetch.policy name
//   static constexpr std::array<KeySpec, N> kKeys    (optional) the keys it reads, listed by
//                                                    `hierarchy keys` with their defaults
//   static constexpr std::uint32_t kMaxRequests      the most prefetches one L1 access may ask
//                                                    for (the engine reserves request space from
//                                                    it); 0: the hooks are never called
//   explicit P(const HierarchyConfig&)               reads its keys (config.params); may allocate
//   void begin_launch(std::uint32_t sm_count)        before each launch; may allocate
//   void begin_launch(std::uint32_t sm_count, const LaunchTrace& launch)
//                                                    (optional) called instead of the above
//                                                    when present: a prefetcher that reads the
//                                                    launch (its Locality Descriptors: ldesc)
//   template <class Sink>
//   void on_access(const L1Access& access, Sink& sink)
//                                                    after every L1 access of a load (hit or
//                                                    miss); may call sink.prefetch(ByteAddress) for
//                                                    up to kMaxRequests line addresses (any
//                                                    byte address; the engine rounds it down to
//                                                    its L1 line). Must not allocate; may draw
//                                                    only from access.random. The constructor
//                                                    throws std::invalid_argument naming the key
//                                                    for a value out of range (the loader builds
//                                                    the configured prefetcher to check).
// What the engine does with a prefetch: a line the L1 holds is not fetched again (redundant);
// otherwise the line gets an id in the line space (an untraced line gets one after the traced
// ones), a way in the SM's L1 (replacement as for a miss, pinned ways excluded) flagged
// prefetched, an MSHR, and a request to the L2 that travels like a miss (L2, DRAM, fill time)
// and counts in the L2 and DRAM traffic, not in any load's hit ratios. A demand access that
// finds a prefetched way counts it useful (and late if its data has not arrived).
//
// The L1's storage hooks (optional, for a prefetcher that manages where lines go in the L1, as
// hardware at the L1 can: Snake's decoupled storage). Each is found at compile time (the
// concepts below); for a prefetcher without it the SM side neither calls it nor computes its
// arguments (one test of the box's hooks() per fill). Sets and ways are the L1's of the launch (an
// adaptive L1 loses the ways its carveout takes); they are called only while kMaxRequests > 0.
//   template <class Evict>
//   void before_fill(const L1Set& set, Evict& evict)
//                                                    before the L1 places a line in `set` (a
//                                                    load miss, a store that allocates, a
//                                                    prefetch; not for bypassed lines): the
//                                                    victim choice. May call evict(allowed,
//                                                    count): the engine invalidates up to
//                                                    `count` of the ways in `allowed` (held,
//                                                    unpinned ones) in the L1 replacement
//                                                    policy's order, counts an unused prefetched
//                                                    line among them as an early eviction, and
//                                                    calls on_evict for each; the fill then
//                                                    takes a free way
//   void on_fill(const L1Fill& fill)                 after the L1 placed a line in a way
//   void on_evict(const L1Way& way, bool unused_prefetch)
//                                                    after evict() freed `way`; unused_prefetch:
//                                                    its line was prefetched and never used
//   void on_prefetch_used(const L1Way& way)          a demand access found the unused
//                                                    prefetched line of `way` (from now on a
//                                                    demand line)
// Lines that leave otherwise (a store's invalidation, the L2's back-invalidation) are not
// reported: their ways are simply not in the next L1Set::held. The hooks must not allocate and
// draw no random numbers (evict() draws from the L1 replacement's stream, as a fill does).
#pragma once

#include <cstdint>
#include <string_view>

#include "memcarlo/sim/config.hpp"
#include "memcarlo/sim/ids.hpp"
#include "memcarlo/sim/random.hpp"

namespace memcarlo::sim::prefetch {

/// What the L1 sees of one access (hardware at the L1 sees the SM, the warp, the PC, the
/// lanes' addresses and whether it hit). A warp instruction that touches several lines is one
/// access per line, in line order; the instruction's fields (base_address, stride, the block)
/// are the same in each, and first_of_instruction marks the first, so that a prefetcher that
/// trains per instruction trains once. The instruction's fields come from
/// CompiledTrace::access_sites (compiled only for a prefetcher: `none` costs nothing) and the
/// residency of the warp (read only when a prefetcher is on).
struct L1Access {
  SmIndex sm;
  ResidentWarp warp;              // the warp's slot within the SM
  StaticLoadId load;              // the load (its PC)
  ByteAddress line_address;       // the first byte of the L1 line accessed
  ByteAddress base_address;       // the instruction's lowest active lane's address (lane 0's)
  std::int32_t lane_stride;       // bytes between consecutive lanes, when uniform_stride
  bool uniform_stride;            // every active lane at base_address + lane * lane_stride
  bool first_of_instruction;      // the first of the instruction's accesses (lines)
  bool hit;                       // every requested sector was present (in flight or not)
  BlockId block;                  // the warp's block (CTA) in the launch's grid
  std::uint32_t warp_in_block;    // the warp's index within its block
  std::uint32_t warps_per_block;  // of the launch
  Cycles clock;                   // the SM's logical clock
  // The SM's L1 as a throttle sees it (kept by the SM side only while a prefetcher is on):
  std::uint32_t prefetched_lines;  // lines a prefetch brought that no demand access used yet
  std::uint32_t l1_lines;          // lines the SM's L1 holds in this launch (after the carveout)
  std::uint64_t l2_reads;          // lines the SM's L1 asked the L2 for since the launch began
                                   // (demand load misses and prefetches; not stores)
  RandomStream& random;            // Purpose::kPrefetch of this SM and epoch

  /// The warp's id in the grid: block x warps per block + warp in block.
  [[nodiscard]] std::uint64_t global_warp() const {
    return value_of(block) * warps_per_block + warp_in_block;
  }
};

/// A set of an SM's L1 as before_fill sees it (bit w of a mask: way w).
struct L1Set {
  SmIndex sm;
  std::uint32_t index;   // the set among every SM's: sm x sets per SM + set (as L1Way::set)
  std::uint32_t ways;    // ways per set in this launch
  std::uint64_t held;    // ways that hold a line
  std::uint64_t pinned;  // ways replacement must not take (ldesc.cache's pins)
  Cycles clock;          // the SM's logical clock
  bool demand;           // a demand fill (load miss or allocating store), else a prefetch
};

/// A way of an SM's L1.
struct L1Way {
  SmIndex sm;
  std::uint32_t set;  // as L1Set::index
  std::uint32_t way;
};

/// A line placed in an L1 way (on_fill).
struct L1Fill {
  L1Way way;
  bool prefetch;         // by a prefetch (else a demand fill or an allocating store)
  bool replaced_unused;  // the line it replaced was prefetched and never used
};

/// What a prefetcher's before_fill may call to free ways (the engine's type models it).
struct EvictWays {
  void operator()(std::uint64_t /*allowed*/, std::uint32_t /*count*/) {}
};

/// Which of the optional L1 storage hooks prefetcher P has.
template <class P>
concept ChoosesVictims =
    requires(P& p, const L1Set& set, EvictWays& evict) { p.before_fill(set, evict); };
template <class P>
concept SeesFills = requires(P& p, const L1Fill& fill) { p.on_fill(fill); };
template <class P>
concept SeesEvictions = requires(P& p, const L1Way& way) { p.on_evict(way, true); };
template <class P>
concept SeesPrefetchUse = requires(P& p, const L1Way& way) { p.on_prefetch_used(way); };

/// No prefetching: the default, compiled away.
struct None {
  static constexpr std::string_view kName = "none";
  static constexpr std::uint32_t kMaxRequests = 0;
  explicit None(const HierarchyConfig&) {}
  void begin_launch(std::uint32_t) {}
  template <class Sink>
  void on_access(const L1Access&, Sink&) {}
};

}  // namespace memcarlo::sim::prefetch
