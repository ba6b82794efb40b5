// Accel-Sim export: writes a memcarlo trace as kernelslist.g plus one tracer-version-5 .traceg per
// launch, streaming records from the mapped trace into a buffered text file.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>

#include "dependences.hpp"
#include "instruction.hpp"
#include "memcarlo/accelsim/accelsim.hpp"
#include "memcarlo/tracebuf/reader.hpp"

namespace memcarlo::accelsim {
namespace {

using tracebuf::AccessKind;
using tracebuf::RecordView;

/// Appends text to a file through a 1 MiB buffer.
class TextFile {
 public:
  explicit TextFile(std::string path) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      throw std::runtime_error(path_ + ": cannot create: " + std::strerror(errno));
    }
    buffer_.reserve(kFlushBytes + 4096);
  }
  ~TextFile() {
    if (fd_ >= 0) {
      ::close(fd_);
    }
  }
  TextFile(const TextFile&) = delete;
  TextFile& operator=(const TextFile&) = delete;

  TextFile& operator<<(std::string_view text) {
    buffer_.append(text);
    return *this;
  }
  TextFile& operator<<(char c) {
    buffer_.push_back(c);
    return *this;
  }
  TextFile& dec(std::int64_t value) { return number(value, 10, 0); }
  TextFile& udec(std::uint64_t value) { return number(value, 10, 0); }
  /// Lower-case hexadecimal, zero-padded to `digits`, without a prefix.
  TextFile& hex(std::uint64_t value, int digits) { return number(value, 16, digits); }
  /// Ends a line; flushes when the buffer is full.
  void end_line() {
    buffer_.push_back('\n');
    if (buffer_.size() >= kFlushBytes) {
      flush();
    }
  }
  std::uint64_t close() {
    flush();
    if (::close(fd_) != 0) {
      fd_ = -1;
      throw std::runtime_error(path_ + ": close failed: " + std::strerror(errno));
    }
    fd_ = -1;
    return written_;
  }

 private:
  static constexpr std::size_t kFlushBytes = std::size_t{1} << 20;

  template <class T>
  TextFile& number(T value, int base, int digits) {
    char text[24];
    const auto [end, error] = std::to_chars(text, text + sizeof text, value, base);
    (void)error;
    for (auto length = end - text; length < digits; ++length) {
      buffer_.push_back('0');
    }
    buffer_.append(text, end);
    return *this;
  }
  void flush() {
    const char* at = buffer_.data();
    std::size_t left = buffer_.size();
    while (left > 0) {
      const ssize_t n = ::write(fd_, at, left);
      if (n < 0) {
        if (errno == EINTR) {
          continue;
        }
        throw std::runtime_error(path_ + ": write failed: " + std::strerror(errno));
      }
      at += n;
      left -= static_cast<std::size_t>(n);
    }
    written_ += buffer_.size();
    buffer_.clear();
  }

  std::string path_;
  int fd_ = -1;
  std::string buffer_;
  std::uint64_t written_ = 0;
};

/// Writes the instruction lines of one warp.
class WarpWriter {
 public:
  WarpWriter(TextFile& out, const ExportOptions& options, std::uint64_t barrier_pc,
             const std::vector<tracebuf::LoadInfo>& loads)
      : out_(out), options_(options), barrier_pc_(barrier_pc), dependences_(loads) {
    for (std::uint8_t k = 0; k < tracebuf::kAccessKindCount; ++k) {
      for (std::uint32_t size = 1; size <= 16; size *= 2) {
        opcodes_[k][std::countr_zero(size)] =
            detail::export_opcode(static_cast<AccessKind>(k), size, options.binary_version);
      }
    }
    barrier_opcode_ = options.binary_version >= 70 ? "BAR.SYNC.DEFER_BLOCKING" : "BAR.SYNC";
  }

  /// The next records belong to a new warp: no register dependence reaches back past here.
  void start_warp() { dependences_.start_warp(); }

  /// Instruction lines a record becomes: its barriers, then one access (two for an rmw).
  static std::uint64_t lines_of(const RecordView& record) {
    return record.barriers() + (record.kind() == AccessKind::kReadModifyWrite ? 2 : 1);
  }

  void record(const RecordView& record, std::uint32_t warp_mask) {
    for (std::uint32_t b = 0; b < record.barriers(); ++b) {
      simple(barrier_pc_, warp_mask, barrier_opcode_);
    }
    const std::uint64_t pc = pc_of_static_id(record.static_id());
    if (record.kind() == AccessKind::kReadModifyWrite) {
      access(pc, record, AccessKind::kRead);
      access(pc + 0x10, record, AccessKind::kWrite);
    } else {
      access(pc, record, record.kind());
    }
  }

  /// A non-memory instruction with no operands: BAR or EXIT.
  void simple(std::uint64_t pc, std::uint32_t mask, std::string_view opcode) {
    out_.hex(pc, 4) << ' ';
    out_.hex(mask, 8) << " 0 " << opcode << " 0 0 0";
    out_.end_line();
  }

