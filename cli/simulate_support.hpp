// Shared by `memcarlo simulate`, `profile` and `merge`: the simulation options and the step that
// turns a trace (or the shards of a run) into report.json and the terminal table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "memcarlo/reports/report.hpp"
#include "memcarlo/sim/monte_carlo.hpp"

namespace CLI {
class App;
}

namespace memcarlo::cli {

struct SimulateOptions {
  std::string trace;
  std::string hierarchy = "fermi-c2050";
  std::vector<std::string> overrides;
  std::uint32_t trials = 32;
  std::uint64_t seed = 1;
  unsigned threads = 0;
  double until_ci = 0;
  std::uint32_t max_trials = 1000;
  std::vector<std::uint32_t> launches;
  std::string output = "report.json";
  std::string html;  // --html: also the report as an HTML page here (empty: none)
  unsigned bins = 20;
  bool allow_truncated = false;
  bool quiet = false;
  std::string sort = "cost";  // the table's row order (reports::TableSort)
  std::size_t width = 0;      // the table's width; 0: the terminal's, or a fixed one in a pipe
  std::optional<reports::Emulation> emulation;  // profile: how the program ran (inputs.emulation)
};

/// Hierarchy, --set, trials, seed, threads, --until-ci, --max-trials, -o, --html, --bins, --quiet.
void add_simulation_options(CLI::App& command, SimulateOptions& options);
/// --sort and --width, for the commands that print simulate's per-load table.
void add_table_options(CLI::App& command, SimulateOptions& options);

/// Reads, checks and simulates options.trace; writes the report and prints the table. On standard
/// error, unless quiet: a warning when the trace's snapshot was sized for another GPU, a note when
/// the run will need much memory or time or --threads is more than the machine has, and progress
/// on a terminal. Throws UserError (exit code 2) for malformed inputs.
void run_simulate(const SimulateOptions& options);

/// Writes the HTML page of `report_json` (a report this memcarlo just made) to `path` ('-' for
/// stdout); `source` names the report in the page's title. (report_command.cpp)
void write_html_report(const std::string& report_json, const std::string& source,
                       const std::string& path);

struct ShardSpec;
struct MergedShards;

/// run_simulate, and for `--shard I/N` (`shard` active: run the shard's trials and write them to
/// options.output as a shard file) or for `memcarlo merge` (`merged`: the shards' trials instead
/// of running them; the trace's SHA-256 and the hierarchy must be the shards'). Under mpirun
/// the trials are spread over the ranks and rank 0 writes the report.
void run_simulate(const SimulateOptions& options, const ShardSpec& shard,
                  const MergedShards* merged);

/// What the report needs besides the options and the trials.
struct SimulateReportInputs {
  std::string trace_sha256;
  const sim::HierarchyConfig* config = nullptr;
  const sim::CompiledTrace* compiled = nullptr;
  double compile_seconds = 0;
  reports::TableOptions table;
};

/// The one step from the trials to the report and the table, for a run in one process, an MPI
/// run (on rank 0) and memcarlo merge alike, so that they give the same report (apart from its
/// `performance` section).
void write_simulate_report(const SimulateOptions& options, const SimulateReportInputs& report,
                           const sim::MonteCarloRun& run);

/// This shard's trials (t % count == index) of `trials`, in trial order.
std::vector<sim::TrialResult> shard_trials(const std::vector<sim::TrialResult>& trials,
                                           const ShardSpec& shard);

/// Refuses a merge whose trace (`trace_sha256` of the file read) or hierarchy (`config`, as the
/// hierarchy name and overrides give it now) is not what the shards were run with.
void check_merged_inputs(const MergedShards& merged, const std::string& trace,
                         const std::string& trace_sha256, const sim::HierarchyConfig& config);

}  // namespace memcarlo::cli

namespace memcarlo::cli {

/// `--descriptors FILE` of simulate and sweep: reads and checks FILE's Locality Descriptors on
/// their own (docs/locality-descriptors.md) and returns the overrides that go before the user's
/// own --set (so that a --set, --vary or points file of the same key wins): the mechanisms that
/// act on descriptors whatever the machine, `schedule.cta=ldesc` and `placement.policy=ldesc`
/// (leaving out a key the hierarchy file `hierarchy` names itself), then
/// `ldesc.descriptors="FILE"` that passes FILE to the compile. UserError (2) naming the file and
/// the field otherwise. The checks against the trace (kernels, tiles that divide the grid,
/// addresses inside an allocation) run in the compile, whose errors name the file and the field
/// too. (descriptors_command.cpp)
std::vector<std::string> descriptors_overrides(const std::string& file,
                                               const std::string& hierarchy);

}  // namespace memcarlo::cli
