// `memcarlo compare` end to end: exit code 0 whatever the agreement, 2 and a message naming the
// file and place for unreadable inputs, and --json on stdout.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "common/run_command.hpp"

namespace {

namespace fs = std::filesystem;

const std::string kMemcarlo = std::string(MEMCARLO_BINARY_DIR) + "/cli/memcarlo";
const std::string kData = std::string(MEMCARLO_SOURCE_DIR) + "/tests/reports/data/";

using memcarlo::test_support::CommandResult;

/// `memcarlo ARGUMENTS`: standard output, and standard error unless `with_stderr` is false.
CommandResult run(const std::string& arguments, bool with_stderr = true) {
  return memcarlo::test_support::run_command(kMemcarlo + " " + arguments +
                                             (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

std::string write_file(const std::string& name, const std::string& text) {
  const fs::path dir =
      fs::temp_directory_path() / ("memcarlo-compare-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path path = dir / name;
  std::ofstream(path) << text;
  return path.string();
}

class CompareCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kMemcarlo)) {
      GTEST_SKIP() << kMemcarlo << " is not built";
    }
  }
};

TEST_F(CompareCli, ExitsZeroWhateverTheAgreementAndPrintsTheTable) {
  // Two of the five judged measurements fall outside the 2σ band: still exit code 0.
  const CommandResult result =
      run("compare " + kData + "multi_kernel_report.json --ncu " + kData + "spmv_details.csv");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("3 inside the 2σ band, 2 outside"), std::string::npos)
      << result.output;
}

TEST_F(CompareCli, JsonGoesToStdoutAsOneDocument) {
  const CommandResult result =
      run("compare " + kData + "single_kernel_report.json --ncu " + kData + "spmv_raw.csv --json",
          false);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto doc = nlohmann::json::parse(result.output);
  EXPECT_EQ(doc["schema_version"], 1);
  EXPECT_EQ(doc["ncu"]["layout"], "raw");
  EXPECT_EQ(doc["report"]["per_kernel"], false);
  EXPECT_EQ(doc["unmatched"]["ncu"][0]["kernel"], "void fill_kernel<float>(float *, float, int)");
}

TEST_F(CompareCli, UnreadableInputsExitTwoNamingTheFileAndPlace) {
  const std::string malformed =
      write_file("malformed.csv",
                 "==PROF== Connected to process 9 (/app)\n"
                 "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
                 "\"0\",\"k\",\"l1tex__t_sector_hit_rate.pct\",\"%\",\"12.5\"\n"
                 "\"1\",\"k\",\"l1tex__t_sector_hit_rate.pct\"\n");
  CommandResult result = run("compare " + kData + "single_kernel_report.json --ncu " + malformed);
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.output, "memcarlo: error: " + malformed +
                               ":4: expected 5 fields as in the header on line 2, found 3\n");

  result = run("compare " + kData + "no-such-report.json --ncu " + kData + "spmv_details.csv");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("no-such-report.json: cannot open the file"), std::string::npos);

  const std::string two_kernels =
      write_file("two_kernels.json",
                 R"({"schema_version": 1, "inputs": {"hierarchy": {"name": "v100"}, "trials": 4,
          "launches": [{"index": 0, "kernel": "a"}, {"index": 1, "kernel": "b"}]}})");
  result = run("compare " + two_kernels + " --ncu " + kData + "spmv_details.csv");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("has no per-kernel \"kernels\" section"), std::string::npos)
      << result.output;
}

}  // namespace
