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

TEST(LocalityCommand, HelpExplainsTheThreeForms) {
  const auto r = run("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.output.find("memcarlo locality TRACE --static"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("not covered"), std::string::npos);
}

}  // namespace
