// `memcarlo locality` as a user meets it: the JSON and CSV of a static graph from a loads table,
// and messages naming the file, the option and what was expected for bad input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/run_command.hpp"

namespace {

const std::string kMemcarlo = std::string(MEMCARLO_BINARY_DIR) + "/cli/memcarlo";
const std::string kLoads = std::string(MEMCARLO_SOURCE_DIR) + "/tests/locality/loads/";

memcarlo::test_support::CommandResult run(const std::string& arguments) {
  return memcarlo::test_support::run_command(kMemcarlo + " locality " + arguments + " 2>&1");
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(LocalityCommand, StaticGraphOfALoadsTableAsJsonAndCsv) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("memcarlo-locality-cli-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string json_path = (dir / "gemm.json").string();
  const std::string csv_path = (dir / "gemm.csv").string();
  const auto r = run(kLoads + "gemm.json --grid 2,8 --block 32,8 --json " + json_path + " --csv " +
                     csv_path + " --html " + (dir / "gemm.html").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("pattern index_xy"), std::string::npos) << r.output;
  const auto document = nlohmann::json::parse(read(json_path));
  EXPECT_EQ(document["kernel"], "gemm_like");
  // GEMM at N = 64 (LocalityGuru §IV): blocks 1 and 0 share a grid row (512), 2 and 0 a column
  // (2,048): 8 row pairs x 512 + C(8, 2) x 2 columns x 2,048.
  EXPECT_EQ(document["static"]["elements"]["total_shared"], 8 * 512 + 28 * 2 * 2048);
  const std::string csv = read(csv_path);
  EXPECT_EQ(csv.rfind("block_i,block_j,elements,lines\n1,0,512,", 0), 0u) << csv;
  EXPECT_NE(read((dir / "gemm.html").string()).find("createElement('canvas')"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(LocalityCommand, BadInputIsNamedWithExitCode2) {
  auto r = run(kLoads + "gemm.json --grid 2,x --block 32,8");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--grid 2,x: expected X[,Y[,Z]]"), std::string::npos) << r.output;
  r = run(kLoads + "gemm.json --block 32,8");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("needs --grid"), std::string::npos) << r.output;
  r = run(kLoads + "gemm.json --grid 2,8 --block 32,8 --kernel nope");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("kernel `nope` has no reads"), std::string::npos) << r.output;
  r = run(kLoads + "two_mm.json --grid 8,32 --block 32,8 --param n=x");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--param n=x: expected an integer"), std::string::npos) << r.output;
  r = run("/nonexistent.mct");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("/nonexistent.mct: not a readable trace"), std::string::npos) << r.output;
}

// The static graph of a trace takes the kernel arguments the trace records (issue 26): synth
// matmul records N = 64, so --static embedded needs no --param. Blocks of 16 x 8 threads, grid
// (4, 8): the 4 blocks of a grid row share 8 rows of A (512 elements), the 8 of a grid column
// 16 columns of B (1,024): 8 x C(4, 2) x 512 + 4 x C(8, 2) x 1,024 = 139,264 shared elements.
TEST(LocalityCommand, StaticGraphOfATraceUsesTheRecordedArguments) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("memcarlo-locality-args-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string trace = (dir / "matmul.mct").string();
  const auto synth = memcarlo::test_support::run_command(
      kMemcarlo + " synth --pattern matmul --size 64 --threads 128 --block-width 16 -o " + trace +
      " 2>&1");
  ASSERT_EQ(synth.exit_code, 0) << synth.output;
  const std::string json_path = (dir / "graphs.json").string();
  auto r = run(trace + " --static embedded --json " + json_path);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("warning"), std::string::npos) << r.output;
  auto document = nlohmann::json::parse(read(json_path));
  for (const auto& load : document["static"]["loads"]) {
    EXPECT_TRUE(load["covered"].get<bool>()) << load.dump();
  }
  ASSERT_EQ(document["measured"]["snapshot_block_count"], 32) << document["measured"].dump();
  EXPECT_EQ(document["static"]["elements"]["total_shared"], 8 * 6 * 512 + 4 * 28 * 1024);
  EXPECT_EQ(document["comparison"]["elements"], "identical") << document["comparison"].dump(2);
  // A --param that contradicts the recorded argument: a warning naming both; the trace's value.
  r = run(trace + " --static embedded --param N=32 --json " + json_path);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("warning: --param N=32 contradicts the argument N = 64 that " + trace +
                          " records for launch 0"),
            std::string::npos)
      << r.output;
  document = nlohmann::json::parse(read(json_path));
  EXPECT_EQ(document["static"]["elements"]["total_shared"], 8 * 6 * 512 + 4 * 28 * 1024);
  // One that agrees says nothing.
  r = run(trace + " --static embedded --param N=64 --json " + json_path);
  EXPECT_EQ(r.output.find("warning"), std::string::npos) << r.output;
  std::filesystem::remove_all(dir);
}

TEST(LocalityCommand, HelpExplainsTheThreeForms) {
  const auto r = run("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("memcarlo locality TRACE --static"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("not covered"), std::string::npos);
}

}  // namespace
