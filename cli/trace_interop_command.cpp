// `memcarlo trace import|export --format accelsim`: convert between memcarlo traces and the text
// traces of Accel-Sim's NVBit tracer. The work is in memcarlo::accelsim; this file parses options
// and prints progress and summaries.
#include <unistd.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "memcarlo/accelsim/accelsim.hpp"
#include "memcarlo/tracebuf/errors.hpp"

namespace memcarlo::cli {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint64_t kProgressMinBytes = std::uint64_t{64} << 20;
constexpr std::uint64_t kProgressMinRecords = std::uint64_t{1} << 20;

/// Progress on stderr: a line redrawn in place on a terminal, one line per 10% otherwise.
class ProgressPrinter {
 public:
  explicit ProgressPrinter(const char* unit) : unit_(unit), tty_(::isatty(STDERR_FILENO) == 1) {}
  ~ProgressPrinter() { finish(); }
  ProgressPrinter(const ProgressPrinter&) = delete;
  ProgressPrinter& operator=(const ProgressPrinter&) = delete;

  void update(const accelsim::Progress& p) {
    if (p.total == 0) {
      return;
    }
    const auto percent =
        static_cast<int>(100.0 * static_cast<double>(p.done) / static_cast<double>(p.total));
    const std::string phase(p.phase);
    if (!tty_ && phase == last_phase_ && percent < last_percent_ + 10) {
      return;
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    const bool bytes = std::string_view(unit_) == "MB";
    const double scale = bytes ? 1e-6 : 1.0;
    std::fprintf(stderr, "%s%s: %3d%% (%.0f of %.0f %s, %llu records, %.0f s)%s", tty_ ? "\r" : "",
                 phase.c_str(), percent, static_cast<double>(p.done) * scale,
                 static_cast<double>(p.total) * scale, bytes ? "MB" : "records",
                 static_cast<unsigned long long>(p.records), seconds, tty_ ? "  " : "\n");
    std::fflush(stderr);
    shown_ = true;
    last_phase_ = phase;
    last_percent_ = percent;
  }
  void finish() {
    if (shown_ && tty_) {
      std::fputc('\n', stderr);
    }
    shown_ = false;
  }

 private:
  const char* unit_;
  bool tty_;
  bool shown_ = false;
  std::string last_phase_;
  int last_percent_ = -100;
  Clock::time_point start_ = Clock::now();
};

void require_accelsim(const std::string& format) {
  if (format != "accelsim") {
    throw UserError("unknown trace format '" + format + "' (supported: accelsim)", 1);
  }
}

void run_import(const std::string& format, const std::string& input, const std::string& output,
                bool quiet, const std::string& command) {
  require_accelsim(format);
  ProgressPrinter printer("MB");
  accelsim::ImportOptions options;
  options.command = command;
  if (!quiet) {
    options.progress = [&printer](const accelsim::Progress& p) {
      if (p.total >= kProgressMinBytes) {
        printer.update(p);
      }
    };
  }
  const auto start = Clock::now();
  accelsim::ImportStats stats;
  try {
    stats = accelsim::import_trace(input, output, options);
  } catch (const accelsim::ImportError& e) {
    printer.finish();
    throw UserError(e.what(), 2);
  }
  printer.finish();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::cout << "imported " << input << " -> " << output << "\n"
            << "  " << stats.kernels << " kernels, " << stats.blocks << " thread blocks, "
            << stats.warps << " warps, " << stats.instructions << " instructions ("
            << stats.memory_instructions << " with a memory operand)\n"
            << "  " << stats.records << " records, " << stats.static_ids << " static accesses, "
            << stats.barriers << " barriers\n";
  const std::uint64_t dropped = stats.dropped_shared + stats.dropped_local +
                                stats.dropped_constant + stats.dropped_texture +
                                stats.dropped_other + stats.dropped_inactive;
  if (dropped > 0 || stats.generic_lanes_dropped > 0) {
    std::cout << "  dropped: " << stats.dropped_shared << " shared, " << stats.dropped_local
              << " local, " << stats.dropped_constant << " constant, " << stats.dropped_texture
              << " texture/surface, " << stats.dropped_other << " other, " << stats.dropped_inactive
              << " with no active lane; " << stats.generic_lanes_dropped
              << " lanes of generic accesses in the shared/local windows\n";
  }
  for (const auto& note : stats.notes) {
    std::cout << "  note: " << note << "\n";
  }
  std::printf("  %.1f MB in %.2f s (%.1f MB/s)\n", static_cast<double>(stats.input_bytes) * 1e-6,
              seconds, seconds > 0 ? static_cast<double>(stats.input_bytes) * 1e-6 / seconds : 0.0);
}

void run_export(const std::string& format, const std::string& input, const std::string& output,
                const accelsim::ExportOptions& base_options, const std::string& address_mode,
                bool quiet) {
  require_accelsim(format);
  ProgressPrinter printer("records");
  accelsim::ExportOptions options = base_options;
  options.compress_addresses = address_mode == "compact";
  if (!quiet) {
    options.progress = [&printer](const accelsim::Progress& p) {
      if (p.total >= kProgressMinRecords) {
        printer.update(p);
      }
    };
  }
  accelsim::ExportStats stats;
  try {
    stats = accelsim::export_trace(input, output, options);
  } catch (const std::runtime_error& e) {
    printer.finish();
    if (dynamic_cast<const tracebuf::TraceError*>(&e) != nullptr) {
      throw;
    }
    throw UserError(e.what(), 1);
  }
  printer.finish();
  std::cout << "exported " << input << " -> " << output << "/kernelslist.g\n"
            << "  " << stats.launches << " kernels, " << stats.blocks << " thread blocks, "
            << stats.warps << " warps, " << stats.records << " records as "
            << stats.instruction_lines << " instruction lines (" << stats.bytes_written
            << " bytes)\n";
}

std::string command_line(const std::vector<std::string>& parts) {
  std::string line = "memcarlo trace import";
  for (const auto& part : parts) {
    line += " " + part;
  }
  return line;
}

}  // namespace

void add_trace_interop_commands(CLI::App& trace) {
  struct ImportArgs {
    std::string format, input, output;
    bool quiet = false;
  };
  auto import_args = std::make_shared<ImportArgs>();
  auto* import_command = trace.add_subcommand(
      "import", "Convert an Accel-Sim (NVBit tracer) trace into a memcarlo trace");
  import_command->footer(
      "--format accelsim reads the text traces of Accel-Sim's NVBit tracer: a kernelslist.g (or\n"
      "a directory holding one) with its kernel-N.traceg files (.traceg.xz too when built with\n"
      "liblzma), or a single .traceg. Global loads, stores and atomics become records; shared,\n"
      "local, constant and texture accesses are dropped; each distinct PC of a kernel becomes a\n"
      "static access. Malformed input is reported with its file and line (exit code 2).\n"
      "Details: docs/accelsim.md");
  import_command->add_option("--format", import_args->format, "Input format: accelsim")->required();
  import_command
      ->add_option("INPUT", import_args->input, "kernelslist.g, a directory, or a .traceg[.xz]")
      ->required();
  import_command
      ->add_option("-o,--output", import_args->output, "The memcarlo trace to write (.mct)")
      ->required();
  import_command->add_flag("-q,--quiet", import_args->quiet, "No progress indicator on stderr");
  import_command->callback([import_args] {
    const std::string command = command_line(
        {"--format", import_args->format, import_args->input, "-o", import_args->output});
    run_import(import_args->format, import_args->input, import_args->output, import_args->quiet,
               command);
  });

  struct ExportArgs {
    std::string format, input, output, address_mode = "compact";
    accelsim::ExportOptions options;
    bool quiet = false;
  };
  auto export_args = std::make_shared<ExportArgs>();
  auto* export_command =
      trace.add_subcommand("export", "Write a memcarlo trace as Accel-Sim (NVBit tracer) text");
  export_command->footer(
      "--format accelsim writes DIR/kernelslist.g and one kernel-N.traceg per launch in the\n"
      "tracer-version-5 layout, for Accel-Sim's trace-driven simulator: every traced block and\n"
      "warp, records as LDG/STG/ATOMG instructions (one PC per static access) whose registers\n"
      "carry the program's load dependences, barriers as BAR,\n"
      "and an EXIT ending each warp. Importing the result gives back the same records.\n"
      "Details: docs/accelsim.md");
  export_command->add_option("--format", export_args->format, "Output format: accelsim")
      ->required();
  export_command->add_option("FILE", export_args->input, "The memcarlo trace (.mct)")->required();
  export_command
      ->add_option("-o,--output", export_args->output, "Output directory (created if missing)")
      ->required();
  export_command
      ->add_option("--binary-version", export_args->options.binary_version,
                   "The '-binary version' (SM version) written into every kernel header")
      ->capture_default_str();
  export_command
      ->add_option("--address-mode", export_args->address_mode,
                   "compact: base+stride or base+deltas where they apply; list: every address")
      ->check(CLI::IsMember({"compact", "list"}))
      ->capture_default_str();
  export_command->add_flag(
      "--snapshot-grid", export_args->options.snapshot_grid,
      "Write the grid as (traced blocks,1,1) so that Accel-Sim runs only those blocks");
  export_command->add_flag("-q,--quiet", export_args->quiet, "No progress indicator on stderr");
  export_command->callback([export_args] {
    run_export(export_args->format, export_args->input, export_args->output, export_args->options,
               export_args->address_mode, export_args->quiet);
  });
}

}  // namespace memcarlo::cli
