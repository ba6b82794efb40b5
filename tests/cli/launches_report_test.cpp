// The `memcarlo` binary on what a report says about each launch (inputs.launches: the shared
// memory, the carveout chosen for it, the L1 it was left and whether it found the L2 warm) and
// `memcarlo hierarchy show` on an adaptive L1.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "common/run_command.hpp"
#include "memcarlo/tracebuf/writer.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kMemcarlo = std::string(MEMCARLO_BINARY_DIR) + "/cli/memcarlo";

memcarlo::test_support::CommandResult run(const std::string& arguments) {
  return memcarlo::test_support::run_command(kMemcarlo + " " + arguments + " 2>&1");
}

fs::path temp_dir() {
  const fs::path dir =
      fs::temp_directory_path() / ("memcarlo-launches-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

/// Three launches of one 32-thread block reading 8 lines: the program's launches 0 (no shared
/// memory), 1 (40 KiB of dynamic shared memory) and 3 (launch 2 was not traced).
std::string write_three_launches() {
  const std::string path = (temp_dir() / "three.mct").string();
  memcarlo::tracebuf::TraceWriter writer(path, memcarlo::tracebuf::TraceMeta{});
  memcarlo::tracebuf::LoadInfo load;
  load.expression = "x[i]";
  load.element_size = 4;
  load.kind = memcarlo::tracebuf::AccessKind::kRead;
  writer.write_loads(std::vector<memcarlo::tracebuf::LoadInfo>{load});
  writer.write_allocations(std::vector<memcarlo::tracebuf::Allocation>{});
  const std::uint64_t sequences[] = {0, 1, 3};
  const std::uint64_t shared[] = {0, 40 * 1024, 0};
  for (int l = 0; l < 3; ++l) {
    memcarlo::tracebuf::LaunchInfo launch;
    launch.kernel = "k" + std::to_string(l);
    launch.grid = {1, 1, 1};
    launch.block = {32, 1, 1};
    launch.snapshot_block_count = 1;
    launch.sequence_in_program = sequences[l];
    launch.dynamic_shared_bytes = shared[l];
    const auto index = writer.begin_launch(launch);
    std::vector<memcarlo::tracebuf::WarpRecord> records;
    for (std::uint64_t line = 0; line < 8; ++line) {
      memcarlo::tracebuf::WarpRecord r;
      r.static_id = 0;
      r.kind = memcarlo::tracebuf::AccessKind::kRead;
      r.element_size = 4;
      r.active_mask = 0xFFFFFFFF;
      for (unsigned lane = 0; lane < 32; ++lane) {
        r.addresses[lane] = 0x100000 + line * 128 + 4 * lane;
      }
      records.push_back(r);
    }
    writer.write_warp_records(index, 0, 0, records);
  }
  writer.finish();
  return path;
}

json simulate(const std::string& trace, const std::string& options) {
  const fs::path out = temp_dir() / "report.json";
  const auto r = run("simulate " + trace + " " + options + " -n 2 -q -o " + out.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(out);
  return json::parse(in);
}

TEST(LaunchesReport, EachLaunchGivesItsCarveoutItsL1AndWhetherTheL2WasKept) {
  const std::string trace = write_three_launches();
  const json launches = simulate(trace, "-H v100")["inputs"]["launches"];
  ASSERT_EQ(launches.size(), 3u);
  EXPECT_EQ(launches[0]["shared_carveout_bytes"], 0);
  EXPECT_EQ(launches[0]["l1_size_bytes"], 128 * 1024);
  EXPECT_EQ(launches[0]["l2_at_start"], "cold");
  // 96 KiB / 40 KiB = 2 resident blocks, 80 KiB: the 96 KiB carveout leaves a 32 KiB L1.
  EXPECT_EQ(launches[1]["resident_blocks_per_sm"], 2);
  EXPECT_EQ(launches[1]["shared_bytes_per_block"], 40 * 1024);
  EXPECT_EQ(launches[1]["shared_carveout_bytes"], 96 * 1024);
  EXPECT_EQ(launches[1]["l1_size_bytes"], 32 * 1024);
  EXPECT_EQ(launches[1]["l2_at_start"], "kept");
  EXPECT_EQ(launches[2]["l2_at_start"], "cold");  // the program's launch 2 is not in the trace

  const json flushed = simulate(trace, "-H v100 --set l2.between_launches=flush");
  EXPECT_EQ(flushed["inputs"]["launches"][1]["l2_at_start"], "cold");
  EXPECT_EQ(flushed["inputs"]["hierarchy"]["parameters"]["l2.between_launches"], "flush");

  const json fermi = simulate(trace, "-H fermi-c2050")["inputs"]["launches"];
  EXPECT_TRUE(fermi[1]["shared_carveout_bytes"].is_null());  // Fermi's split is fixed
  EXPECT_EQ(fermi[1]["l1_size_bytes"], 16 * 1024);
}

TEST(LaunchesReport, ASweepReplaysTheLaunchesItIsGivenLikeSimulate) {
  const std::string trace = write_three_launches();
  const fs::path out = temp_dir() / "sweep-launch.json";
  const auto r = run("sweep " + trace + " -H v100 --launch 1 --vary l1.replacement=lru,random" +
                     " -n 2 -q -o " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(out);
  const json sweep = json::parse(in);
  EXPECT_EQ(sweep["inputs"]["launches"], json::array({1}));
  const json single = simulate(trace, "-H v100 --launch 1 --set l1.replacement=random");
  EXPECT_EQ(sweep["points"][1]["loads"], single["loads"]);
  // Launch 1 alone reads 8 lines once: 8 requests, not the 24 of the three launches.
  EXPECT_EQ(single["loads"][0]["requests"], 8);
  const auto none = run("sweep " + trace + " --launch 7 --vary l1.replacement=lru -n 2 -q -o " +
                        (temp_dir() / "none.json").string());
  EXPECT_NE(none.exit_code, 0);
}

TEST(LaunchesReport, HierarchyShowSaysWhenTheL1IsAdaptive) {
  auto r = run("hierarchy show a100");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("l1.size = \"adaptive\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("The L1 is adaptive: each launch gets l1.unified_size (192 KiB)"),
            std::string::npos)
      << r.output;
  r = run("hierarchy show a100 --set l1.size=96KiB");  // 16 sets of a100's 48 ways
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("l1.size = 98304"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("adaptive"), std::string::npos) << r.output;
  r = run("hierarchy show v100 --set l1.associativity=48");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("l1.unified_size: 131072 bytes is not a whole number of sets"),
            std::string::npos)
      << r.output;
}

}  // namespace
