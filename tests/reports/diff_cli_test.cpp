// `memcarlo diff` as a user runs it: on the hand-made reports (text, --json, -o), on two real
// simulations of one trace under two hierarchies, and exit code 2 naming the file and the key for
// a malformed report.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/run_command.hpp"

namespace {

namespace fs = std::filesystem;
using memcarlo::test_support::CommandResult;

const std::string kMemcarlo = std::string(MEMCARLO_BINARY_DIR) + "/cli/memcarlo";
const std::string kData = std::string(MEMCARLO_SOURCE_DIR) + "/tests/reports/data/";

CommandResult run(const std::string& arguments) {
  return memcarlo::test_support::run_command(kMemcarlo + " " + arguments + " 2>&1");
}

fs::path temp_dir() {
  const fs::path dir = fs::temp_directory_path() / ("memcarlo-diff-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

TEST(DiffCli, PrintsTheInputsThatDifferAndEachLoadsChange) {
  const CommandResult r = run("diff " + kData + "diff_before.json " + kData + "diff_after.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("hierarchy.parameters.l1.size: 16384 -> 49152"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("Welch's two-sided t-test"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("(moved)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("only in B: 1 load"), std::string::npos) << r.output;
}

TEST(DiffCli, JsonGoesToTheOutputFile) {
  const fs::path out = temp_dir() / "diff.json";
  const CommandResult r = run("diff --json -o " + out.string() + " " + kData + "diff_before.json " +
                              kData + "diff_after.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "");
  std::ifstream in(out);
  const auto doc = nlohmann::json::parse(in);
  EXPECT_EQ(doc["a"]["hierarchy"], "fermi-c2050");
  EXPECT_EQ(doc["b"]["hierarchy"], "gtx480");
  EXPECT_EQ(doc["loads"].size(), 3u);
}

TEST(DiffCli, MalformedReportIsExitCodeTwoNamingTheFileAndTheKey) {
  std::ifstream in(kData + "diff_after.json");
  auto report = nlohmann::json::parse(in);
  report["loads"][0]["requests"] = -3;
  const fs::path bad = temp_dir() / "bad.json";
  std::ofstream(bad) << report.dump();
  const CommandResult r = run("diff " + kData + "diff_before.json " + bad.string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(bad.string() +
                          ": loads[0].requests: expected a non-negative integer, found -3"),
            std::string::npos)
      << r.output;
  const CommandResult missing = run("diff " + kData + "diff_before.json /nonexistent.json");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("/nonexistent.json: cannot open the file"), std::string::npos)
      << missing.output;
}

TEST(DiffCli, TwoHierarchiesOfOneTraceMatchEveryLoadExactly) {
  // The README's own example, a synthetic SpMV trace, when the synth command is built.
  const fs::path trace = temp_dir() / "spmv.mct";
  const CommandResult synth =
      run("synth --pattern spmv --blocks 16 --threads 128 -o " + trace.string());
  if (synth.exit_code != 0) {
    GTEST_SKIP() << "memcarlo synth is not part of this build: " << synth.output;
  }
  const fs::path a = temp_dir() / "fermi.json";
  const fs::path b = temp_dir() / "l1-48k.json";
  ASSERT_EQ(run("simulate " + trace.string() + " -n 8 -q -o " + a.string()).exit_code, 0);
  ASSERT_EQ(
      run("simulate " + trace.string() + " -n 8 -q --set l1.size=48KiB -o " + b.string()).exit_code,
      0);
  const CommandResult r = run("diff --json " + a.string() + " " + b.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto doc = nlohmann::json::parse(r.output);
  ASSERT_EQ(doc["input_differences"].size(), 1u) << r.output;
  EXPECT_EQ(doc["input_differences"][0]["input"], "hierarchy.parameters.l1.size");
  EXPECT_TRUE(doc["only_in_a"].empty() && doc["only_in_b"].empty());
  bool some_significant = false;
  for (const auto& load : doc["loads"]) {
    EXPECT_EQ(load["match"], "exact");
    for (const auto& m : load["metrics"]) {
      some_significant = some_significant || m["significant"].get<bool>();
    }
  }
  EXPECT_TRUE(some_significant);  // three times the L1 changes something
  // A report against itself: nothing differs, nothing is significant.
  const CommandResult same = run("diff --json " + a.string() + " " + a.string());
  const auto none = nlohmann::json::parse(same.output);
  EXPECT_TRUE(none["input_differences"].empty());
  for (const auto& load : none["loads"]) {
    for (const auto& m : load["metrics"]) {
      EXPECT_FALSE(m["significant"].get<bool>()) << m.dump();
    }
  }
}

}  // namespace
