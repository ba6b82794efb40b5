// `memcarlo trace compare EXPECTED ACTUAL`: exit code 0 when two traces of one program record the
// same accesses wherever their allocations lie, 3 with each difference's place when they do not,
// 2 when a trace cannot be read.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/run_command.hpp"
#include "memcarlo/tracebuf/writer.hpp"

namespace {

namespace fs = std::filesystem;
using memcarlo::test_support::CommandResult;
using memcarlo::tracebuf::WarpRecord;

const std::string kMemcarlo = std::string(MEMCARLO_BINARY_DIR) + "/cli/memcarlo";

CommandResult run(const std::string& arguments) {
  return memcarlo::test_support::run_command(kMemcarlo + " " + arguments + " 2>&1");
}

/// One launch of one block of two warps, each a coalesced read at `base` + 128 x warp; the second
/// warp's lane 7 reads `lane7_shift` bytes further.
std::string write_trace(const std::string& name, std::uint64_t base,
                        std::uint64_t lane7_shift = 0) {
  const fs::path dir =
      fs::temp_directory_path() / ("memcarlo-trace-compare-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / name).string();
  memcarlo::tracebuf::TraceWriter writer(path, memcarlo::tracebuf::TraceMeta{});
  std::vector<memcarlo::tracebuf::LoadInfo> loads(1);
  loads[0].expression = "in[i]";
  writer.write_loads(loads);
  memcarlo::tracebuf::LaunchInfo launch;
  launch.kernel = "scale";
  launch.grid = {1, 1, 1};
  launch.block = {64, 1, 1};
  launch.snapshot_block_count = 1;
  const std::uint32_t index = writer.begin_launch(launch);
  for (std::uint32_t warp = 0; warp < 2; ++warp) {
    WarpRecord record;
    record.active_mask = ~0u;
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
      record.addresses[lane] =
          base + 128 * warp + 4 * lane + (warp == 1 && lane == 7 ? lane7_shift : 0);
    }
    writer.write_warp_records(index, 0, warp, std::vector<WarpRecord>{record});
  }
  writer.finish();
  return path;
}

TEST(TraceCompare, TracesThatDifferOnlyInWhereMemoryLiesAgree) {
  const CommandResult result = run("trace compare " + write_trace("host.mct", 0x200000000000) +
                                   " " + write_trace("gpu.mct", 0x7f0000000000));
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output,
            "traces agree: 2 records compared, 0 differences listed, 0 records with other barrier "
            "counts (not compared)\n");
}

TEST(TraceCompare, ADifferentLaneAddressIsExitThreeWithItsPlace) {
  const CommandResult result = run("trace compare " + write_trace("expected.mct", 0x1000000) + " " +
                                   write_trace("shifted.mct", 0x1000000, 4));
  EXPECT_EQ(result.exit_code, 3) << result.output;
  EXPECT_NE(result.output.find("launch 0 ('scale') block 0 warp 1 record 0: expected"),
            std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("traces differ: 2 records compared, 1 differences listed"),
            std::string::npos)
      << result.output;
}

TEST(TraceCompare, PerLaneNamesTheLaneAndItsAccessAndCountsRegroupedWarps) {
  const std::string expected = write_trace("expected-lanes.mct", 0x1000000);
  CommandResult result = run("trace compare --per-lane " + expected + " " +
                             write_trace("shifted-lanes.mct", 0x1000000, 4));
  EXPECT_EQ(result.exit_code, 3) << result.output;
  EXPECT_NE(result.output.find("launch 0 ('scale') block 0 warp 1 lane 7 access 0: expected "
                               "{id 0, size 4, barriers 0, offset 156}, got {id 0, size 4, "
                               "barriers 0, offset 160}"),
            std::string::npos)
      << result.output;
  result = run("trace compare --per-lane " + expected + " " + expected);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("0 warps grouped their lanes differently (every lane's accesses "
                               "agree)"),
            std::string::npos)
      << result.output;
}

TEST(TraceCompare, AnUnreadableTraceIsExitTwoNamingTheFile) {
  const std::string good = write_trace("good.mct", 0x1000000);
  const CommandResult result = run("trace compare " + good + " /nonexistent/gpu.mct");
  EXPECT_EQ(result.exit_code, 2) << result.output;
  EXPECT_NE(result.output.find("/nonexistent/gpu.mct"), std::string::npos) << result.output;
}

}  // namespace
