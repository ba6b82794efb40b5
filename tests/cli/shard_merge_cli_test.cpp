// --shard I/N and `memcarlo merge`: shards merged in any order give the one-process report (all
// but `performance`) for simulate and sweep, and every kind of bad input is refused by name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_fixtures.hpp"
#include "report_equality.hpp"

namespace {

namespace fs = std::filesystem;
using memcarlo::test_support::memcarlo;
using memcarlo::test_support::read_json_file;
using memcarlo::test_support::scratch_dir;
using nlohmann::json;

std::string synth_trace(const std::string& name, const std::string& arguments) {
  const fs::path path = scratch_dir() / name;
  if (!fs::exists(path)) {
    const auto r = memcarlo("synth " + arguments + " -o " + path.string());
    EXPECT_EQ(r.exit_code, 0) << r.output;
  }
  return path.string();
}

std::string trace() {
  return synth_trace("shard-reuse.mct", "--pattern reuse --blocks 16 --threads 128");
}

std::string other_trace() {
  return synth_trace("shard-stream.mct", "--pattern stream --blocks 8 --threads 128");
}

std::string path(const std::string& name) {
  return (scratch_dir() / name).string();
}

/// `memcarlo COMMAND` that must succeed.
void run_ok(const std::string& command) {
  const auto r = memcarlo(command);
  ASSERT_EQ(r.exit_code, 0) << command << "\n" << r.output;
}

/// Writes shards 0..count-1 of `command` as PREFIX-I.json; returns their paths.
std::vector<std::string> shards(const std::string& command, const std::string& prefix,
                                int count = 3) {
  std::vector<std::string> files;
  for (int i = 0; i < count; ++i) {
    files.push_back(path(prefix + "-" + std::to_string(i) + ".json"));
    run_ok(command + " -q --shard " + std::to_string(i) + "/" + std::to_string(count) + " -o " +
           files.back());
  }
  return files;
}

std::string joined(const std::vector<std::string>& files) {
  std::string text;
  for (const auto& file : files) {
    text += " " + file;
  }
  return text;
}

TEST(ShardMerge, SimulateShardsMergeToTheOneProcessReportInAnyOrder) {
  const std::string command = "simulate " + trace() + " -n 7 --seed 5 --set l1.size=8KiB";
  run_ok(command + " -q -o " + path("simulate-whole.json"));
  const auto files = shards(command, "simulate-shard");
  run_ok("merge -q" + joined({files[2], files[0], files[1]}) + " -o " +
         path("simulate-merged.json"));
  const json whole = read_json_file(path("simulate-whole.json"));
  const json merged = read_json_file(path("simulate-merged.json"));
  EXPECT_SAME_REPORT(whole, merged);
  EXPECT_EQ(merged.at("inputs").at("trials"), 7);
}

TEST(ShardMerge, SweepShardsMergeToTheOneProcessReport) {
  const std::string command =
      "sweep " + trace() +
      " -n 5 --launch 0 --vary l1.replacement=lru,fifo --vary l1.size=8KiB,16KiB";
  run_ok(command + " -q -o " + path("sweep-whole.json"));
  const auto files = shards(command, "sweep-shard");
  run_ok("merge -q" + joined({files[1], files[2], files[0]}) + " -o " + path("sweep-merged.json") +
         " --csv " + path("sweep-merged.csv"));
  const json whole = read_json_file(path("sweep-whole.json"));
  const json merged = read_json_file(path("sweep-merged.json"));
  EXPECT_SAME_REPORT(whole, merged);
  EXPECT_EQ(merged.at("points").size(), 4u);
  EXPECT_EQ(merged.at("inputs").at("launches"), json::array({0}));  // --launch travels too
  EXPECT_TRUE(fs::file_size(path("sweep-merged.csv")) > 0);
}

TEST(ShardMerge, MoreShardsThanTrialsStillMerge) {
  const std::string command = "simulate " + trace() + " -n 2";
  run_ok(command + " -q -o " + path("few-whole.json"));
  const auto files = shards(command, "few-shard", 3);  // shard 2/3 holds no trial
  run_ok("merge -q" + joined(files) + " -o " + path("few-merged.json"));
  EXPECT_SAME_REPORT(read_json_file(path("few-whole.json")),
                     read_json_file(path("few-merged.json")));
}

TEST(ShardMerge, DefaultShardFileIsNamedAfterTheReport) {
  const fs::path dir = scratch_dir() / "default-name";
  fs::create_directories(dir);
  const auto r = memcarlo::test_support::run_command(
      "cd " + dir.string() + " && " + memcarlo::test_support::kMemcarlo + " simulate " + trace() +
      " -n 2 -q --shard 1/2 2>&1");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::exists(dir / "report.shard-1-of-2.json"));
}

/// The message of a merge that must fail with exit code 2.
std::string refused(const std::string& command) {
  const auto r = memcarlo(command);
  EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.output;
  return r.output;
}

