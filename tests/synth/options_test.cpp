// Options of memcarlo::synth: bad values are rejected with a message naming the option (and no
// file is written), defaults resolve into a canonical command, and generation is deterministic.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>

#include "synth_test_util.hpp"

namespace memcarlo::synth {
namespace {

using testing::all_records;
using testing::generate_and_open;
using testing::read_file;
using testing::temp_path;

SynthOptions with_pattern(const std::string& pattern) {
  SynthOptions options;
  options.pattern = pattern;
  return options;
}

std::string option_error(const SynthOptions& options) {
  const std::string path = temp_path("rejected");
  std::filesystem::remove(path);
  try {
    generate(options, path);
  } catch (const OptionError& e) {
    EXPECT_FALSE(std::filesystem::exists(path)) << "no file is written for bad options";
    return e.what();
  }
  ADD_FAILURE() << "expected an OptionError";
  return "";
}

struct BadOptions {
  const char* name;
  std::function<void(SynthOptions&)> change;
  const char* message;  // expected substring
};

TEST(SynthOptions, BadValuesAreRejectedWithTheOptionNamed) {
  const std::vector<BadOptions> cases = {
      {"no pattern", [](SynthOptions& o) { o.pattern = ""; }, "--pattern is required"},
      {"unknown pattern", [](SynthOptions& o) { o.pattern = "zigzag"; },
       "unknown pattern 'zigzag'; allowed patterns: stream, stride, gather, reuse, spmv, "
       "matmul, stencil2d"},
      {"no threads", [](SynthOptions& o) { o.threads = 0; },
       "--threads must be between 1 and 1024, got 0"},
      {"too many threads", [](SynthOptions& o) { o.threads = 1025; },
       "--threads must be between 1 and 1024, got 1025"},
      {"odd element", [](SynthOptions& o) { o.element_size = 3; },
       "--elem-size must be one of 1, 2, 4, 8, 16"},
      {"no blocks", [](SynthOptions& o) { o.blocks = 0; }, "--blocks must be between 1"},
      {"no iterations", [](SynthOptions& o) { o.iterations = 0; }, "--iterations must be"},
      {"stride 0",
       [](SynthOptions& o) {
         o.pattern = "stride";
         o.stride = 0;
       },
       "--stride must be between 1"},
      {"small footprint",
       [](SynthOptions& o) {
         o.pattern = "gather";
         o.element_size = 8;
         o.footprint = 4;
       },
       "--footprint must be at least the element size (8 bytes), got 4"},
      {"no non-zeros",
       [](SynthOptions& o) {
         o.pattern = "spmv";
         o.nnz_per_row = 0;
       },
       "--nnz-per-row must be between 1"},
      {"unused option", [](SynthOptions& o) { o.stride = 2; },
       "--stride does not apply to pattern 'stream' (it takes --iterations)"},
      {"unused matrix",
       [](SynthOptions& o) {
         o.pattern = "gather";
         o.matrix = MatrixLayout::kRandom;
       },
       "--matrix does not apply to pattern 'gather'"},
      {"block width",
       [](SynthOptions& o) {
         o.pattern = "matmul";
         o.block_width = 48;
       },
       "--block-width must divide --threads (256), got 48"},
      {"blocks beyond grid",
       [](SynthOptions& o) {
         o.pattern = "matmul";
         o.size = 64;
         o.blocks = 17;
       },
       "--blocks 17 exceeds the 16 blocks (2 x 8)"},
      {"tiny stencil",
       [](SynthOptions& o) {
         o.pattern = "stencil2d";
         o.size = 2;
       },
       "--size must be at least 3"},
      {"huge stream",
       [](SynthOptions& o) {
         o.blocks = 1u << 24;
         o.threads = 1024;
         o.iterations = 1u << 24;
       },
       "more than the 1 TiB"},
      {"too many spmv rows",
       [](SynthOptions& o) {
         o.pattern = "spmv";
         o.blocks = 1u << 22;
         o.threads = 1024;
       },
       "at most 2^31 - 1"},
  };
  for (const BadOptions& bad : cases) {
    SynthOptions options = with_pattern("stream");
    bad.change(options);
    const std::string message = option_error(options);
    EXPECT_NE(message.find(bad.message), std::string::npos)
        << bad.name << ": got \"" << message << "\"";
  }
}

TEST(SynthOptions, CanonicalCommandResolvesEveryDefault) {
  EXPECT_EQ(canonical_command(with_pattern("spmv")),
            "memcarlo synth --pattern spmv --blocks 64 --threads 256 --elem-size 4 --seed 1 "
            "--nnz-per-row 32 --matrix random");
  EXPECT_EQ(canonical_command(with_pattern("stencil2d")),
            "memcarlo synth --pattern stencil2d --blocks 256 --threads 256 --elem-size 4 --seed 1 "
            "--size 256 --block-width 32");
  SynthOptions reuse = with_pattern("reuse");
  reuse.footprint = 4096;
  EXPECT_EQ(canonical_command(reuse),
            "memcarlo synth --pattern reuse --blocks 64 --threads 256 --elem-size 4 --seed 1 "
            "--iterations 4 --footprint 4096");
}

TEST(SynthOptions, ByteCountsAcceptBinarySuffixes) {
  EXPECT_EQ(parse_byte_count("4096"), 4096u);
  EXPECT_EQ(parse_byte_count("16KiB"), 16u * 1024);
  EXPECT_EQ(parse_byte_count("16K"), 16u * 1024);
  EXPECT_EQ(parse_byte_count("4MiB"), 4u << 20);
  EXPECT_EQ(parse_byte_count("1G"), 1u << 30);
  EXPECT_EQ(parse_byte_count("12B"), 12u);
  EXPECT_FALSE(parse_byte_count(""));
  EXPECT_FALSE(parse_byte_count("KiB"));
  EXPECT_FALSE(parse_byte_count("12kb"));
  EXPECT_FALSE(parse_byte_count("-5"));
  EXPECT_FALSE(parse_byte_count("99999999999999999999"));
  EXPECT_FALSE(parse_byte_count("17179869184GiB"));
}

TEST(SynthOptions, MatrixLayoutsRoundTripThroughTheirNames) {
  for (MatrixLayout layout : {MatrixLayout::kRandom, MatrixLayout::kBlockDiagonal}) {
    EXPECT_EQ(matrix_layout_from_string(to_string(layout)), layout);
  }
  EXPECT_FALSE(matrix_layout_from_string("diagonal"));
}

class Determinism : public ::testing::TestWithParam<std::string> {};

TEST_P(Determinism, SameOptionsGiveIdenticalBytes) {
  SynthOptions options = with_pattern(GetParam());
  options.blocks = 3;
  options.seed = 12345;
  const std::string first = temp_path("same-a-" + GetParam());
  const std::string second = temp_path("same-b-" + GetParam());
  generate(options, first);
  generate(options, second);
  EXPECT_EQ(read_file(first), read_file(second));
}

INSTANTIATE_TEST_SUITE_P(Synth, Determinism,
                         ::testing::Values("stream", "stride", "gather", "reuse", "spmv", "matmul",
                                           "stencil2d"),
                         [](const auto& test) { return test.param; });

/// Addresses of every record, in trace order.
std::vector<std::uint64_t> addresses(const SynthOptions& options, const std::string& name) {
  std::vector<std::uint64_t> result;
  for (const auto& record : all_records(generate_and_open(options, name))) {
    for (const auto& [lane, address] : record.addresses) {
      result.push_back(address);
    }
  }
  return result;
}

TEST(SynthSeed, ADifferentSeedGivesDifferentGatherAndSpmvAddresses) {
  for (const char* pattern : {"gather", "spmv"}) {
    SynthOptions options = with_pattern(pattern);
    options.blocks = 2;
    options.seed = 1;
    const auto first = addresses(options, std::string("seed1-") + pattern);
    options.seed = 2;
    const auto second = addresses(options, std::string("seed2-") + pattern);
    EXPECT_NE(first, second) << pattern;
  }
}

}  // namespace
}  // namespace memcarlo::synth
