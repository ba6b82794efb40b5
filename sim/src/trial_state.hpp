// Internal state of a trial replay and its vocabulary: warps and blocks resident on each SM, the
// epoch's requests into the L2 (their kinds and waiters), pending DRAM requests, the line space
// and the caches. Owned by TrialWorkspace, reused across trials.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <variant>
#include <vector>

#include "append_buffer.hpp"
#include "line_space.hpp"
#include "memcarlo/sim/schedule/cta_scheduler.hpp"
#include "memcarlo/sim/latency_bins.hpp"
#include "memcarlo/sim/private_caches.hpp"
#include "memcarlo/sim/shared_cache.hpp"
#include "memcarlo/sim/dram/model.hpp"
#include "memcarlo/sim/replacement/registry.hpp"
#include "memcarlo/sim/trial.hpp"
#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::sim {

/// Warp slots within an SM are below this: it stands for "no warp", never for a kind of request.
inline constexpr std::uint32_t kNoWarp = 0xFFFF;
/// The waiter of a request that no warp waits for (a store, a prefetch).
inline constexpr std::uint16_t kNoWaiter = 0xFFFF;
inline constexpr std::uint32_t kNoRequest = 0xFFFFFFFF;

/// What a request to the L2 is. Its kind decides how the L2 serves it (demand fills and
/// prefetches read; stores write; atomics read and write) and what its fill does on the way back
/// (a demand fill and a prefetch complete an L1 way and an MSHR; a demand fill and an atomic wake
/// their waiter).
enum class RequestKind : std::uint8_t {
  kDemandFill,  // an L1 miss of a load (or the L1 disabled): a warp waits for it
  kStore,       // written through to the L2; nobody waits
  kAtomic,      // performed at the L2; a warp waits for the old value
  kPrefetch,    // a GPU prefetcher's fill of an L1 way; nobody waits
};

struct WarpSlot {
  std::uint32_t bulk = 0;      // next bulk to issue (index into CompiledTrace::bulks)
  std::uint32_t bulk_end = 0;  // one past its last bulk
  std::uint64_t ready_time = 0;
  std::uint32_t pending = 0;  // fills this warp waits for whose time is not known yet
  std::uint32_t barriers_passed = 0;
  std::uint32_t barrier_target = 0;  // > barriers_passed: waiting at a __syncthreads
  std::uint32_t barrier_bulk = 0xFFFFFFFF;  // the bulk whose barrier this warp has passed
  std::uint32_t block_slot = 0;
  bool live = false;  // has bulks left
};

struct BlockSlot {
  bool occupied = false;
  std::uint32_t live_warps = 0;
  std::uint32_t first_warp_slot = 0;  // within the SM
  std::uint32_t warp_count = 0;
  std::uint64_t block_id = 0;  // the block's linear id in its grid (BlockTrace::block_id)
};

/// A request from an SM to the L2. The requests of one epoch sit in one buffer, SM by SM in
/// issue order; the drain serves them in place.
struct L2Request {
  std::uint64_t issue_time;
  std::uint32_t fill_delay;  // cycles from issue to data: the L2 latency, or more after DRAM
  std::uint32_t line;        // L1 line id (line space)
  std::uint32_t counter;     // counter slot (CompiledTrace::slots) of the access behind it
  std::uint32_t l1_way;      // the L1 way (PrivateCaches cell) it fills, if still its line
  std::uint16_t waiter;      // warp slot within the SM waiting for the data, or kNoWaiter
  std::uint16_t sm;
  RequestKind kind;
  SectorMask sectors;        // L2-sector chunks of the L1 line
  std::uint16_t from_dram;   // 1 once DRAM served part of it (its latency is then DRAM's)
};
static_assert(sizeof(L2Request) == 32);

/// A warp that hit a line whose fill time was still unknown (in-flight hit in the same epoch).
struct FillWait {
  std::uint64_t issue_time;  // of the hit, for its latency
  std::uint32_t counter;     // counter slot of the load that hit
  std::uint32_t line;
  std::uint32_t l1_way;  // the L1 way (PrivateCaches cell) that held the line
  std::uint16_t sm;
  std::uint16_t warp;
};

