// `memcarlo validate` and `memcarlo hierarchy for-device` end to end: the table and
// validation.json from recorded inputs, exit code 2 with the file and place for bad inputs, and
// the preset of a device name as nvidia-smi prints it.
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

fs::path temp_dir() {
  const fs::path dir =
      fs::temp_directory_path() / ("memcarlo-validate-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

const std::string kCases = " --case histogram=" + kData + "validate_histogram_report.json," +
                           kData + "validate_histogram_ncu.csv --case stencil2d=" + kData +
                           "validate_stencil_report.json," + kData + "validate_stencil_ncu.csv";

class ValidateCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kMemcarlo)) {
      GTEST_SKIP() << kMemcarlo << " is not built";
    }
  }
};

TEST_F(ValidateCli, PrintsTheTableAndWritesValidationJson) {
  const fs::path output = temp_dir() / "validation.json";
  const CommandResult result =
      run("validate" + kCases +
          " --traces histogram=agree --traces stencil2d=differ "
          "--failed 'bfs_csr=ncu failed (exit 1)' --device 'NVIDIA H100 80GB HBM3' -o " +
          output.string());
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_NE(result.output.find("  L1 sector hit rate          4.17  (3 judged, 2 inside the 2σ "
                               "band)\n"),
            std::string::npos)
      << result.output;
  std::ifstream in(output);
  const auto doc = nlohmann::json::parse(in);
  EXPECT_EQ(doc["device"], "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(doc["rows"].size(), 9u);
  EXPECT_EQ(doc["summary"]["judged"], 7);
  EXPECT_EQ(doc["summary"]["traces_differ"], 1);
  EXPECT_EQ(doc["failed_cases"][0]["name"], "bfs_csr");
}

TEST_F(ValidateCli, JsonGoesToStdoutAsOneDocument) {
  const CommandResult result = run("validate" + kCases + " --json", false);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto doc = nlohmann::json::parse(result.output);
  EXPECT_EQ(doc["schema_version"], 1);
  EXPECT_TRUE(doc["device"].is_null());
  EXPECT_TRUE(doc["cases"][0]["traces_agree"].is_null());
}

TEST_F(ValidateCli, BadInputsExitTwoNamingTheArgumentOrTheFileAndPlace) {
  CommandResult result =
      run("validate --case histogram=" + kData + "validate_histogram_report.json");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("memcarlo: error: --case: case \"histogram="), std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("expected NAME=REPORT.json,NCU.csv (two paths, one comma)"),
            std::string::npos)
      << result.output;

  const fs::path torn = temp_dir() / "torn.csv";
  std::ofstream(torn) << "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
                         "\"0\",\"stencil_step\",\"l1tex__t_sector_hit_rate.pct\",\"%\",\"4O.5\"\n";
  result =
      run("validate --case stencil2d=" + kData + "validate_stencil_report.json," + torn.string());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("memcarlo: error: case stencil2d: " + torn.string() + ":2: "),
            std::string::npos)
      << result.output;

  result = run("validate" + kCases + " --traces spmv=agree");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("--traces \"spmv=agree\": no --case is named spmv"),
            std::string::npos)
      << result.output;
  result = run("validate" + kCases + " --traces histogram=same");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("expected agree or differ"), std::string::npos) << result.output;
  result = run("validate" + kCases + " --case histogram=a.json,b.csv");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("two cases are named histogram"), std::string::npos);

  result = run("validate");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.output.find("give at least one --case"), std::string::npos) << result.output;
}

TEST_F(ValidateCli, HelpExplainsTheCommand) {
  const CommandResult result = run("validate --help");
  EXPECT_EQ(result.exit_code, 0);
  for (const char* text : {"--case", "NAME=REPORT,CSV", "--traces", "--failed", "--device",
                           "mean absolute error", "validation.json", "2σ band"}) {
    EXPECT_NE(result.output.find(text), std::string::npos) << text << "\n" << result.output;
  }
}

TEST_F(ValidateCli, ForDevicePrintsThePresetOfANvidiaSmiName) {
  CommandResult result = run("hierarchy for-device 'NVIDIA A100-SXM4-40GB'");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.output, "a100\n");
  result = run("hierarchy for-device 'Tesla V100-SXM2-16GB'", false);
  EXPECT_EQ(result.output, "v100\n");
  // A note on standard error, the preset alone on standard output.
  result = run("hierarchy for-device 'NVIDIA H100 PCIe'", false);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.output, "h100\n");
  result = run("hierarchy for-device 'NVIDIA H100 PCIe'");
  EXPECT_NE(result.output.find("memcarlo: note: the h100 preset models the H100 SXM5"),
            std::string::npos)
      << result.output;
}

TEST_F(ValidateCli, ForDeviceExitsTwoNamingAnUnknownDevice) {
  const CommandResult result = run("hierarchy for-device 'NVIDIA B200'");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(
      result.output.find("memcarlo: error: no hierarchy preset matches the device \"NVIDIA B200\""),
      std::string::npos)
      << result.output;
  EXPECT_NE(result.output.find("Presets: fermi-c2050, gtx480, v100"), std::string::npos)
      << result.output;
}

}  // namespace
