// `memcarlo trace info|check FILE`: summarise a trace, or validate every invariant of it.
#include <CLI/CLI.hpp>

#include <iostream>
#include <map>

#include "commands.hpp"
#include "memcarlo/tracebuf/reader.hpp"

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
                                " records before it are readable)";
    if (!allow_truncated) {
      throw UserError(message, 2);
    }
    std::cout << message << "\n";
  }
  std::cout << path << ": OK: " << report.records << " records in " << report.warps
            << " warp streams, " << reader.launches().size() << " launches, "
            << reader.loads().size() << " static accesses\n";
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
#ifdef MEMCARLO_HAVE_ACCELSIM
  add_trace_interop_commands(*trace);
#endif
}

}  // namespace memcarlo::cli
