// Runs one thread block: every CUDA thread is a fiber (Boost.Context fcontext) on the calling OS
// thread, scheduled cooperatively; fibers switch only at __syncthreads, warp collectives and
// spin-waits. In a traced block it also buffers each lane's probe events and merges them into
// warp records at every barrier and at the end of the block.
#pragma once

#include <boost/context/detail/fcontext.hpp>

#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <vector>
#include "memcarlo/host/detail/call_site.h"

#include "allocation_registry.hpp"
#include "bounds_check.hpp"
#include "fiber_stack.hpp"
#include "lane_sharing.hpp"
#include "loads_registry.hpp"
#include "memcarlo/host/detail/builtins.h"
#include "memcarlo/host/detail/launch.h"
#include "memcarlo/host/detail/synchronization.h"
#include "trace_merger.hpp"
#include "warp_collectives.hpp"
#include "warp_conflicts.hpp"

namespace memcarlo::host::detail {

/// What every block of one launch shares; read-only while the blocks run.
struct LaunchContext {
  const LaunchRequest* request = nullptr;
  std::uint64_t block_count = 0;
  std::uint32_t threads_per_block = 0;
  std::uint32_t warps_per_block = 0;
  bool traced = false;
  std::uint64_t snapshot_first = 0;  // traced blocks: [snapshot_first, snapshot_end)
  std::uint64_t snapshot_end = 0;
  std::uint32_t trace_launch = 0;       // index of the Launch chunk in the trace
  std::uint32_t traced_load_count = 0;  // ids at or above were registered after the Loads chunk
  std::shared_ptr<const DeviceRanges> device_ranges;
  std::shared_ptr<const LoadsIndex> loads;
  std::size_t fiber_stack_bytes = std::size_t{256} * 1024;
  std::uint64_t max_block_events = std::uint64_t{1} << 24;  // buffered between two barriers
  DeviceWindow checked_window;  // where probes check bounds; empty: no bounds checks
};

class BlockRunner;

/// One CUDA thread of the running block.
struct ThreadState {
  enum class State : std::uint8_t {
    kReady,
    kRunning,
    kAtBarrier,
    kAtTileBarrier,
    kAtGridBarrier,
    kAtCollective,
    kDone
  };

  ThreadBuiltins builtins{};
  const LaunchContext* launch = nullptr;
  BlockRunner* runner = nullptr;
  std::vector<LaneEvent>* events = nullptr;  // null in untraced blocks: probes record nothing
  std::uint64_t probe_events = 0;
  // The launch's checked window and this OS thread's bounds cache, where the probe reads them.
  std::uint64_t checked_begin = 0;
  std::uint64_t checked_size = 0;
  BoundsCache* bounds = nullptr;
  std::uint32_t warp = 0;
  std::uint32_t lane = 0;
  State state = State::kReady;
  bool started = false;
  std::uint32_t spin_count = 0;
  boost::context::detail::fcontext_t context = nullptr;
  FiberStack stack;
  CallSite wait_site;
  const char* wait_name = "";
  void* asan_fake_stack = nullptr;
  void* tsan_fiber = nullptr;  // ThreadSanitizer's fiber of this thread (TSan builds only)
};

/// The CUDA thread running on this OS thread, or null (host code).
inline constinit thread_local ThreadState* current_thread = nullptr;

class BlockRunner {
 public:
  BlockRunner() = default;
  BlockRunner(const BlockRunner&) = delete;
  BlockRunner& operator=(const BlockRunner&) = delete;

  /// Runs block `block` of `launch` to completion on the calling OS thread. Rethrows the first
  /// exception a CUDA thread let escape; reports deadlocks and exits (status 70).
  void run(const LaunchContext& launch, std::uint64_t block);
  /// A cooperative launch's block: runs it until it completes (true) or every thread of it that
  /// has not exited waits at grid.sync() (false; release_grid_barrier() then resume_block() go
  /// on). Its fibers stay alive in between, so each block of such a launch has its own runner.
  bool start_block(const LaunchContext& launch, std::uint64_t block);
  bool resume_block();
  /// Lets the threads waiting at grid.sync() go on (the barrier ends an interval of the trace,
  /// as __syncthreads does).
  void release_grid_barrier();

  [[nodiscard]] bool traced() const { return traced_; }
  /// After a traced run: the records of each warp of the block, in program order.
  [[nodiscard]] const std::vector<std::vector<tracebuf::WarpRecord>>& warp_records() const {
    return warp_records_;
  }
  [[nodiscard]] std::uint64_t probe_events() const { return probe_events_; }
  [[nodiscard]] std::uint64_t traced_events() const { return traced_events_; }
  [[nodiscard]] std::uint64_t dropped_events() const { return merger_.dropped_events(); }
  /// After a traced run: lanes of one warp instruction that raced on an address, by static id.
  [[nodiscard]] const std::map<std::uint32_t, LaneSharing>& lane_sharing() const {
    return lane_sharing_.findings();
  }
  /// After a traced run: warps of the block that raced on an address between two barriers.
  [[nodiscard]] const std::map<WarpConflictPair, std::uint64_t>& warp_conflicts() const {
    return warp_conflicts_.findings();
  }

