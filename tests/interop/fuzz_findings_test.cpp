// What coverage-guided fuzzing found in the Accel-Sim importer (tests/fuzz/regressions/accelsim):
// a header line that is not UTF-8 text (a foreign tool's free text) made writing the trace's JSON
// metadata throw an exception no caller expected. It now imports, the bytes replaced.
#include <gtest/gtest.h>

#include "interop_test_util.hpp"
#include "memcarlo/accelsim/accelsim.hpp"
#include "memcarlo/tracebuf/reader.hpp"

namespace memcarlo::accelsim {
namespace {

using testing::block_text;
using testing::kernel_text;
using testing::scratch_dir;
using testing::warp_text;
using testing::write_text;

TEST(AccelsimFuzzFindings, AHeaderThatIsNotUtf8Imports) {
  const std::string dir = scratch_dir("fuzz-findings");
  const std::string input = dir + "/kernel-1.traceg";
  const std::string output = dir + "/imported.mct";
  write_text(
      input,
      kernel_text(block_text("0,0,0", warp_text(0, {"0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000 4 0",
                                                    "0090 ffffffff 0 EXIT 0 0 0"})),
                  "(1,1,1)", "(32,1,1)",
                  "-memcarlo source = tr\xff\xfe"
                  "ce.mct\n"));
  const ImportStats stats = import_trace(input, output);
  EXPECT_EQ(stats.records, 1u);
  const auto reader = tracebuf::TraceReader::open(output);
  EXPECT_NO_THROW((void)tracebuf::check_invariants(reader));
  EXPECT_NE(reader.meta().properties_json.find("\xef\xbf\xbd"), std::string::npos)  // U+FFFD
      << reader.meta().properties_json;
}

}  // namespace
}  // namespace memcarlo::accelsim
