// `memcarlo trace info|check FILE`: summarise a trace, or validate every invariant of it;
// `memcarlo trace compare A B`: do two traces of one program record the same accesses.
#include <CLI/CLI.hpp>

#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "commands.hpp"
#include "run_support.hpp"
#include "memcarlo/reports/trace_device.hpp"
#include "memcarlo/tracebuf/reader.hpp"
#include "memcarlo/tracebuf/trace_comparison.hpp"

namespace memcarlo::cli {
namespace {

void print_info(const std::string& path) {
  const auto reader = tracebuf::TraceReader::open(path, {.allow_truncated = true});
  const auto& meta = reader.meta();
  std::cout << "trace:        " << path << " (" << reader.file_size() << " bytes, format v"
            << reader.format_version() << (reader.complete() ? "" : ", TRUNCATED") << ")\n"
            << "producer:     " << meta.producer << " " << meta.producer_version
            << ", backend " << meta.backend << "\n";
  if (!meta.command.empty()) {
    std::cout << "command:      " << meta.command << "\n";
  }
  if (const std::string device =
          reports::describe_recorded_device(reports::read_recorded_device(meta.device_json));
      !device.empty()) {
    std::cout << "device:       " << device << "\n";
  }
  std::map<tracebuf::AccessKind, int> kinds;
  for (const auto& load : reader.loads()) {
    ++kinds[load.kind];
  }
  std::cout << "loads table:  " << reader.loads().size() << " static accesses (";
  const char* separator = "";
  for (const auto& [kind, count] : kinds) {
    std::cout << separator << count << " " << tracebuf::to_string(kind);
    separator = ", ";
  }
  std::cout << ")\n"
            << "allocations:  " << reader.allocations().size() << "\n"
            << "records:      " << reader.total_records() << "\n"
            << "launches:     " << reader.launches().size() << "\n";
  for (const auto& launch : reader.launches()) {
    const auto& info = launch.info;
    std::uint64_t records = 0;
    for (const auto& warp : launch.warps) {
      records += warp.record_count;
    }
    std::cout << "  [" << info.index << "] " << info.kernel << " grid (" << info.grid.x << ","
              << info.grid.y << "," << info.grid.z << ") block (" << info.block.x << ","
              << info.block.y << "," << info.block.z << ") snapshot blocks ["
              << info.snapshot_first_block << ", "
              << info.snapshot_first_block + info.snapshot_block_count << "), "
              << launch.warps.size() << " warp streams, " << records << " records\n";
  }
  // Work the program did that the trace does not hold (the host backend's Thrust and CUB
  // device-wide algorithms run on the CPU), once per description.
  for (const std::string& what : untraced_work(reader)) {
    std::cout << "not traced:   " << what << "\n";
  }
  if (!reader.complete()) {
    std::cout << "truncated at byte " << reader.truncated_at() << ": "
              << reader.truncation_reason() << "\n";
  }
}

void run_check(const std::string& path, bool allow_truncated) {
  const auto reader = tracebuf::TraceReader::open(path, {.allow_truncated = true});
  const auto report = tracebuf::check_invariants(reader);
  for (const auto& warning : report.warnings) {
    std::cout << path << ": warning: " << warning << "\n";
  }
  if (!reader.complete()) {
    const std::string message = path + ": byte " + std::to_string(reader.truncated_at()) +
                                ": truncated trace: " + reader.truncation_reason() + " (the " +
                                std::to_string(report.records) +
                                " records before it are readable; --allow-truncated accepts them)";
    if (!allow_truncated) {
      throw UserError(message, 2);
    }
    std::cout << message << "\n";
  }
  std::cout << path << ": OK: " << report.records << " records in " << report.warps
            << " warp streams, " << reader.launches().size() << " launches, "
            << reader.loads().size() << " static accesses\n";
}

/// Exit status of `trace compare` when both traces were read and they differ (1 is a usage error,
/// 2 an unreadable trace).
constexpr int kTracesDiffer = 3;

struct CompareTracesOptions {
  std::string expected;
  std::string actual;
  bool barriers = false;
  bool per_lane = false;
  std::size_t max_differences = 20;
};

void run_compare_traces(const CompareTracesOptions& options) {
  const auto expected = tracebuf::TraceReader::open(options.expected);
  const auto actual = tracebuf::TraceReader::open(options.actual);
  const auto comparison = tracebuf::compare_traces(
      expected, actual,
      {.compare_barriers = options.barriers,
       .per_lane = options.per_lane,
       .max_differences = options.max_differences});
  for (const std::string& difference : comparison.differences) {
    std::cout << difference << "\n";
  }
  std::cout << (comparison.equal() ? "traces agree: " : "traces differ: ")
            << comparison.records_compared << " records compared, " << comparison.differences.size()
            << " differences listed, ";
  if (options.per_lane) {
    std::cout << comparison.regrouped_warps
              << " warps grouped their lanes differently (every lane's accesses agree), ";
  }
  std::cout << comparison.barrier_differences
            << " records with other barrier counts ("
            << (options.barriers ? "compared" : "not compared") << ")\n";
  if (!comparison.equal()) {
    throw ExitStatus(kTracesDiffer);
  }
}

void add_compare_subcommand(CLI::App& trace) {
  auto options = std::make_shared<CompareTracesOptions>();
  auto* compare = trace.add_subcommand(
      "compare",
      "Check that two traces of the same program and MEMCARLO_* options record the same "
      "accesses, e.g. the host backend's and the cuda backend's: launches paired by kernel, "
      "then grid, block, snapshot and every (block, warp) stream record by record (static id, "
      "kind, size, active mask, lane addresses relative to the lowest address of each static "
      "access). Exit code 0 when they agree, 3 when they differ (each difference is printed with "
      "its launch, block, warp and record), 2 when a trace cannot be read");
  compare->add_option("EXPECTED", options->expected, "Reference trace (e.g. the host backend's)")
      ->required();
  compare->add_option("ACTUAL", options->actual, "Trace to check (e.g. the cuda backend's)")
      ->required();
  compare->add_flag("--barriers", options->barriers,
                    "Compare barrier counts too (the cuda backend cannot see __syncthreads, so "
                    "they are only counted by default)");
  compare->add_flag(
      "--per-lane", options->per_lane,
      "Where a warp's records differ, compare each lane's own accesses in order instead: GPUs "
      "from Volta on need not run a divergent warp's lanes together (lanes that leave a loop "
      "early may go on before the others finish, differently from run to run), so their records "
      "group lanes differently while every lane makes the same accesses. Such warps are counted, "
      "not listed as differences");
  compare
      ->add_option("--max-differences", options->max_differences,
                   "Differences to list before stopping the list")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}))
      ->capture_default_str();
  compare->callback([options] { run_compare_traces(*options); });
}

}  // namespace

void add_trace_command(CLI::App& app) {
  auto* trace = app.add_subcommand("trace", "Inspect and validate trace files (.mct)");
  trace->require_subcommand(1);

  auto* info = trace->add_subcommand("info", "Print a summary of a trace");
  auto info_path = std::make_shared<std::string>();
  info->add_option("FILE", *info_path, "Trace file")->required();
  info->callback([info_path] { print_info(*info_path); });

  auto* check = trace->add_subcommand(
      "check",
      "Validate framing, checksums and every invariant of a trace. Exit code 2 and the byte "
      "offset of the first problem when it is truncated or corrupted");
  auto check_path = std::make_shared<std::string>();
  auto allow_truncated = std::make_shared<bool>(false);
  check->add_option("FILE", *check_path, "Trace file")->required();
  check->add_flag("--allow-truncated", *allow_truncated,
                  "Accept a truncated trace whose readable prefix is valid (exit code 0)");
  check->callback([check_path, allow_truncated] { run_check(*check_path, *allow_truncated); });
  add_compare_subcommand(*trace);
#ifdef MEMCARLO_HAVE_ACCELSIM
  add_trace_interop_commands(*trace);
#endif
}

}  // namespace memcarlo::cli
