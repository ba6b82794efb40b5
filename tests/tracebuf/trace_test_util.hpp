// Helpers for trace tests: temporary files and a small hand-built trace.
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "memcarlo/tracebuf/writer.hpp"

namespace memcarlo::tracebuf::testing {

inline std::string temp_path(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / "memcarlo-tests";
  std::filesystem::create_directories(dir);
  return (dir / (name + "-" + std::to_string(::getpid()))).string();
}

inline std::vector<char> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_file(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline LoadInfo make_load(std::uint32_t id, AccessKind kind, std::string expression) {
  LoadInfo load;
  load.id = id;
  load.kind = kind;
  load.expression = std::move(expression);
  load.element_size = 4;
  load.file = "kernel.cu";
  load.line = 10 + id;
  load.column = 5;
  return load;
}

inline WarpRecord coalesced(std::uint32_t id, std::uint64_t base, std::uint32_t mask = 0xFFFFFFFF,
                            AccessKind kind = AccessKind::kRead) {
  WarpRecord record;
  record.static_id = id;
  record.kind = kind;
  record.element_size = 4;
  record.active_mask = mask;
  for (unsigned lane = 0; lane < 32; ++lane) {
    record.addresses[lane] = base + 4 * lane;
  }
  return record;
}

/// A trace with two loads (read, write), one launch of 4 blocks x 64 threads, fully traced.
inline void write_small_trace(const std::string& path, bool finish = true) {
  TraceMeta meta;
  meta.backend = "synthetic";
  TraceWriter writer(path, meta);
  std::vector<LoadInfo> loads = {make_load(0, AccessKind::kRead, "a[i]"),
                                 make_load(1, AccessKind::kWrite, "b[i]")};
  writer.write_loads(loads);
  writer.write_allocations(std::vector<Allocation>{{0, 0x10000, 4096, "a"}, {1, 0x20000, 4096, "b"}});
  LaunchInfo launch;
  launch.kernel = "copy";
  launch.grid = {4, 1, 1};
  launch.block = {64, 1, 1};
  launch.snapshot_block_count = 4;
  const auto index = writer.begin_launch(launch);
  for (std::uint32_t block = 0; block < 4; ++block) {
    for (std::uint32_t warp = 0; warp < 2; ++warp) {
      const std::uint64_t offset = (block * 64 + warp * 32) * 4;
      std::vector<WarpRecord> records = {coalesced(0, 0x10000 + offset),
                                         coalesced(1, 0x20000 + offset, 0xFFFFFFFF,
                                                   AccessKind::kWrite)};
      writer.write_warp_records(index, block, warp, records);
    }
  }
  if (finish) {
    writer.finish();
  }
}

}  // namespace memcarlo::tracebuf::testing
