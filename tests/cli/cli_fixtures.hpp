// Shared by the tests of the `memcarlo` binary's report features (table, diff, progress, notes):
// running the command and writing small traces with known shapes.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "common/run_command.hpp"
#include "memcarlo/tracebuf/writer.hpp"
#include "report_equality.hpp"

namespace memcarlo::test_support {

inline const std::string kMemcarlo = std::string(MEMCARLO_BINARY_DIR) + "/cli/memcarlo";

/// `memcarlo ARGUMENTS`, standard error with standard output.
inline CommandResult memcarlo(const std::string& arguments) {
  return run_command(kMemcarlo + " " + arguments + " 2>&1");
}

/// A directory of this test process's own.
inline std::filesystem::path scratch_dir() {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("memcarlo-report-features-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

inline nlohmann::json read_json_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

struct TraceSpec {
  std::string device_json = "{}";                 // the Meta device object
  std::vector<std::string> kernels = {"gather"};  // one launch each
  std::string file = "/src/project/kernels/gather.cu";
  std::uint32_t blocks = 16;
  std::uint32_t threads_per_block = 128;   // the launch's block; warps 0-3 hold the records
  std::uint32_t registers_per_thread = 0;  // 0: the trace does not say
};

/// Per kernel k one launch of `blocks` blocks x 4 warps, with its own three accesses (ids 3k to
/// 3k + 2, lines 10 + 10k onwards): idx[i] (coalesced read), data[idx[i]] (a random gather over
/// 256 KiB) and out[i] (a coalesced store), 8 iterations.
inline std::string write_trace(const std::string& name, const TraceSpec& spec = {}) {
  using namespace memcarlo::tracebuf;
  const std::string path = (scratch_dir() / name).string();
  TraceMeta meta;
  meta.backend = "synthetic";
  meta.device_json = spec.device_json;
  TraceWriter writer(path, meta);
  std::vector<LoadInfo> loads;
  const char* expressions[] = {"idx[i]", "data[idx[i]]", "out[i]"};
  for (std::uint32_t k = 0; k < spec.kernels.size(); ++k) {
    for (std::uint32_t j = 0; j < 3; ++j) {
      LoadInfo load;
      load.id = 3 * k + j;
      load.function = spec.kernels[k];
      load.kernels = {spec.kernels[k]};
      load.expression = expressions[j];
      load.file = spec.file;
      load.line = 10 + 10 * k + j;
      load.column = 5 + j;
      load.element_size = 4;
      load.sequence = j == 2 ? 1 : 0;
      load.kind = j == 2 ? AccessKind::kWrite : AccessKind::kRead;
      if (j == 1) {
        load.depends_on = {3 * k};
      }
      loads.push_back(load);
    }
  }
  writer.write_loads(loads);
  writer.write_allocations(std::vector<Allocation>{{0, 0x100000, 1 << 20, "idx"},
                                                   {1, 0x400000, 256 << 10, "data"},
                                                   {2, 0x800000, 1 << 20, "out"}});
  std::mt19937 random(5);
  for (std::uint32_t k = 0; k < spec.kernels.size(); ++k) {
    LaunchInfo launch;
    launch.kernel = spec.kernels[k];
    launch.grid = {spec.blocks, 1, 1};
    launch.block = {spec.threads_per_block, 1, 1};
    launch.registers_per_thread = spec.registers_per_thread;
    launch.snapshot_block_count = spec.blocks;
    launch.sequence_in_program = k;
    const auto index = writer.begin_launch(launch);
    for (std::uint32_t block = 0; block < spec.blocks; ++block) {
      for (std::uint32_t warp = 0; warp < 4; ++warp) {
        std::vector<WarpRecord> records;
        for (std::uint32_t i = 0; i < 8; ++i) {
          const std::uint64_t element = ((i * spec.blocks + block) * 4 + warp) * 32;
          WarpRecord idx;
          idx.static_id = 3 * k;
          idx.active_mask = 0xFFFFFFFF;
          WarpRecord data = idx;
          data.static_id = 3 * k + 1;
          for (unsigned lane = 0; lane < 32; ++lane) {
            idx.addresses[lane] = 0x100000 + 4 * (element + lane);
            data.addresses[lane] = 0x400000 + 4 * (random() % (64 * 1024));
          }
          records.push_back(idx);
          records.push_back(data);
        }
        WarpRecord out;
        out.static_id = 3 * k + 2;
        out.kind = AccessKind::kWrite;
        out.active_mask = 0xFFFFFFFF;
        for (unsigned lane = 0; lane < 32; ++lane) {
          out.addresses[lane] = 0x800000 + 4 * ((block * 4 + warp) * 32 + lane);
        }
        records.push_back(out);
        writer.write_warp_records(index, block, warp, records);
      }
    }
  }
  writer.finish();
  return path;
}

/// The report without its `performance` section (the only part that may differ between runs).
inline std::string results_of(const std::filesystem::path& report) {
  return without_performance(read_json_file(report)).dump();
}

}  // namespace memcarlo::test_support
