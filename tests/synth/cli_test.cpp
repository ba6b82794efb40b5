// `memcarlo synth` through the built binary: a valid run writes a trace that `memcarlo trace
// check` accepts, bad option values exit with code 2 and a message, and --help lists the patterns.
#include <gtest/gtest.h>

#include <filesystem>

#include "common/run_command.hpp"
#include "synth_test_util.hpp"

namespace memcarlo::synth {
namespace {

using testing::temp_path;

using test_support::CommandResult;

/// `memcarlo ARGUMENTS`, standard error with standard output.
CommandResult memcarlo(const std::string& arguments) {
  return test_support::run_command(std::string(MEMCARLO_BINARY_DIR) + "/cli/memcarlo " +
                                   arguments + " 2>&1");
}

TEST(SynthCommand, WritesATraceThatTraceCheckAccepts) {
  const std::string path = temp_path("cli-spmv");
  const CommandResult synth = memcarlo(
      "synth --pattern spmv --blocks 2 --threads 64 --nnz-per-row 5 "
      "--matrix block-diagonal --seed 3 -o " +
      path);
  ASSERT_EQ(synth.exit_code, 0) << synth.output;
  EXPECT_NE(synth.output.find("transactions of 128-byte lines"), std::string::npos) << synth.output;
  EXPECT_NE(synth.output.find("--matrix block-diagonal"), std::string::npos) << synth.output;

  const CommandResult check = memcarlo("trace check " + path);
  EXPECT_EQ(check.exit_code, 0) << check.output;
  EXPECT_NE(check.output.find("OK"), std::string::npos) << check.output;
  EXPECT_EQ(check.output.find("warning"), std::string::npos) << check.output;

  const auto reader = tracebuf::TraceReader::open(path);
  EXPECT_EQ(reader.launches().at(0).info.snapshot_block_count, 2u);
  EXPECT_EQ(testing::properties(reader)["parameters"]["matrix"], "block-diagonal");
}

TEST(SynthCommand, FootprintAcceptsBinarySuffixes) {
  const std::string path = temp_path("cli-reuse");
  const CommandResult run =
      memcarlo("synth --pattern reuse --blocks 1 --footprint 2KiB -o " + path);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto reader = tracebuf::TraceReader::open(path);
  EXPECT_EQ(testing::properties(reader)["parameters"]["footprint"], 2048);
}

TEST(SynthCommand, BadOptionValuesExitWithCodeTwoAndAMessage) {
  const std::string path = temp_path("cli-bad");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--pattern stream --threads 0", "--threads must be between 1 and 1024"},
      {"--pattern zigzag", "allowed patterns: stream, stride, gather, reuse, spmv"},
      {"--pattern spmv --matrix diagonal", "--matrix must be random or block-diagonal"},
      {"--pattern gather --footprint 12XB", "--footprint: expected a byte count"},
      {"--pattern stream --stride 3", "--stride does not apply to pattern 'stream'"},
      {"--pattern chain --chain 4,x", "--chain: expected byte strides separated by commas"},
      {"--pattern chain --chain 6", "every stride must be a multiple of --elem-size"},
      {"--pattern stream --chain 4", "--chain does not apply to pattern 'stream'"},
      {"--threads 32", "--pattern is required"},
  };
  for (const auto& [arguments, message] : cases) {
    const CommandResult run = memcarlo("synth " + arguments + " -o " + path);
    EXPECT_EQ(run.exit_code, 2) << arguments << ": " << run.output;
    EXPECT_NE(run.output.find(message), std::string::npos) << arguments << ": " << run.output;
  }
  const CommandResult no_output = memcarlo("synth --pattern stream");
  EXPECT_EQ(no_output.exit_code, 2) << no_output.output;
  EXPECT_NE(no_output.output.find("-o FILE is required"), std::string::npos) << no_output.output;
}

TEST(SynthCommand, HelpExplainsEveryPattern) {
  const CommandResult run = memcarlo("synth --help");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  for (const PatternInfo& pattern : patterns()) {
    EXPECT_NE(run.output.find("  " + std::string(pattern.name) + ": "), std::string::npos)
        << pattern.name;
  }
  for (const char* option :
       {"--blocks", "--threads", "--elem-size", "--seed", "--iterations", "--stride", "--footprint",
        "--nnz-per-row", "--matrix", "--size", "--block-width", "--chain", "--loop-stride"}) {
    EXPECT_NE(run.output.find(option), std::string::npos) << option;
  }
}

}  // namespace
}  // namespace memcarlo::synth
