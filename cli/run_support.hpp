// Shared by `memcarlo run` and `memcarlo profile`: running an instrumented program with the
// tracing environment and diagnosing what it left behind.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "process.hpp"

namespace CLI {
class App;
}
namespace memcarlo::tracebuf {
class TraceReader;
}

namespace memcarlo::cli {

struct RunOptions {
  std::string trace = "memcarlo.mct";
  std::string kernel;
  std::string launch;
  unsigned snapshot_factor = 4;
  std::string hierarchy = "fermi-c2050";
  std::vector<std::string> overrides;
  bool bounds_check = true;  // MEMCARLO_BOUNDS_CHECK for the program
  // MEMCARLO_BOUNDS_CHECK_HINT: what the runtime's out-of-bounds message says turns the check off.
  std::string bounds_check_hint = "--no-bounds-check";
  /// MEMCARLO_STOP_AFTER_TRACE for the program: it stops once its traced launches are written
  /// (run --stop-after-trace; profile unless --run-to-end).
  bool stop_after_trace = false;
  std::vector<std::string> program;  // argv of the program
  ProcessIo io;                      // the program's working directory and output (study)
};

/// The traced launch after which the runtime stopped the program (its status file).
struct StoppedLaunch {
  std::uint32_t launch = 0;  // index in the trace
  std::string kernel;
  std::uint64_t sequence_in_program = 0;
  std::uint64_t blocks_run = 0;
  std::uint64_t blocks = 0;
};

struct TraceOutcome {
  ProcessResult process;
  /// Set when the runtime stopped the program after its traced launches
  /// (MEMCARLO_STOP_AFTER_TRACE): its exit status then counts as 0.
  std::optional<StoppedLaunch> stopped;
  std::string message;  // how the program ended, when not with status 0
  std::string problem;  // why the trace is missing, truncated or empty; empty when usable
  bool complete = false;
  std::uint64_t records = 0;
  std::uint64_t launches = 0;
  /// The program's exit status as a shell reports it, 0 for a stop after the traced launches.
  [[nodiscard]] int status() const { return stopped ? 0 : process.shell_status(); }
};

/// One line for the user about a stopped program (which launch ran partly, that the program's own
/// checks did not run); empty when `outcome` did not stop.
std::string stopped_note(const TraceOutcome& outcome);

/// The MEMCARLO_* variables that configure the runtime for `options` (hierarchy numbers,
/// snapshot, kernel selection, per-kernel resources recorded by memcarlo-cc).
std::vector<std::pair<std::string, std::string>> tracing_environment(const RunOptions& options);

/// Runs the program with tracing on and inspects the trace it wrote.
TraceOutcome run_traced(const RunOptions& options);

/// What a trace's program did on the device that the trace does not hold (its `untraced_work`
/// annotations: the host backend's Thrust and CUB device-wide algorithms, run on the CPU), each
/// description once.
std::set<std::string> untraced_work(const tracebuf::TraceReader& reader);

/// The options `run` and `profile` share.
void add_run_options(CLI::App& command, RunOptions& options);

}  // namespace memcarlo::cli