 private:
  void access(std::uint64_t pc, const RecordView& record, AccessKind kind) {
    const std::uint32_t size = record.element_size();
    out_.hex(pc, 4) << ' ';
    out_.hex(record.active_mask(), 8) << ' ';
    const detail::InstructionRegisters registers = dependences_.next(record, kind);
    if (registers.has_destination) {
      out_ << "1 R";
      out_.udec(registers.destination) << ' ';
    } else {
      out_ << "0 ";
    }
    if (std::has_single_bit(size) && size <= 16) {
      out_ << opcodes_[static_cast<std::uint8_t>(kind)][std::countr_zero(size)];
    } else {
      out_ << detail::export_opcode(kind, size, options_.binary_version);
    }
    out_ << ' ';
    out_.udec(registers.source_count);
    for (std::uint32_t s = 0; s < registers.source_count; ++s) {
      out_ << " R";
      out_.udec(registers.sources[s]);
    }
    out_ << ' ';
    out_.udec(size) << ' ';
    addresses(record);
    out_ << " 0";  // immediate
    out_.end_line();
  }

  /// Mode 1 (base, stride) when the active lanes are contiguous and evenly spaced by an int32,
  /// else mode 2 (base, successive deltas); mode 0 (every address) without compression.
  void addresses(const RecordView& record) {
    const unsigned lanes = record.active_lanes();
    std::uint64_t previous = record.active_address(0);
    if (!options_.compress_addresses) {
      out_ << "0";
      record.for_each_address([&](unsigned, std::uint64_t address) {
        out_ << " 0x";
        out_.hex(address, 16);
      });
      return;
    }
    // Accel-Sim expands mode 1 over one run of active lanes only.
    const std::uint32_t run = record.active_mask() >> std::countr_zero(record.active_mask());
    bool strided = (run & (run + 1)) == 0;
    std::int64_t stride = 0;
    if (strided && lanes > 1) {
      stride = static_cast<std::int64_t>(record.active_address(1) - previous);
      strided = stride >= std::numeric_limits<std::int32_t>::min() &&
                stride <= std::numeric_limits<std::int32_t>::max();
      record.for_each_address([&, k = 0u](unsigned, std::uint64_t address) mutable {
        strided = strided && address == previous + static_cast<std::uint64_t>(stride) * k++;
      });
    }
    out_ << (strided ? "1 0x" : "2 0x");
    out_.hex(previous, 16);
    if (strided) {
      out_ << ' ';
      out_.dec(stride);
      return;
    }
    record.for_each_address([&, first = true](unsigned, std::uint64_t address) mutable {
      if (!first) {
        out_ << ' ';
        out_.dec(static_cast<std::int64_t>(address - previous));
      }
      first = false;
      previous = address;
    });
  }

  TextFile& out_;
  const ExportOptions& options_;
  std::uint64_t barrier_pc_;
  std::string opcodes_[tracebuf::kAccessKindCount][5];
  std::string barrier_opcode_;
  detail::DependenceTracker dependences_;
};

std::string dim3_text(const tracebuf::Dim3& d) {
  std::string text(1, '(');
  return text.append(std::to_string(d.x))
      .append(",")
      .append(std::to_string(d.y))
      .append(",")
      .append(std::to_string(d.z))
      .append(")");
}

void write_header(TextFile& out, const tracebuf::LaunchInfo& info, const std::string& input,
                  const std::string& rmw_pcs, const ExportOptions& options) {
  const tracebuf::Dim3 grid =
      options.snapshot_grid
          ? tracebuf::Dim3{static_cast<std::uint32_t>(info.snapshot_block_count), 1, 1}
          : info.grid;
  out << "-kernel name = " << info.kernel << "\n-kernel id = ";
  out.udec(info.sequence_in_program + 1)
      << "\n-grid dim = " << dim3_text(grid) << "\n-block dim = " << dim3_text(info.block)
      << "\n-shmem = ";
  out.udec(info.dynamic_shared_bytes + info.static_shared_bytes) << "\n-nregs = ";
  // Accel-Sim divides by the register count for occupancy: an unknown count is written as 32.
  out.udec(info.registers_per_thread != 0 ? info.registers_per_thread : 32)
      << "\n-binary version = ";
  out.udec(options.binary_version)
      << "\n-cuda stream id = 0\n-shmem base_addr = 0x0000000000000000"
         "\n-local mem base_addr = 0x0000000000000000\n-nvbit version = none (exported by "
         "memcarlo " MEMCARLO_VERSION
         ")\n-accelsim tracer version = 5\n-enable lineinfo = 0"
         "\n-memcarlo source = "
      << input << "\n-memcarlo snapshot blocks = ";
  out.udec(info.snapshot_first_block) << ',';
  out.udec(info.snapshot_block_count) << '\n';
  if (!rmw_pcs.empty()) {
    out << "-memcarlo rmw pcs = " << rmw_pcs << '\n';
  }
  out << "\n#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
         "[adrrescompress?] [mem_addresses] immediate\n";
}

}  // namespace

