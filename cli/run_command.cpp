// `memcarlo run -- ./app args`: runs a program built with memcarlo-cc so that it writes the trace
// of its snapshot; the program's output and exit status are its own.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "commands.hpp"
#include "process.hpp"
#include "run_support.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/tracebuf/reader.hpp"
#include "memcarlo/tracebuf/stop_after_trace.hpp"

namespace memcarlo::cli {

std::vector<std::pair<std::string, std::string>> tracing_environment(const RunOptions& options) {
  sim::HierarchyConfig config;
  try {
    config = sim::load_hierarchy(options.hierarchy, options.overrides);
  } catch (const sim::ConfigError& e) {
    throw UserError(e.what(), 2);
  }
  std::vector<std::pair<std::string, std::string>> env = {
      {"MEMCARLO_TRACE", options.trace},
      {"MEMCARLO_SNAPSHOT_FACTOR", std::to_string(options.snapshot_factor)},
      {"MEMCARLO_HIERARCHY", options.hierarchy},
      {"MEMCARLO_SM_COUNT", std::to_string(config.sm.count)},
      {"MEMCARLO_MAX_THREADS_PER_SM", std::to_string(config.sm.max_threads)},
      {"MEMCARLO_MAX_BLOCKS_PER_SM", std::to_string(config.sm.max_blocks)},
      {"MEMCARLO_MAX_WARPS_PER_SM", std::to_string(config.sm.max_warps)},
      {"MEMCARLO_SHARED_BYTES_PER_SM", std::to_string(config.sm.shared_memory)},
      {"MEMCARLO_REGISTERS_PER_SM", std::to_string(config.sm.registers)},
      {"MEMCARLO_REGISTERS_PER_THREAD", std::to_string(config.sm.default_registers_per_thread)},
      {"MEMCARLO_L2_BYTES", std::to_string(config.l2.size)},
      {"MEMCARLO_CLOCK_KHZ", std::to_string(std::llround(config.clock_mhz * 1000))},
      // Set either way, so that a MEMCARLO_BOUNDS_CHECK=0 left in the shell does not decide.
      {"MEMCARLO_BOUNDS_CHECK", options.bounds_check ? "1" : "0"},
      {"MEMCARLO_BOUNDS_CHECK_HINT", options.bounds_check_hint},
      {"MEMCARLO_STOP_AFTER_TRACE", options.stop_after_trace ? "1" : "0"},
  };
  if (!options.kernel.empty()) {
    env.emplace_back("MEMCARLO_KERNEL", options.kernel);
  }
  if (!options.launch.empty()) {
    env.emplace_back("MEMCARLO_LAUNCH", options.launch);
  }
  // Registers and static shared memory per kernel, recorded by memcarlo-cc from nvcc.
  if (!options.program.empty() && std::getenv("MEMCARLO_KERNEL_RESOURCES") == nullptr) {
    std::ifstream resources(options.program.front() + ".memcarlo-resources");
    std::string line;
    if (resources && std::getline(resources, line) && !line.empty()) {
      env.emplace_back("MEMCARLO_KERNEL_RESOURCES", line);
    }
  }
  return env;
}

namespace {

/// The status file the runtime leaves beside the trace when it stops the program.
StoppedLaunch read_stop_status(const std::string& path) {
  std::ifstream in(path);
  const nlohmann::json status = nlohmann::json::parse(in, nullptr, false);
  StoppedLaunch stopped;
  try {
    stopped.launch = status.at("launch").get<std::uint32_t>();
    stopped.kernel = status.at("kernel").get<std::string>();
    stopped.sequence_in_program = status.at("sequence_in_program").get<std::uint64_t>();
    stopped.blocks_run = status.at("blocks_run").get<std::uint64_t>();
    stopped.blocks = status.at("blocks").get<std::uint64_t>();
  } catch (const nlohmann::json::exception& e) {
    throw UserError(path +
                        ": not the status file of a program stopped after its traced "
                        "launches (expected {launch, kernel, sequence_in_program, blocks_run, "
                        "blocks}): " +
                        e.what(),
                    2);
  }
  return stopped;
}

}  // namespace

std::string stopped_note(const TraceOutcome& outcome) {
  if (!outcome.stopped) {
    return {};
  }
  const StoppedLaunch& s = *outcome.stopped;
  std::string note = "the program was stopped after its traced launches: ";
  if (s.blocks_run < s.blocks) {
    note += "traced launch " + std::to_string(s.launch) + " ('" + s.kernel + "') ran only its " +
            std::to_string(s.blocks_run) + " snapshot blocks of " + std::to_string(s.blocks) + ", ";
  }
  return note +
         "no later launch ran and the program's own checks did not run (--run-to-end runs it to "
         "its end)";
}

std::set<std::string> untraced_work(const tracebuf::TraceReader& reader) {
  std::set<std::string> untraced;
  const auto annotations = nlohmann::json::parse(reader.annotations_json(), nullptr, false);
  if (!annotations.is_array()) return untraced;
  for (const auto& record : annotations) {
    if (record.is_object() && record.value("kind", "") == "untraced_work" &&
        record.contains("payload") && record["payload"].is_object()) {
      untraced.insert(record["payload"].value("what", "work outside kernels"));
    }
  }
  return untraced;
}

TraceOutcome run_traced(const RunOptions& options) {
  if (options.program.empty()) {
    throw UserError("no program given: memcarlo run [options] -- ./app args", 1);
  }
  std::error_code ignored;
  std::filesystem::remove(options.trace, ignored);  // never report a stale trace as this run's
  const std::string status_path = tracebuf::stop_status_path(options.trace);
  std::filesystem::remove(status_path, ignored);
  const auto env = tracing_environment(options);
  const ProcessResult process = run_process(options.program, env, options.io);
  TraceOutcome outcome;
  outcome.process = process;
  if (!process.started) {
    throw UserError(process.error, 2);
  }
  const std::string program = options.program.front();
  if (process.signal == 0 && process.exit_code == tracebuf::kExitStoppedAfterTrace &&
      std::filesystem::exists(status_path)) {
    outcome.stopped = read_stop_status(status_path);
    std::filesystem::remove(status_path, ignored);
  }
  if (outcome.stopped) {
    // The runtime's own line on stderr said so; stopped_note() says it for the report.
  } else if (process.signal != 0) {
    outcome.message = program + " was killed by signal " + std::to_string(process.signal) + " (" +
                      strsignal(process.signal) + ")";
  } else if (process.exit_code != 0) {
    outcome.message = program + " exited with status " + std::to_string(process.exit_code);
  }
  if (!std::filesystem::exists(options.trace)) {
    // A program that failed before its first traced launch leaves no trace either; its own
    // message (above) says why, so do not blame the build.
    outcome.problem =
        outcome.message.empty()
            ? "no trace was written: " + program +
                  " does not contain the memcarlo runtime (build it with memcarlo-cc "
                  "--backend host) or ended before its first CUDA call"
            : "no trace was written: " + program + " ended before its first traced launch";
    return outcome;
  }
  try {
    const auto reader = tracebuf::TraceReader::open(options.trace, {.allow_truncated = true});
    outcome.records = reader.total_records();
    outcome.launches = reader.launches().size();
    outcome.complete = reader.complete();
    if (!reader.complete()) {
      outcome.problem = "the trace is truncated at byte " + std::to_string(reader.truncated_at()) +
                        " (" + reader.truncation_reason() + "); its readable prefix holds " +
                        std::to_string(reader.total_records()) +
                        " records (memcarlo trace check --allow-truncated " + options.trace + ")";
    } else if (reader.launches().empty()) {
      outcome.problem = program + " launched no kernel" +
                        (options.kernel.empty() ? std::string()
                                                : " named " + options.kernel) +
                        ": the trace has no launches";
      const std::set<std::string> untraced = untraced_work(reader);
      if (options.kernel.empty() && !untraced.empty()) {
        // A Thrust-only program (radixSortThrust): say what ran instead, and that it is not
        // what memcarlo traces.
        std::string what;
        for (const std::string& item : untraced) what += (what.empty() ? "" : "; ") + item;
        outcome.problem += ". What it ran on the device was library code the host backend runs "
                           "on the CPU, untraced (" + what + "); memcarlo traces the kernels a "
                           "program defines and launches itself";
      }
    } else if (reader.total_records() == 0) {
      outcome.problem =
          "the traced launches made no global-memory access that was probed (memcarlo keeps "
          "accesses to cudaMalloc'ed and managed memory; shared memory, the stack, __constant__ "
          "and __device__ variables, and host memory read through mapped pointers are not "
          "traced)";
    }
  } catch (const tracebuf::TraceError& e) {
    outcome.problem = e.what();
  }
  return outcome;
}

namespace {

void run_command(const RunOptions& options) {
  const TraceOutcome outcome = run_traced(options);
  if (!outcome.message.empty()) {
    std::cerr << "memcarlo run: " << outcome.message << "\n";
  }
  if (!outcome.problem.empty()) {
    std::cerr << "memcarlo run: " << outcome.problem << "\n";
  } else {
    std::cerr << "memcarlo run: wrote " << options.trace << ": " << outcome.launches
              << " launches, " << outcome.records << " records\n";
  }
  if (outcome.stopped) {
    std::cerr << "memcarlo run: " << stopped_note(outcome) << "\n";
  }
  const int status = outcome.status();
  if (status != 0) {
    throw ExitStatus(status);
  }
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  auto* run = app.add_subcommand(
      "run",
      "Run a program built with memcarlo-cc and write the trace of its snapshot (paper 3.1): by "
      "default the first launch of each kernel, SMs x resident blocks per SM x 4 consecutive "
      "blocks. The program's output and exit status are unchanged");
  add_run_options(*run, *options);
  run->add_option("--trace,-t", options->trace, "Trace file to write")->capture_default_str();
  run->add_flag("--stop-after-trace", options->stop_after_trace,
                "Stop the program once its traced launches are written: the launch that "
                "completes the trace runs only its snapshot's blocks, no later launch runs and the "
                "program's own checks do not; exit status 0 (docs/host-runtime.md)");
  run->add_option("PROGRAM", options->program, "The program and its arguments, after --")
      ->required();
  run->callback([options] { run_command(*options); });
}

void add_run_options(CLI::App& command, RunOptions& options) {
  command.add_option("--kernel,-k", options.kernel,
                     "Trace only these kernels (comma-separated names)");
  command.add_option("--launch", options.launch,
                     "Which launch of each traced kernel (0-based), or 'all' (default: the first that "
                     "makes a global-memory access, looking past up to 8 empty ones)");
  command.add_option("--snapshot-factor", options.snapshot_factor,
                     "Snapshot = SMs x resident blocks per SM x this")
      ->check(CLI::Range(1u, 1u << 20))
      ->capture_default_str();
  command.add_option("--hierarchy,-H", options.hierarchy,
                     "Preset or hierarchy file whose SM count and occupancy limits size the "
                     "snapshot")
      ->capture_default_str();
  command.add_option("--set", options.overrides, "Override a hierarchy parameter (key=value)");
  command.add_flag("!--no-bounds-check", options.bounds_check,
                   "Do not check that probed device accesses stay inside their allocations "
                   "(faster; an out-of-bounds access then reads or writes whatever is there, or "
                   "crashes)");
}

}  // namespace memcarlo::cli
