// Malformed Accel-Sim input: every error names the file and line and leaves no output behind.
#include <gtest/gtest.h>

#include <filesystem>

#include "interop_test_util.hpp"
#include "memcarlo/accelsim/accelsim.hpp"

namespace memcarlo::accelsim {
namespace {

using testing::block_text;
using testing::kernel_text;
using testing::scratch_dir;
using testing::warp_text;
using testing::write_text;

const std::string kLoad = "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000 4 0";
const std::string kExit = "0090 ffffffff 0 EXIT 0 0 0";

/// The header of kernel_text() takes 15 lines; the body starts on line 16.
constexpr std::uint64_t kBodyLine = 16;

struct BadInput {
  const char* name;
  std::string body;
  std::uint64_t line;    // expected line number (0: not tied to a line)
  const char* fragment;  // expected in the message
};

/// "#BEGIN_TB", "", "thread block = 0,0,0", "", "warp = 0", "insts = n": the first instruction of
/// a one-block body is on kBodyLine + 6.
std::string one_warp(const std::vector<std::string>& lines) {
  return block_text("0,0,0", warp_text(0, lines));
}

class AccelsimMalformed : public ::testing::TestWithParam<BadInput> {};

TEST_P(AccelsimMalformed, IsReportedWithFileAndLine) {
  const BadInput& bad = GetParam();
  const std::string dir = scratch_dir(std::string("bad-") + bad.name);
  const std::string input = dir + "/kernel-1.traceg";
  write_text(input, kernel_text(bad.body));
  const std::string output = dir + "/out.mct";
  try {
    import_trace(input, output);
    FAIL() << "no error for " << bad.name;
  } catch (const ImportError& e) {
    EXPECT_EQ(e.file(), input);
    EXPECT_EQ(e.line(), bad.line) << e.what();
    EXPECT_NE(std::string(e.what()).find(bad.fragment), std::string::npos) << e.what();
    const std::string where = input + ":" + std::to_string(bad.line) + ": ";
    EXPECT_EQ(std::string(e.what()).rfind(where, 0), 0u) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(output)) << "a partial output was left behind";
}

INSTANTIATE_TEST_SUITE_P(
    Lines, AccelsimMalformed,
    ::testing::Values(
        BadInput{"mask", one_warp({"0010 fffzffff 1 R2 LDG.E 1 R4 4 1 0x10000 4 0"}), kBodyLine + 6,
                 "expected a hexadecimal mask, got 'fffzffff'"},
        BadInput{"pc", one_warp({kLoad, "PC ffffffff 0 EXIT 0 0 0"}), kBodyLine + 7,
                 "expected a hexadecimal PC"},
        BadInput{"register count", one_warp({"0010 ffffffff x R2 LDG.E 1 R4 4 1 0x1 4 0"}),
                 kBodyLine + 6, "number of destination registers"},
        BadInput{"truncated", one_warp({"0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000"}),
                 kBodyLine + 6, "where a stride was expected"},
        BadInput{"mode", one_warp({"0010 ffffffff 1 R2 LDG.E 1 R4 4 7 0x10000 4 0"}), kBodyLine + 6,
                 "unknown address mode 7"},
        BadInput{"too few deltas", one_warp({"0010 0000000f 1 R2 LDG.E 1 R4 4 2 0x10000 4"}),
                 kBodyLine + 6, "needs 3 deltas, found 1"},
        BadInput{"too many addresses",
                 one_warp({"0010 00000003 1 R2 LDG.E 1 R4 4 0 0x1 0x2 0x3 0x4 0"}), kBodyLine + 6,
                 "more addresses than active lanes"},
        BadInput{"bad delta", one_warp({"0010 00000003 1 R2 LDG.E 1 R4 4 2 0x10000 4x 0"}),
                 kBodyLine + 6, "expected a decimal address delta, got '4x'"},
        BadInput{"insts too small",
                 one_warp({kLoad, kLoad})
                     .replace(one_warp({kLoad, kLoad}).find("insts = 2"), 9, "insts = 1"),
                 kBodyLine + 7, "more instruction lines than the warp's 'insts = 1'"},
        BadInput{"insts too large",
                 one_warp({kLoad}).replace(one_warp({kLoad}).find("insts = 1"), 9, "insts = 3"),
                 kBodyLine + 5, "declares insts = 3 but has 1 instruction lines"},
        BadInput{"no end", "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n" + kLoad + "\n",
                 kBodyLine + 4, "no #END_TB"},
        BadInput{"nested", "#BEGIN_TB\n#BEGIN_TB\n", kBodyLine + 1, "missing #END_TB"},
        BadInput{"outside", "warp = 0\n", kBodyLine, "outside a thread block"},
        BadInput{"warp range",
                 one_warp({kLoad}).replace(one_warp({kLoad}).find("warp = 0"), 8, "warp = 2"),
                 kBodyLine + 4, "warp 2, but blocks of 64 threads have 2 warps"},
        BadInput{"warp twice", block_text("0,0,0", warp_text(1, {kExit}) + warp_text(1, {kExit})),
                 kBodyLine + 8, "warp 1 appears twice"},
        BadInput{"no insts", "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n" + kLoad + "\n",
                 kBodyLine + 3, "outside a warp"},
        BadInput{"opcode changes at a pc",
                 one_warp({kLoad, "0010 ffffffff 0 STG.E 2 R2 R4 4 1 0x10000 4 0"}), kBodyLine + 7,
                 "PC 0x0010 is STG.E here but LDG.E earlier"},
        BadInput{"thread block", "#BEGIN_TB\nthread block = 0;0;0\n", kBodyLine + 1,
                 "expected 'thread block = x,y,z'"}));

TEST(AccelsimMalformedInput, MaskBeyondThePartialLastWarp) {
  const std::string dir = scratch_dir("bad-partial");
  const std::string input = dir + "/kernel-1.traceg";
  write_text(input, kernel_text(block_text("0,0,0", warp_text(1, {kLoad})), "(1,1,1)", "(40,1,1)"));
  try {
    import_trace(input, dir + "/out.mct");
    FAIL();
  } catch (const ImportError& e) {
    EXPECT_EQ(e.line(), kBodyLine + 6);
    EXPECT_NE(std::string(e.what()).find("lanes beyond the block's 40 threads"), std::string::npos)
        << e.what();
  }
}

TEST(AccelsimMalformedInput, HeaderProblems) {
  const std::string dir = scratch_dir("bad-header");
  write_text(dir + "/a.traceg", "-kernel name = k\n-block dim = (32,1,1)\n\n#BEGIN_TB\n");
  EXPECT_THROW(
      {
        try {
          import_trace(dir + "/a.traceg", dir + "/out.mct");
        } catch (const ImportError& e) {
          EXPECT_NE(std::string(e.what()).find("no '-grid dim = ...' line"), std::string::npos);
          throw;
        }
      },
      ImportError);
  write_text(dir + "/b.traceg", "-kernel name = k\n-grid dim = (1,0,1)\n");
  try {
    import_trace(dir + "/b.traceg", dir + "/out.mct");
    FAIL();
  } catch (const ImportError& e) {
    EXPECT_EQ(e.line(), 2u);
    EXPECT_NE(std::string(e.what()).find("(x,y,z) with positive integers"), std::string::npos);
  }
}

TEST(AccelsimMalformedInput, KernelslistProblemsNameTheListLine) {
  const std::string dir = scratch_dir("bad-list");
  write_text(dir + "/kernelslist.g", "MemcpyHtoD,0x1,4\nkernel-9.traceg\n");
  try {
    import_trace(dir + "/kernelslist.g", dir + "/out.mct");
    FAIL();
  } catch (const ImportError& e) {
    EXPECT_EQ(e.file(), dir + "/kernelslist.g");
    EXPECT_EQ(e.line(), 2u);
    EXPECT_NE(std::string(e.what()).find("kernel-9.traceg not found"), std::string::npos);
  }
  write_text(dir + "/kernelslist", "kernel-1.trace\n");
  try {
    import_trace(dir + "/kernelslist", dir + "/out.mct");
    FAIL();
  } catch (const ImportError& e) {
    EXPECT_NE(std::string(e.what()).find("post-traces-processing"), std::string::npos);
  }
  EXPECT_THROW(import_trace(dir + "/missing.traceg", dir + "/out.mct"), ImportError);
  write_text(dir + "/empty.g", "MemcpyHtoD,0x1,4\n");
  EXPECT_THROW(import_trace(dir + "/empty.g", dir + "/out.mct"), ImportError);
}

}  // namespace
}  // namespace memcarlo::accelsim
