// The runtime's process-wide state around tracing: the options in force, launch counters and
// snapshot selection (paper §3.1), and the open trace writer with its allocation and loads tables.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "memcarlo/host/control.hpp"
#include "memcarlo/host/detail/launch.h"
#include "memcarlo/tracebuf/record.hpp"

namespace memcarlo::host::detail {

/// What the launch code needs to know about one launch before running it.
struct LaunchPlan {
  bool traced = false;
  std::uint32_t trace_launch = 0;  // Launch chunk index when traced
  std::uint64_t snapshot_first = 0;
  std::uint64_t snapshot_count = 0;
  std::uint32_t traced_load_count = 0;
  std::size_t fiber_stack_bytes = 0;
  std::uint64_t max_block_events = 0;
  bool verbose = false;
  bool bounds_check = true;
  /// Traced under MEMCARLO_STOP_AFTER_TRACE: the snapshot's blocks run first, and the others only
  /// when traced_launch_ended says that tracing goes on.
  bool snapshot_blocks_first = false;
  std::uint64_t sequence = 0;  // the launch's place in the program (0-based)
};

/// Reads the options and registers the exit handler that finishes the trace. Called at the first
/// device allocation (and at the first launch), after static initialization: a traced program
/// that never launches a kernel still leaves a complete trace, with its loads and allocations and
/// no launches, so that `memcarlo run` can say what happened.
void start_trace_session();

/// Counts the launch, decides whether and which blocks it traces and, if so, opens the trace
/// (first time), lists new allocations and writes the Launch chunk.
LaunchPlan plan_launch(const LaunchRequest& request);

/// Appends one warp's records of a traced block. Write failures are reported once and end
/// tracing; the program itself goes on.
void write_warp_records(std::uint32_t trace_launch, std::uint64_t block, std::uint32_t warp,
                        std::span<const tracebuf::WarpRecord> records);

/// A traced launch of `kernel` ended having made `records` warp records (for the rule of
/// RuntimeOptions::first_launch_with_records); `abandoned`: a traced block passed
/// MEMCARLO_MAX_BLOCK_EVENTS, so the launch did access memory even when it kept no record, and it
/// counts as the kernel's launch with records. Returns true under MEMCARLO_STOP_AFTER_TRACE when
/// every launch the options select has now been traced: nothing after this launch is kept.
bool traced_launch_ended(const std::string& kernel, std::uint64_t records, bool abandoned);

/// Under MEMCARLO_STOP_AFTER_TRACE, after traced_launch_ended returned true: writes the status
/// file (tracebuf/stop_after_trace.hpp), finishes the trace, says so on stderr and ends the
/// process with tracebuf::kExitStoppedAfterTrace.
[[noreturn]] void stop_after_trace(const LaunchRequest& request, const LaunchPlan& plan,
                                   std::uint64_t blocks_run, std::uint64_t blocks);

/// Adds a finished launch's counts to the statistics.
void add_launch_stats(const RuntimeStats& delta);

}  // namespace memcarlo::host::detail