  // Called from the running fiber.
  int barrier(BarrierKind kind, int predicate, ::memcarlo::host::CallSite where);
  std::uint64_t collective(WarpOp op, std::uint32_t mask, bool implicit_mask, std::uint64_t value,
                           int parameter, int width, ::memcarlo::host::CallSite where);
  /// Waits until every live thread of block ranks [first, first + count) arrived (a cooperative
  /// groups tile wider than a warp); `what` names the wait in deadlock reports.
  void tile_barrier(std::uint32_t first, std::uint32_t count, const char* what,
                    ::memcarlo::host::CallSite where);
  void grid_barrier(::memcarlo::host::CallSite where);
  [[nodiscard]] bool cooperative() const { return launch_->request->cooperative; }
  void yield();
  void* dynamic_shared() { return dynamic_shared_.get(); }
  /// kTileExchangeSlotBytes per thread of the block, for values that tile collectives exchange.
  unsigned char* tile_exchange_slots() { return tile_exchange_slots_.data(); }
  /// Counts one buffered probe event; false once the block exceeded its budget, after which its
  /// unmerged events are gone and it records nothing more (its trace ends at its last barrier).
  bool admit_traced_event() {
    return ++buffered_events_ <= launch_->max_block_events || abandon_trace();
  }
  [[nodiscard]] bool trace_abandoned() const { return trace_abandoned_; }

 private:
  struct FreeAligned {
    void operator()(void* p) const;
  };

  static void fiber_entry(boost::context::detail::transfer_t from);
  void prepare(const LaunchContext& launch, std::uint64_t block);
  void resume(ThreadState& thread);
  void suspend(ThreadState& thread);
  void push_ready(std::uint32_t thread);
  void wake_lanes(std::uint32_t warp, std::uint32_t lanes);
  void thread_exited(ThreadState& thread);
  /// Runs ready threads until the block completes (true) or waits at grid.sync() (false).
  bool schedule();
  void complete_barrier();
  /// At a barrier of the whole block: merges the interval's events and counts the barrier.
  void end_trace_interval();
  void complete_tile_barrier(std::size_t index);
  void merge_warp(std::uint32_t warp);
  /// Merges every warp's events of the barrier interval that ends, then looks for races between
  /// the warps in it.
  void merge_interval();
  bool resolve_quiescent();
  [[noreturn]] void report_deadlock() const;
  bool abandon_trace();

  const LaunchContext* launch_ = nullptr;
  std::uint64_t block_ = 0;
  bool traced_ = false;
  std::vector<ThreadState> threads_;
  std::vector<WarpCollectives> warps_;
  std::vector<std::uint32_t> ready_;  // ring buffer of thread ids
  std::size_t ready_head_ = 0;
  std::size_t ready_count_ = 0;
  std::uint32_t live_ = 0;
  std::uint32_t finished_ = 0;      // threads that exited
  std::uint32_t grid_arrived_ = 0;  // threads waiting at grid.sync()
  std::uint32_t barrier_arrived_ = 0;
  std::uint32_t barrier_true_ = 0;
  std::uint32_t last_barrier_arrived_ = 0;
  std::uint32_t last_barrier_true_ = 0;
  /// A barrier of a tile wider than a warp that some of its threads have reached.
  struct TileBarrier {
    std::uint32_t first = 0;     // block rank of the tile's first thread
    std::uint32_t count = 0;     // threads the tile spans in this block
    std::uint32_t expected = 0;  // of them, those that have not exited
    std::uint32_t arrived = 0;
  };
  std::vector<TileBarrier> tile_barriers_;  // open ones; a few at most
  std::vector<unsigned char> tile_exchange_slots_;
  std::exception_ptr exception_;
  boost::context::detail::fcontext_t scheduler_context_ = nullptr;
  const void* scheduler_stack_bottom_ = nullptr;
  std::size_t scheduler_stack_size_ = 0;
  void* scheduler_fake_stack_ = nullptr;
  void* tsan_scheduler_fiber_ = nullptr;  // the OS thread's own context, for TSan
  FiberStackPool stacks_;
  BoundsCache bounds_;
  std::unique_ptr<std::byte, FreeAligned> dynamic_shared_;
  std::size_t dynamic_shared_capacity_ = 0;
  // Tracing.
  std::vector<std::vector<LaneEvent>> lane_events_;  // per thread of the block
  std::vector<std::vector<tracebuf::WarpRecord>> warp_records_;
  std::vector<std::uint8_t> pending_barriers_;  // per warp, carried by its next record
  TraceMerger merger_;
  LaneSharingCheck lane_sharing_;
  WarpConflictCheck warp_conflicts_;
  std::vector<std::span<const tracebuf::WarpRecord>> interval_records_;  // per warp
  std::vector<std::size_t> interval_begin_;  // per warp: its first record of the interval
  bool interval_tile_synced_ = false;        // a tile wider than a warp synchronized its warps
  std::uint64_t probe_events_ = 0;
  std::uint64_t traced_events_ = 0;
  std::uint64_t buffered_events_ = 0;  // since the last merge
  bool trace_abandoned_ = false;
};

}  // namespace memcarlo::host::detail
