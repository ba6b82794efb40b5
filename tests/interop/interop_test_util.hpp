// Helpers for the Accel-Sim interoperability tests: scratch directories, hand-written .traceg text
// and record extraction from imported traces.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "memcarlo/tracebuf/reader.hpp"

namespace memcarlo::accelsim::testing {

/// A fresh, empty directory under the system temporary directory.
inline std::string scratch_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "memcarlo-interop-tests" /
                   (name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// A tracer-version-4 kernel header as Accel-Sim's tracer writes it, followed by `body`.
inline std::string kernel_text(const std::string& body, const std::string& grid = "(1,1,1)",
                               const std::string& block = "(64,1,1)",
                               const std::string& extra_header = "",
                               const std::string& name = "_Z6kernelPf") {
  return "-kernel name = " + name + "\n-kernel id = 1\n-grid dim = " + grid +
         "\n-block dim = " + block +
         "\n-shmem = 0\n-nregs = 16\n-binary version = 70\n-cuda stream id = 0\n"
         "-shmem base_addr = 0x00007f0a30000000\n-local mem base_addr = 0x00007f0a2e000000\n"
         "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n" +
         extra_header +
         "\n#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
         "[adrrescompress?] [mem_addresses] immediate\n\n" +
         body;
}

/// One warp's lines, wrapped with its "warp = n" and a correct "insts = n".
inline std::string warp_text(unsigned warp, const std::vector<std::string>& lines) {
  std::string text =
      "\nwarp = " + std::to_string(warp) + "\ninsts = " + std::to_string(lines.size()) + "\n";
  for (const auto& line : lines) {
    text += line + "\n";
  }
  return text;
}

inline std::string block_text(const std::string& coordinates, const std::string& warps) {
  return "#BEGIN_TB\n\nthread block = " + coordinates + "\n" + warps + "\n#END_TB\n\n";
}

using WarpKey = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>;  // launch, block, warp

/// Every record of a trace, by (launch, block, warp), in program order.
inline std::map<WarpKey, std::vector<tracebuf::WarpRecord>> all_records(
    const tracebuf::TraceReader& reader) {
  std::map<WarpKey, std::vector<tracebuf::WarpRecord>> records;
  for (std::uint32_t l = 0; l < reader.launches().size(); ++l) {
    for (const auto& stream : reader.launches()[l].warps) {
      auto& out = records[{l, stream.block, stream.warp}];
      stream.for_each([&](const tracebuf::RecordView& r) { out.push_back(r.to_record()); });
    }
  }
  return records;
}

/// The addresses of the active lanes, in lane order.
inline std::vector<std::uint64_t> active_addresses(const tracebuf::WarpRecord& record) {
  std::vector<std::uint64_t> out;
  for (unsigned lane = 0; lane < 32; ++lane) {
    if ((record.active_mask >> lane) & 1u) {
      out.push_back(record.addresses[lane]);
    }
  }
  return out;
}

}  // namespace memcarlo::accelsim::testing
