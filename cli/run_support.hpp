// Shared by `memcarlo run` and `memcarlo profile`: running an instrumented program with the
// tracing environment and diagnosing what it left behind.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "process.hpp"

namespace CLI {
class App;
}

namespace memcarlo::cli {

struct RunOptions {
  std::string trace = "memcarlo.mct";
  std::string kernel;
  std::string launch;
  unsigned snapshot_factor = 4;
  std::string hierarchy = "fermi-c2050";
  std::vector<std::string> overrides;
  bool bounds_check = true;          // MEMCARLO_BOUNDS_CHECK for the program
  std::vector<std::string> program;  // argv of the program
  ProcessIo io;                      // the program's working directory and output (study)
};

struct TraceOutcome {
  ProcessResult process;
  std::string message;  // how the program ended, when not with status 0
  std::string problem;  // why the trace is missing, truncated or empty; empty when usable
  bool complete = false;
  std::uint64_t records = 0;
  std::uint64_t launches = 0;
};

/// The MEMCARLO_* variables that configure the runtime for `options` (hierarchy numbers,
/// snapshot, kernel selection, per-kernel resources recorded by memcarlo-cc).
std::vector<std::pair<std::string, std::string>> tracing_environment(const RunOptions& options);

/// Runs the program with tracing on and inspects the trace it wrote.
TraceOutcome run_traced(const RunOptions& options);

/// The options `run` and `profile` share.
void add_run_options(CLI::App& command, RunOptions& options);

}  // namespace memcarlo::cli
