// GPU prefetching in the L1 as a policy. The prefetcher is the one policy that acts on every L1
// access, so it is a template parameter of the SM side of the replay (like the replacement
// policies), chosen once per trial; `None` compiles to nothing.
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
  ResidentWarp warp;           // the warp's slot within the SM
  StaticLoadId load;           // the load (its PC)
  ByteAddress line_address;    // the first byte of the L1 line accessed
  ByteAddress base_address;    // the instruction's lowest active lane's address (lane 0's)
  std::int32_t lane_stride;    // bytes between consecutive lanes, when uniform_stride
  bool uniform_stride;         // every active lane at base_address + lane * lane_stride
  bool first_of_instruction;   // the first of the instruction's accesses (lines)
  bool hit;                    // every requested sector was present (in flight or not)
  BlockId block;               // the warp's block (CTA) in the launch's grid
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
