// Round trip of every synthetic pattern (memcarlo synth) through Accel-Sim text: export then
// import must give back the same records.
#include <gtest/gtest.h>

#include "interop_test_util.hpp"
#include "memcarlo/accelsim/accelsim.hpp"
#include "memcarlo/synth/synth.hpp"
#include "roundtrip_check.hpp"

namespace memcarlo::accelsim {
namespace {

void round_trip(const synth::SynthOptions& options, const std::string& name) {
  const std::string dir = testing::scratch_dir("synth-" + name);
  const std::string original = dir + "/synth.mct";
  synth::generate(options, original);
  export_trace(original, dir + "/accelsim");
  import_trace(dir + "/accelsim/kernelslist.g", dir + "/back.mct");
  testing::expect_same_records(original, dir + "/back.mct");
}

TEST(AccelsimSynthRoundTrip, EveryPatternComesBackExactly) {
  ASSERT_FALSE(synth::patterns().empty());
  for (const synth::PatternInfo& pattern : synth::patterns()) {
    SCOPED_TRACE(std::string(pattern.name));
    synth::SynthOptions options;
    options.pattern = std::string(pattern.name);
    options.blocks = 3;
    options.threads = 96;
    try {
      synth::validate(options);
    } catch (const synth::OptionError&) {
      options.blocks.reset();  // the pattern's own defaults
      options.threads = 256;
    }
    round_trip(options, std::string(pattern.name));
  }
}

TEST(AccelsimSynthRoundTrip, EveryElementSizeComesBackExactly) {
  for (const std::uint32_t size : {1u, 2u, 4u, 8u, 16u}) {
    SCOPED_TRACE(size);
    synth::SynthOptions options;
    options.pattern = "stream";
    options.blocks = 2;
    options.threads = 80;
    options.element_size = size;
    round_trip(options, "stream-" + std::to_string(size));
  }
}

}  // namespace
}  // namespace memcarlo::accelsim