struct DramMeta {
  std::uint32_t request;  // index into the epoch's requests, or kNoRequest for writes
  std::uint32_t counter;  // counter slot, or kNoRequest for a prefetch (counted apart)
};

struct FreedBlock {
  std::uint64_t time;
  std::uint32_t random_key;
  std::uint16_t sm;
  std::uint32_t block_slot;
};


/// Outstanding L1 misses of one SM (its MSHRs), retired at epoch granularity: a miss whose data
/// arrives during epoch e frees its entry when epoch e + 1 begins.
class MissTracker {
 public:
  static constexpr std::uint32_t kEpochs = 256;  // horizon; later fills retire at its end

  void reset() {
    outstanding_ = 0;
    next_epoch_ = 0;
    retiring_.fill(0);
  }
  void add_unresolved(std::uint32_t count) { outstanding_ += count; }
  /// An unresolved miss got its fill time: it stays outstanding until that epoch is over.
  void resolve(std::uint64_t fill_epoch) {
    const std::uint64_t epoch = std::min(fill_epoch, next_epoch_ + kEpochs - 1);
    ++retiring_[epoch % kEpochs];
  }
  /// Frees the entries of every epoch before `epoch`.
  void advance_to(std::uint64_t epoch) {
    for (std::uint32_t steps = 0; next_epoch_ < epoch && steps < kEpochs; ++steps) {
      outstanding_ -= retiring_[next_epoch_ % kEpochs];
      retiring_[next_epoch_ % kEpochs] = 0;
      ++next_epoch_;
    }
    next_epoch_ = std::max(next_epoch_, epoch);
  }
  [[nodiscard]] std::uint32_t outstanding() const { return outstanding_; }

 private:
  std::uint32_t outstanding_ = 0;
  std::uint64_t next_epoch_ = 0;
  std::array<std::uint32_t, kEpochs> retiring_{};
};

struct SmState {
  std::uint64_t clock = 0;
  std::uint32_t round_robin = 0;
  MissTracker misses;
};

/// A cache (PrivateCaches or SharedCache) of each replacement policy the engine inlines
/// (replacement::AnyPolicy's alternatives).
template <template <class> class Cache, class Policies = replacement::AnyPolicy>
struct CachesOf;
template <template <class> class Cache, class... Policies>
struct CachesOf<Cache, std::variant<Policies...>> {
  using type = std::variant<Cache<Policies>...>;
};
template <template <class> class Cache>
using AnyCache = typename CachesOf<Cache>::type;

struct TrialWorkspace::State {
  std::vector<AccessCounters> slot_counters;
  /// Per counter slot, its loads' L1 transactions by level and latency bin: [slot][level][bin]
  /// (latency_bins.hpp). The replay adds one to one counter per access.
  std::vector<std::uint64_t> latency_counts;
  CounterGroupSlots counter_groups;  // the groups this trial's policies enabled (none: no memory)
  std::vector<SmState> sms;
  std::vector<WarpSlot> warps;        // [sm][slot]
  std::vector<std::uint64_t> schedulable;  // [sm][slot / 64]: live, no pending fill, no barrier
  std::vector<BlockSlot> blocks;      // [sm][slot]
  AppendBuffer<L2Request> requests;   // this epoch's, SM by SM
  std::vector<std::uint32_t> request_begin;  // [sm]: first request of SM sm; [sm_count]: end
  std::vector<std::uint16_t> drain_order;    // SM labels in the order the L2 takes them
  std::vector<std::uint32_t> drain_index;    // the requests in that order
  AppendBuffer<FillWait> waits;
  AppendBuffer<dram::Request> dram_requests;
  AppendBuffer<DramMeta> dram_meta;
  std::vector<FreedBlock> freed;
  schedule::CtaPlan cta_plan;
  std::vector<std::uint32_t> queue_next;  // per queue of the plan: its next block in the order
  std::unique_ptr<dram::Model> dram;
  LineSpace line_space;  // line ids beyond the trace, and every line's sets and DRAM location
  LineTable lines;       // per L1 line id: L1 holders and L2 ways
  AnyCache<PrivateCaches> l1;
  AnyCache<SharedCache> l2;
};

}  // namespace memcarlo::sim
