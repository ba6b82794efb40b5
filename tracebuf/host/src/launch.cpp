// Kernel launches: configuration checks as CUDA makes them, then every block on TBB worker threads
// (one block per task, each on a thread-local BlockRunner; a cooperative launch's blocks phase by
// phase between grid.sync() calls, each on a runner of its own), then the traced blocks' records.
// Under MEMCARLO_STOP_AFTER_TRACE a traced launch runs its snapshot's blocks first and, when it
// completes the trace, only those, and the program stops.
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "allocation_registry.hpp"
#include "api_errors.hpp"
#include "block_runner.hpp"
#include "crash_handler.hpp"
#include "diagnostics.hpp"
#include "loads_registry.hpp"
#include "memcarlo/host/detail/unsupported.h"
#include "memcarlo/tsan_annotations.hpp"
#include "trace_session.hpp"

namespace memcarlo::host::detail {
namespace {

/// CUDA's launch limits: what the real runtime rejects with cudaErrorInvalidConfiguration.
bool valid_configuration(const LaunchRequest& request) {
  const dim3& g = request.grid;
  const dim3& b = request.block;
  const std::uint64_t threads = std::uint64_t{b.x} * b.y * b.z;
  return g.x >= 1 && g.y >= 1 && g.z >= 1 && g.x <= 2147483647u && g.y <= 65535 && g.z <= 65535 &&
         b.x >= 1 && b.y >= 1 && b.z >= 1 && b.x <= 1024 && b.y <= 1024 && b.z <= 64 &&
         threads <= runtime_options().limits.max_threads_per_block;
}

/// Caps TBB's worker count once, from MEMCARLO_THREADS.
void limit_parallelism(std::uint32_t threads) {
  static std::once_flag once;
  static std::unique_ptr<tbb::global_control> control;
  std::call_once(once, [threads] {
    if (threads > 0) {
      control = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                      threads);
    }
  });
}

struct BlockTotals {
  std::atomic<std::uint64_t> probe_events = 0;
  std::atomic<std::uint64_t> traced_events = 0;
  std::atomic<std::uint64_t> dropped = 0;
  std::atomic<std::uint64_t> records = 0;
  std::atomic<std::uint64_t> traced_blocks = 0;
  std::atomic<bool> abandoned = false;
  std::mutex sharing_mutex;
  std::map<std::uint32_t, LaneSharing> lane_sharing;         // by trace-wide static id
  std::map<WarpConflictPair, std::uint64_t> warp_conflicts;  // barrier intervals, by pair
};

/// "x1[i] (mvt.cu:14:7)" for a static access, or its id when the loads table lacks it.
std::string access_text(const std::vector<tracebuf::LoadInfo>& table, std::uint32_t static_id) {
  if (static_id >= table.size()) {
    return "static access " + std::to_string(static_id);
  }
  const tracebuf::LoadInfo& load = table[static_id];
  return load.expression + " (" + load.file + ":" + std::to_string(load.line) + ":" +
         std::to_string(load.column) + ")";
}

/// Warns, once per static access and kernel in the process (launches with MEMCARLO_LAUNCH=all
/// repeat them), about lanes of one warp instruction that raced on an address
/// (lane_sharing.hpp): the emulation computes something a GPU would not.
void warn_lane_sharing(const LaunchRequest& request,
                       const std::map<std::uint32_t, LaneSharing>& findings) {
  constexpr std::size_t kMaxWarnings = 8;
  static std::mutex mutex;
  static std::set<std::pair<std::string, std::uint32_t>> warned_before;
  std::lock_guard lock(mutex);
  std::vector<std::pair<std::uint32_t, LaneSharing>> fresh;
  for (const auto& [static_id, found] : findings) {
    if (warned_before.emplace(request.kernel_name, static_id).second) {
      fresh.emplace_back(static_id, found);
    }
  }
  const std::vector<tracebuf::LoadInfo> table = loads_registry().table();
  for (std::size_t i = 0; i < fresh.size() && i < kMaxWarnings; ++i) {
    const auto& [static_id, found] = fresh[i];
    const std::string access = access_text(table, static_id);
    warn("kernel '" + std::string(request.kernel_name) + "': up to " +
         std::to_string(found.most_lanes) + " lanes of one warp instruction " +
         (found.read_then_write ? "read and then write" : "update") + " the same address through " +
         access + ", in " + std::to_string(found.instructions) +
         " warp instructions of the traced blocks. A GPU warp executes that instruction in "
         "lockstep and keeps one lane's value; the host backend runs each CUDA thread until it "
         "waits, so each lane sees the others' writes and the results differ from a GPU's "
         "(docs/host-runtime.md, \"Races within a warp\")");
  }
  if (fresh.size() > kMaxWarnings) {
    warn("kernel '" + std::string(request.kernel_name) +
         "': " + std::to_string(fresh.size() - kMaxWarnings) +
         " more accesses race within warp instructions");
  }
}

/// Warns, once per pair of static accesses and kernel in the process, about warps of one block
/// that raced on an address between two barriers (warp_conflicts.hpp): the emulation runs the
/// warps one after another, where a GPU runs them concurrently.
void warn_warp_conflicts(const LaunchRequest& request,
                         const std::map<WarpConflictPair, std::uint64_t>& findings) {
  constexpr std::size_t kMaxWarnings = 8;
  static std::mutex mutex;
  static std::set<std::tuple<std::string, std::uint32_t, std::uint32_t>> warned_before;
  std::lock_guard lock(mutex);
  std::vector<std::pair<WarpConflictPair, std::uint64_t>> fresh;
  for (const auto& [pair, intervals] : findings) {
    if (warned_before.emplace(request.kernel_name, pair.writer, pair.reader).second) {
      fresh.emplace_back(pair, intervals);
    }
  }
  const std::vector<tracebuf::LoadInfo> table = loads_registry().table();
  for (std::size_t i = 0; i < fresh.size() && i < kMaxWarnings; ++i) {
    const auto& [pair, intervals] = fresh[i];
    const std::string writer = access_text(table, pair.writer);
    const std::string what =
        pair.writer == pair.reader
            ? "several warps of one block update the same address through " + writer
            : access_text(table, pair.reader) +
                  " reads an address that another warp of the same block writes through " + writer;
    warn("kernel '" + std::string(request.kernel_name) + "': " + what +
         " with no __syncthreads between them, in " + std::to_string(intervals) +
         " barrier intervals of the traced blocks. A GPU runs the warps of a block concurrently "
         "(often nearly in step); the host backend runs them one after another, so each warp sees "
         "the writes of the warps before it and the results may differ from a GPU's "
         "(docs/host-runtime.md, \"Races between warps\")");
  }
  if (fresh.size() > kMaxWarnings) {
    warn("kernel '" + std::string(request.kernel_name) +
         "': " + std::to_string(fresh.size() - kMaxWarnings) +
         " more pairs of accesses race between warps");
  }
}

/// Adds what block `block` counted, found and traced, once `runner` completed it (`dropped_before`:
/// the runner's dropped events before the block).
void collect_block(const BlockRunner& runner, std::uint64_t dropped_before,
                   const LaunchContext& context, std::uint64_t block, BlockTotals& totals) {
  totals.probe_events += runner.probe_events();
  if (!runner.traced()) {
    return;
  }
  totals.traced_events += runner.traced_events();
  if (runner.trace_abandoned() && !totals.abandoned.exchange(true)) {
    warn("kernel '" + std::string(context.request->kernel_name) + "': traced block " +
         std::to_string(block) + " buffered more than " + std::to_string(context.max_block_events) +
         " probe events between two barriers (MEMCARLO_MAX_BLOCK_EVENTS); the trace of such "
         "blocks ends at their last barrier");
  }
  totals.dropped += runner.dropped_events() - dropped_before;
  if (!runner.lane_sharing().empty() || !runner.warp_conflicts().empty()) {
    std::lock_guard lock(totals.sharing_mutex);
    for (const auto& [static_id, found] : runner.lane_sharing()) {
      totals.lane_sharing[static_id].add(found);
    }
    for (const auto& [pair, intervals] : runner.warp_conflicts()) {
      totals.warp_conflicts[pair] += intervals;
    }
  }
  ++totals.traced_blocks;
  const auto& warps = runner.warp_records();
  for (std::uint32_t w = 0; w < warps.size(); ++w) {
    if (!warps[w].empty()) {
      write_warp_records(context.trace_launch, block, w, warps[w]);
      totals.records += warps[w].size();
    }
  }
}

void run_block(const LaunchContext& context, std::uint64_t block, BlockTotals& totals) {
  // One runner per OS thread, reused by every block that runs there: its fiber stacks, event
  // buffers and dynamic shared memory stay allocated between blocks.
  thread_local BlockRunner runner;
  ensure_signal_stack();
  const std::uint64_t dropped_before = runner.dropped_events();
  runner.run(context, block);
  collect_block(runner, dropped_before, context, block, totals);
}

/// A cooperative launch (cudaLaunchCooperativeKernel): every block is resident at once, as CUDA
/// guarantees, so each has a runner of its own, whose fibers wait at grid.sync() while the other
/// blocks run up to it. The blocks run one after another on this OS thread, phase by phase: each
/// to its next grid.sync() (or its end), then all go on. A block that ends while others wait at
/// grid.sync() would hang a GPU: a deadlock, reported.
void run_cooperative(const LaunchContext& context, BlockTotals& totals) {
  ensure_signal_stack();
  std::vector<std::unique_ptr<BlockRunner>> runners(context.block_count);
  std::vector<std::uint64_t> waiting;
  std::uint64_t completed = 0;
  std::uint64_t first_completed = 0;
  const auto settle = [&](std::uint64_t block, bool done) {
    if (!done) {
      waiting.push_back(block);
      return;
    }
    collect_block(*runners[block], 0, context, block, totals);
    runners[block].reset();  // its fiber stacks go back now
    if (completed++ == 0) first_completed = block;
  };
  for (std::uint64_t block = 0; block < context.block_count; ++block) {
    runners[block] = std::make_unique<BlockRunner>();
    settle(block, runners[block]->start_block(context, block));
  }
  while (!waiting.empty()) {
    if (completed > 0) {
      fatal(kExitSoftware,
            "deadlock in kernel '" + std::string(context.request->kernel_name) + "': " +
                std::to_string(waiting.size()) + " of its " + std::to_string(context.block_count) +
                " blocks wait at grid.sync() while " + std::to_string(completed) +
                " ended without reaching it (the first, block " + std::to_string(first_completed) +
                "). grid.sync() needs every thread of the grid that has not exited; a block that "
                "ends first leaves the others waiting forever on a GPU.");
    }
    std::vector<std::uint64_t> phase;
    phase.swap(waiting);
    for (const std::uint64_t block : phase) {
      runners[block]->release_grid_barrier();
      settle(block, runners[block]->resume_block());
    }
  }
}

}  // namespace

