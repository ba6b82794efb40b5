// Accel-Sim import: a first pass reads each kernel file's header and counts its thread blocks (a
// memcarlo Launch chunk, which records the block count, must precede the launch's records); the
// second pass streams the file into warp records (kernel_importer.cpp).
#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "kernel_file.hpp"
#include "kernel_importer.hpp"
#include "line_source.hpp"
#include "memcarlo/accelsim/accelsim.hpp"
#include "memcarlo/tracebuf/writer.hpp"

namespace memcarlo::accelsim {
namespace {

using detail::KernelHeader;
using detail::LineSource;

tracebuf::LaunchInfo launch_info(const KernelHeader& header, std::uint64_t blocks,
                                 std::uint32_t position) {
  tracebuf::LaunchInfo info;
  info.kernel = header.kernel_name;
  info.grid = header.grid;
  info.block = header.block;
  info.dynamic_shared_bytes = header.shared_bytes;
  info.registers_per_thread = header.registers;
  // Every block present in the file is traced: the snapshot is blocks [0, count) in file order.
  info.snapshot_first_block = 0;
  info.snapshot_block_count = blocks;
  info.sequence_in_program =
      header.kernel_id && *header.kernel_id > 0 ? *header.kernel_id - 1 : position;
  return info;
}

}  // namespace

ImportStats import_trace(const std::string& input, const std::string& output,
                         const ImportOptions& options) {
  ImportStats stats;
  const std::vector<detail::KernelFile> files = detail::resolve_kernel_files(input, stats);
  for (const auto& file : files) {
    std::error_code error;
    const auto size = std::filesystem::file_size(file.path, error);
    stats.input_bytes += error ? 0 : size;
  }

  Progress progress{"scan", {}, 0, stats.input_bytes, 0};
  std::uint64_t done_before = 0;  // bytes of the files finished in this phase
  std::uint64_t next_report = 0;
  const LineSource* current = nullptr;
  const std::function<void()> report = [&] {
    if (!options.progress || current == nullptr) {
      return;
    }
    progress.done = done_before + current->bytes_read();
    progress.records = stats.records;
    if (progress.done >= next_report) {
      next_report = progress.done + std::max<std::uint64_t>(options.progress_interval, 1);
      progress.file = current->path();
      options.progress(progress);
    }
  };

  const auto report_now = [&] {
    next_report = 0;
    report();
  };

  // Pass 1: headers and block counts.
  std::vector<std::uint64_t> block_counts;
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& file : files) {
    LineSource source(file.path);
    current = &source;
    std::string_view first;
    const KernelHeader header = detail::read_header(source, first);
    block_counts.push_back(detail::count_blocks(source, first, report));
    report_now();  // the file's last bytes
    done_before += source.bytes_read();
    nlohmann::json fields = nlohmann::json::object();
    for (const auto& [key, value] : header.fields) {
      fields[key] = value;
    }
    kernels.push_back({{"file", file.path}, {"header", fields}});
  }

  tracebuf::TraceMeta meta;
  meta.backend = "accelsim";
  meta.command = options.command;
  meta.properties_json =
      nlohmann::json{
          {"accelsim",
           {{"input", input}, {"kernels", kernels}, {"memcpy_lines_ignored", stats.memcpy_lines}}}}
          .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);  // headers may not be UTF-8
  try {
    tracebuf::TraceWriter writer(output, meta);
    detail::StaticIds ids;
    std::map<std::string, std::uint64_t> other_opcodes;
    std::uint64_t generic_without_windows = 0;
    progress.phase = "import";
    done_before = 0;
    next_report = 0;
    for (std::size_t k = 0; k < files.size(); ++k) {
      LineSource source(files[k].path);
      current = &source;
      std::string_view first;
      const KernelHeader header = detail::read_header(source, first);
      const auto position = static_cast<std::uint32_t>(k);
      const std::uint32_t launch =
          writer.begin_launch(launch_info(header, block_counts[k], position));
      detail::KernelImporter importer(source, header, launch,
                                      detail::ImportContext{writer, ids, stats, other_opcodes,
                                                            generic_without_windows, report});
      const std::uint64_t blocks = importer.run(first);
      if (blocks != block_counts[k]) {
        throw ImportError(files[k].path, 0, "the file changed while it was imported");
      }
      report_now();
      done_before += source.bytes_read();
      ++stats.kernels;
    }
    current = nullptr;
    writer.write_loads(ids.loads);
    writer.finish();
    stats.static_ids = ids.loads.size();
    if (!other_opcodes.empty()) {
      std::string list;
      for (const auto& [opcode, pcs] : other_opcodes) {
        list += (list.empty() ? "" : ", ") + opcode;
      }
      stats.notes.push_back(std::to_string(stats.dropped_other) +
                            " executions of memory instructions memcarlo does not model were "
                            "dropped (" +
                            list + ")");
    }
    if (generic_without_windows > 0) {
      stats.notes.push_back(std::to_string(generic_without_windows) +
                            " generic accesses (LD, ST, ATOM, RED) were taken as global: the "
                            "kernel header gives no shared or local window base");
    }
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(output, ignored);
    throw;
  }
  return stats;
}

}  // namespace memcarlo::accelsim
