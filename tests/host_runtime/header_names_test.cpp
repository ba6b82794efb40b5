// The emulation headers must not collide with the macros programs define. They are force-included
// after the command line's -D macros (PolyBench's -DN=... -DM=...) and cuda_include/ is included
// after a program's own #defines, so any identifier in them that a program may #define breaks the
// build (`template <class T>` with -DT=3). The rule this test enforces over every header a host
// build reads: no all-uppercase identifier (N, M, NX, TSTEPS, BLOCK_SIZE, ...) unless it is
// CUDA's or memcarlo's own (CUDA*, MEMCARLO_*), and no one-letter identifier but the members
// CUDA itself names (x, y, z, w of the vector types, f of cudaChannelFormatDesc).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/macro_safe_names.hpp"

namespace {

namespace fs = std::filesystem;
using memcarlo::test_support::macro_name_report;
using memcarlo::test_support::Offence;
using memcarlo::test_support::offences_in;

/// The headers a host build of a CUDA program reads from this repository.
std::vector<fs::path> emulation_headers() {
  const fs::path source = MEMCARLO_SOURCE_DIR;
  std::vector<fs::path> headers = {source / "tracebuf/include/memcarlo/probe_api.h"};
  for (const fs::path& root :
       {source / "tracebuf/host/include/memcarlo/host", source / "tracebuf/host/cuda_include"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root)) {
      if (entry.is_regular_file() && entry.path().extension() == ".h") {
        headers.push_back(entry.path());
      }
    }
  }
  return headers;
}

}  // namespace

TEST(HostHeaderNames, NoIdentifierAProgramMayDefineAsAMacro) {
  const std::vector<fs::path> headers = emulation_headers();
  ASSERT_GT(headers.size(), 10u);
  const std::string report = macro_name_report(headers);
  EXPECT_TRUE(report.empty()) << "identifiers a program's macros would replace:\n" << report;
}

TEST(HostHeaderNames, TheRuleCatchesWhatBrokePolyBench) {
  // What the headers had before: a template parameter named M (PolyBench's -DM=64).
  const fs::path sample = fs::temp_directory_path() / "memcarlo_header_names_sample.h";
  std::ofstream(sample) << "// M in a comment is fine\n"
                           "#include \"N.h\"\n"
                           "template <class T, int D, int M> struct texture_like;  // \"NX\"\n"
                           "inline float norm(float x, float y) { return x * y; }\n";
  const std::vector<Offence> found = offences_in(sample);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].identifier, "T");
  EXPECT_EQ(found[1].identifier, "D");
  EXPECT_EQ(found[2].identifier, "M");
  EXPECT_EQ(found[2].line, 3);
  fs::remove(sample);
}
