// The file-level structure of an Accel-Sim trace: which kernel files a kernelslist.g names, and
// the "-key = value" header that opens each kernel-N.traceg.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "instruction.hpp"
#include "line_source.hpp"
#include "memcarlo/accelsim/accelsim.hpp"
#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::accelsim::detail {

struct KernelFile {
  std::string path;
  std::string listed_in;  // the kernelslist.g naming it, empty when given directly
  std::uint64_t listed_line = 0;
};

/// The kernel files `input` designates, in kernelslist order: a kernelslist.g (memcpy lines are
/// counted in stats.memcpy_lines and skipped), a directory holding one, or one .traceg[.xz].
/// Throws ImportError.
std::vector<KernelFile> resolve_kernel_files(const std::string& input, ImportStats& stats);

struct KernelHeader {
  std::string kernel_name;
  tracebuf::Dim3 grid;
  tracebuf::Dim3 block;
  std::uint64_t shared_bytes = 0;  // "-shmem": static plus dynamic
  std::uint32_t registers = 0;
  std::optional<std::uint64_t> kernel_id;  // 1-based position in the program's launches
  std::optional<std::uint32_t> tracer_version;
  std::uint64_t shared_window_base = 0;  // 0 = unknown
  std::uint64_t local_window_base = 0;   // 0 = unknown
  LineLayout layout;
  /// "-memcarlo rmw pcs": loads the memcarlo exporter split from read-modify-write records.
  std::vector<std::uint64_t> rmw_pcs;
  /// Every header line as written, in order, for the trace's meta properties.
  std::vector<std::pair<std::string, std::string>> fields;
};

/// Reads the header from the start of `source` up to the first line of the instruction stream,
/// which is returned in `first_body_line` (empty at end of file). Throws ImportError when a
/// required field (kernel name, grid dim, block dim) is missing or a known field is malformed.
KernelHeader read_header(LineSource& source, std::string_view& first_body_line);

/// Counts the thread blocks ("#BEGIN_TB" lines) from the current position to the end of the file,
/// calling `progress` as it goes.
std::uint64_t count_blocks(LineSource& source, std::string_view first_body_line,
                           const std::function<void()>& progress);

}  // namespace memcarlo::accelsim::detail
