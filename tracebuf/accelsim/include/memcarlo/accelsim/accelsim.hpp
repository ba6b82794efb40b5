// Accel-Sim interoperability: import traces of Accel-Sim's NVBit tracer (kernelslist.g plus
// kernel-*.traceg[.xz]) into memcarlo traces, and export memcarlo traces in that format.
//
// The field mapping, what is dropped and the variants accepted are described in docs/accelsim.md.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace memcarlo::accelsim {

/// Malformed or unreadable Accel-Sim input. what() reads "FILE:LINE: message" (LINE omitted when
/// the problem is not tied to a line); the CLI maps it to exit code 2.
class ImportError : public std::runtime_error {
 public:
  ImportError(std::string file, std::uint64_t line, const std::string& message)
      : std::runtime_error(describe(file, line, message)), file_(std::move(file)), line_(line) {}
  [[nodiscard]] const std::string& file() const { return file_; }
  [[nodiscard]] std::uint64_t line() const { return line_; }  // 1-based; 0 = whole file

 private:
  static std::string describe(const std::string& file, std::uint64_t line,
                              const std::string& message) {
    std::string text = file;
    if (line > 0) {
      text.append(":").append(std::to_string(line));
    }
    return text.append(": ").append(message);
  }

  std::string file_;
  std::uint64_t line_;
};

/// Where a long-running import or export stands. `done` and `total` count input bytes (for .xz,
/// compressed bytes) on import and records on export.
struct Progress {
  std::string_view phase;  // "scan", "import" or "export"
  std::string_view file;   // the file being read or written
  std::uint64_t done = 0;
  std::uint64_t total = 0;
  std::uint64_t records = 0;  // memcarlo records so far
};
/// Called from the importing thread, at most about every `ImportOptions::progress_interval` bytes;
/// it must not throw.
using ProgressCallback = std::function<void(const Progress&)>;

struct ImportOptions {
  ProgressCallback progress;
  std::uint64_t progress_interval = std::uint64_t{8} << 20;
  /// Recorded in the trace's meta.command.
  std::string command;
};

/// What an import read, wrote and dropped.
struct ImportStats {
  std::uint64_t input_bytes = 0;  // on disk (compressed size for .xz)
  std::uint64_t kernels = 0;
  std::uint64_t blocks = 0;
  std::uint64_t warps = 0;
  std::uint64_t instructions = 0;         // every instruction line
  std::uint64_t memory_instructions = 0;  // instruction lines with a memory width > 0
  std::uint64_t records = 0;              // memcarlo records written
  std::uint64_t static_ids = 0;
  std::uint64_t dropped_shared = 0;    // LDS, STS, ATOMS, LDSM, ... and generic ones in the window
  std::uint64_t dropped_local = 0;     // LDL, STL and generic ones in the local window
  std::uint64_t dropped_constant = 0;  // LDC, ULDC
  std::uint64_t dropped_texture = 0;   // TEX, TLD, SULD, SUST, ... (texture and surface)
  std::uint64_t dropped_other = 0;     // any other opcode with a memory width (see notes)
  std::uint64_t dropped_inactive = 0;  // global accesses whose active mask is empty
  std::uint64_t generic_lanes_dropped = 0;  // lanes of generic accesses in a shared/local window
  std::uint64_t barriers = 0;               // BAR instructions turned into record barrier counts
  std::uint64_t memcpy_lines = 0;           // kernelslist.g memcpy lines (ignored)
  std::vector<std::string> notes;           // human-readable remarks worth showing the user
};

/// Imports `input`: a kernelslist.g (or a directory holding one), or a single kernel-N.traceg or
/// kernel-N.traceg.xz, into a memcarlo trace at `output`. Reads each kernel file twice (a fast
/// scan counts its thread blocks, then the import pass) and holds at most one warp batch of
/// records, so memory stays bounded whatever the input size. Throws ImportError for malformed or
/// unreadable input (the partial output is removed), tracebuf::TraceError when the output cannot
/// be written.
ImportStats import_trace(const std::string& input, const std::string& output,
                         const ImportOptions& options = {});

/// Whether .traceg.xz input is supported (the library was built with liblzma).
bool xz_supported();

struct ExportOptions {
  /// "-binary version" of every kernel: the SM version Accel-Sim assumes (70 = Volta).
  std::uint32_t binary_version = 70;
  /// Address modes 1 (base, stride) and 2 (base, deltas) where they apply; false lists every
  /// active lane's address (mode 0).
  bool compress_addresses = true;
  /// Write "-grid dim" as (snapshot blocks, 1, 1) so that Accel-Sim runs exactly the traced blocks;
  /// by default the launch's real grid is written and Accel-Sim finds only the traced blocks.
  bool snapshot_grid = false;
  ProgressCallback progress;
  std::uint64_t progress_interval = std::uint64_t{1} << 20;  // records
};

struct ExportStats {
  std::uint64_t launches = 0;
  std::uint64_t blocks = 0;
  std::uint64_t warps = 0;
  std::uint64_t records = 0;
  std::uint64_t instruction_lines = 0;  // memory instructions, BARs and EXITs written
  std::uint64_t bytes_written = 0;
  std::vector<std::string> files;  // kernelslist.g first, then kernel-1.traceg, ...
};

/// Exports the memcarlo trace `input` as Accel-Sim tracer-version-5 text into directory
/// `output_dir` (created if missing): kernelslist.g and kernel-N.traceg for the N-th launch
/// (1-based). Throws tracebuf::TraceError for an unreadable trace, std::runtime_error when the
/// output cannot be written.
ExportStats export_trace(const std::string& input, const std::string& output_dir,
                         const ExportOptions& options = {});

/// The PC the exporter gives the instruction of static id `id`; a read-modify-write record
/// becomes a load at this PC and a store at pc_of_static_id(id) + 0x10. Importing an exported
/// trace keeps the PC in each load's extra_json ("accelsim_pc"), which maps ids back.
constexpr std::uint64_t pc_of_static_id(std::uint32_t id) {
  return std::uint64_t{id} * 0x20;
}

}  // namespace memcarlo::accelsim