void run_launch(const LaunchRequest& request) {
  if (current_thread != nullptr) {
    unsupported(("dynamic parallelism (kernel '" + std::string(request.kernel_name) +
                 "' launched from device code at " +
                 site_text(request.site.file_name(), request.site.line()) + ")")
                    .c_str(),
                CallSite{});
  }
  if (!valid_configuration(request)) {
    api_result(cudaErrorInvalidConfiguration);
    return;
  }
  if (request.cooperative) {
    // Every block resident at once: at most what the device's SMs hold (CUDA's rule, with the
    // occupancy cudaOccupancyMaxActiveBlocksPerMultiprocessor reports).
    const dim3& block = request.block;
    const std::uint64_t threads = std::uint64_t{block.x} * block.y * block.z;
    const std::uint64_t resident =
        std::uint64_t{runtime_options().limits.sm_count} *
        static_cast<std::uint64_t>(
            resident_blocks_for(static_cast<int>(threads), request.dynamic_shared_bytes));
    if (std::uint64_t{request.grid.x} * request.grid.y * request.grid.z > resident) {
      api_result(cudaErrorCooperativeLaunchTooLarge);
      return;
    }
  }
  LaunchPlan plan = plan_launch(request);
  if (request.cooperative) {
    plan.snapshot_blocks_first = false;  // grid.sync() needs every block
  }
  install_crash_handler();
  limit_parallelism(runtime_options().worker_threads);

  LaunchContext context;
  context.request = &request;
  context.block_count = std::uint64_t{request.grid.x} * request.grid.y * request.grid.z;
  context.threads_per_block = request.block.x * request.block.y * request.block.z;
  context.warps_per_block = (context.threads_per_block + 31) / 32;
  context.traced = plan.traced;
  context.snapshot_first = plan.snapshot_first;
  context.snapshot_end = plan.snapshot_first + plan.snapshot_count;
  context.trace_launch = plan.trace_launch;
  context.traced_load_count = plan.traced_load_count;
  context.device_ranges = allocations().device_ranges();
  context.loads = loads_registry().index();
  context.fiber_stack_bytes = plan.fiber_stack_bytes;
  context.max_block_events = plan.max_block_events;
  if (plan.bounds_check) {
    context.checked_window = allocations().device_window();
  }

  BlockTotals totals;
  const auto run_blocks = [&](std::uint64_t first, std::uint64_t end) {
    if (first >= end) {
      return;
    }
    tsan::ForkJoin fork_join;
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(first, end),
                      [&](const tbb::blocked_range<std::uint64_t>& range) {
                        fork_join.enter();
                        for (std::uint64_t block = range.begin(); block != range.end(); ++block) {
                          run_block(context, block, totals);
                        }
                        fork_join.leave();
                      });
    fork_join.join();
  };
  // Under MEMCARLO_STOP_AFTER_TRACE the snapshot's blocks run first (a schedule a GPU could
  // choose too: blocks of a launch are unordered): when this launch completes the trace, nothing
  // reads what the other blocks would write, and they never run.
  std::uint64_t blocks_run = context.block_count;
  if (request.cooperative) {
    run_cooperative(context, totals);
  } else if (plan.snapshot_blocks_first) {
    run_blocks(context.snapshot_first, context.snapshot_end);
    blocks_run = context.snapshot_end - context.snapshot_first;
  } else {
    run_blocks(0, context.block_count);
  }
  const bool trace_complete =
      plan.traced && traced_launch_ended(request.kernel_name, totals.records, totals.abandoned);
  if (plan.snapshot_blocks_first && !trace_complete) {
    run_blocks(0, context.snapshot_first);
    run_blocks(context.snapshot_end, context.block_count);
    blocks_run = context.block_count;
  }

  if (!totals.lane_sharing.empty()) {
    warn_lane_sharing(request, totals.lane_sharing);
  }
  if (!totals.warp_conflicts.empty()) {
    warn_warp_conflicts(request, totals.warp_conflicts);
  }

  RuntimeStats delta;
  delta.launches = 1;
  delta.traced_launches = plan.traced ? 1 : 0;
  delta.blocks = blocks_run;
  delta.traced_blocks = totals.traced_blocks;
  delta.probe_events = totals.probe_events;
  delta.traced_probe_events = totals.traced_events;
  delta.dropped_non_device = totals.dropped;
  delta.warp_records = totals.records;
  add_launch_stats(delta);
  if (trace_complete) {
    stop_after_trace(request, plan, blocks_run, context.block_count);
  }
}

}  // namespace memcarlo::host::detail