ExportStats export_trace(const std::string& input, const std::string& output_dir,
                         const ExportOptions& options) {
  namespace fs = std::filesystem;
  const auto reader = tracebuf::TraceReader::open(input);
  std::error_code error;
  fs::create_directories(output_dir, error);
  if (error || !fs::is_directory(output_dir)) {
    throw std::runtime_error(output_dir + ": cannot create the output directory" +
                             (error ? ": " + error.message() : std::string()));
  }
  const auto& loads = reader.loads();
  const std::uint64_t barrier_pc = pc_of_static_id(static_cast<std::uint32_t>(loads.size()));
  const std::uint64_t exit_pc = barrier_pc + 0x10;
  std::string rmw_pcs;
  for (const auto& load : loads) {
    if (load.kind == AccessKind::kReadModifyWrite) {
      char text[24];
      std::snprintf(text, sizeof text, "%s0x%llx", rmw_pcs.empty() ? "" : ",",
                    static_cast<unsigned long long>(pc_of_static_id(load.id)));
      rmw_pcs += text;
    }
  }

  ExportStats stats;
  Progress progress{"export", {}, 0, reader.total_records(), 0};
  std::uint64_t next_report = 0;
  const std::string list_path = (fs::path(output_dir) / "kernelslist.g").string();
  TextFile list(list_path);
  stats.files.push_back(list_path);
  for (const auto& launch : reader.launches()) {
    const tracebuf::LaunchInfo& info = launch.info;
    const std::string name = "kernel-" + std::to_string(info.index + 1) + ".traceg";
    const std::string path = (fs::path(output_dir) / name).string();
    list << name;
    list.end_line();
    TextFile out(path);
    write_header(out, info, input, rmw_pcs, options);
    progress.file = path;
    WarpWriter writer(out, options, barrier_pc, loads);

    const std::uint32_t warps = info.warps_per_block();
    const auto threads = static_cast<std::uint32_t>(info.block.volume());
    const std::uint64_t first = info.snapshot_first_block;
    std::size_t next_stream = 0;
    for (std::uint64_t block = first; block < first + info.snapshot_block_count; ++block) {
      const std::uint64_t plane = std::uint64_t{info.grid.x} * info.grid.y;
      out << "\n#BEGIN_TB\n\nthread block = ";
      out.udec(block % info.grid.x) << ',';
      out.udec(block / info.grid.x % info.grid.y) << ',';
      out.udec(block / plane) << '\n';
      for (std::uint32_t warp = 0; warp < warps; ++warp) {
        const tracebuf::WarpStream* stream = nullptr;
        if (next_stream < launch.warps.size() && launch.warps[next_stream].block == block &&
            launch.warps[next_stream].warp == warp) {
          stream = &launch.warps[next_stream++];
        }
        const std::uint32_t lanes = std::min<std::uint32_t>(32, threads - warp * 32);
        const std::uint32_t warp_mask = lanes == 32 ? 0xFFFFFFFFu : (1u << lanes) - 1;
        std::uint64_t lines = 1;  // EXIT
        if (stream != nullptr) {
          stream->for_each([&](const RecordView& r) { lines += WarpWriter::lines_of(r); });
        }
        out << "\nwarp = ";
        out.udec(warp) << "\ninsts = ";
        out.udec(lines);
        out.end_line();
        writer.start_warp();
        if (stream != nullptr) {
          stream->for_each([&](const RecordView& r) {
            writer.record(r, warp_mask);
            if (++stats.records >= next_report && options.progress) {
              next_report = stats.records + std::max<std::uint64_t>(options.progress_interval, 1);
              progress.done = progress.records = stats.records;
              options.progress(progress);
            }
          });
        }
        writer.simple(exit_pc, warp_mask, "EXIT");
        stats.instruction_lines += lines;
        ++stats.warps;
      }
      out << "\n#END_TB\n";
      ++stats.blocks;
    }
    if (next_stream != launch.warps.size()) {
      const auto& stray = launch.warps[next_stream];
      throw tracebuf::TraceError(
          tracebuf::TraceError::Kind::kInvariant, input, 0,
          "warp stream (block " + std::to_string(stray.block) + ", warp " +
              std::to_string(stray.warp) + ") of launch " + std::to_string(info.index) +
              " lies outside its snapshot or block shape; run `memcarlo trace check`");
    }
    stats.bytes_written += out.close();
    stats.files.push_back(path);
    ++stats.launches;
  }
  stats.bytes_written += list.close();
  return stats;
}

}  // namespace memcarlo::accelsim