class ShardRefusals : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    base_ = new std::vector<std::string>(
        shards("simulate " + trace() + " -n 4 --seed 3", "refuse-base", 2));
  }
  static void TearDownTestSuite() {
    delete base_;
    base_ = nullptr;
  }
  static const std::vector<std::string>& base() { return *base_; }

  /// Shard 1/2 of `command` (a run that differs from the base's), as NAME.
  static std::string other_shard(const std::string& command, const std::string& name) {
    const std::string file = path(name);
    run_ok(command + " -q --shard 1/2 -o " + file);
    return file;
  }

 private:
  static inline std::vector<std::string>* base_ = nullptr;
};

TEST_F(ShardRefusals, DifferentSeedIsNamed) {
  const std::string other = other_shard("simulate " + trace() + " -n 4 --seed 4", "seed-4.json");
  const std::string message = refused("merge " + base()[0] + " " + other + " -o " + path("x.json"));
  EXPECT_NE(message.find("seed is 3 in " + base()[0] + " but 4 in " + other), std::string::npos)
      << message;
}

TEST_F(ShardRefusals, DifferentTrialsIsNamed) {
  const std::string other = other_shard("simulate " + trace() + " -n 6 --seed 3", "trials-6.json");
  const std::string message = refused("merge " + base()[0] + " " + other);
  EXPECT_NE(message.find("trials is 4"), std::string::npos) << message;
}

TEST_F(ShardRefusals, DifferentTraceIsNamed) {
  const std::string other =
      other_shard("simulate " + other_trace() + " -n 4 --seed 3", "other-trace.json");
  const std::string message = refused("merge " + base()[0] + " " + other);
  EXPECT_NE(message.find("are shards of different runs: trace is"), std::string::npos) << message;
}

TEST_F(ShardRefusals, DifferentHierarchyNamesTheKey) {
  const std::string other =
      other_shard("simulate " + trace() + " -n 4 --seed 3 --set l2.latency=300", "l2-latency.json");
  const std::string message = refused("merge " + base()[0] + " " + other);
  EXPECT_NE(message.find("hierarchy.l2.latency is"), std::string::npos) << message;
}

TEST_F(ShardRefusals, DifferentSweepPointsAreNamed) {
  const std::string sweep = "sweep " + trace() + " -n 4 --seed 3 --vary l1.replacement=";
  const std::string a = other_shard(sweep + "lru,fifo", "points-a.json");
  const std::string b = path("points-b.json");
  run_ok(sweep + "lru,random -q --shard 0/2 -o " + b);
  const std::string message = refused("merge " + a + " " + b);
  EXPECT_NE(message.find("points[1] is"), std::string::npos) << message;
}

TEST_F(ShardRefusals, SimulateAndSweepShardsDoNotMix) {
  const std::string sweep = other_shard(
      "sweep " + trace() + " -n 4 --seed 3 --vary l1.replacement=lru", "sweep-mix.json");
  const std::string message = refused("merge " + base()[0] + " " + sweep);
  EXPECT_NE(message.find("command is \"simulate\""), std::string::npos) << message;
}

TEST_F(ShardRefusals, MissingShardIsNamed) {
  const std::string message = refused("merge " + base()[1]);
  EXPECT_NE(message.find("shard 0/2 missing"), std::string::npos) << message;
}

TEST_F(ShardRefusals, DuplicateShardIsRefused) {
  fs::copy_file(base()[1], path("copy-of-1.json"), fs::copy_options::overwrite_existing);
  const std::string message =
      refused("merge " + base()[0] + " " + base()[1] + " " + path("copy-of-1.json"));
  EXPECT_NE(message.find("are both shard 1/2"), std::string::npos) << message;
}

TEST_F(ShardRefusals, DifferentShardCountsAreRefused) {
  const std::string third = path("third-of-3.json");
  run_ok("simulate " + trace() + " -n 4 --seed 3 -q --shard 2/3 -o " + third);
  const std::string message = refused("merge " + base()[0] + " " + base()[1] + " " + third);
  EXPECT_NE(message.find("different shard counts"), std::string::npos) << message;
}

TEST_F(ShardRefusals, NonShardJsonIsRefused) {
  run_ok("simulate " + trace() + " -n 2 -q -o " + path("a-report.json"));
  const std::string message = refused("merge " + path("a-report.json"));
  EXPECT_NE(message.find("not a shard file"), std::string::npos) << message;
  std::ofstream(path("not-json.txt")) << "hello";
  EXPECT_NE(refused("merge " + path("not-json.txt")).find("not a shard file (not JSON"),
            std::string::npos);
}

TEST_F(ShardRefusals, ChangedTraceIsRefusedAndTraceOverrideIsChecked) {
  const std::string message =
      refused("merge " + base()[0] + " " + base()[1] + " --trace " + other_trace());
  EXPECT_NE(message.find("SHA-256"), std::string::npos) << message;
  const auto r = memcarlo("merge -q " + base()[0] + " " + base()[1] + " --trace " + trace() +
                          " -o " + path("override.json"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

TEST_F(ShardRefusals, UntilCiWithShardIsRefused) {
  const std::string message =
      refused("simulate " + trace() + " --until-ci 0.1 --shard 0/2 -o " + path("ci.json"));
  EXPECT_NE(message.find("--until-ci cannot be used with --shard"), std::string::npos) << message;
  EXPECT_NE(refused("simulate " + trace() + " --shard 2/2").find("expected I/N with 0 <= I < N"),
            std::string::npos);
}

}  // namespace
