// The instrumenter's own declaration headers (instrumenter/src/resources/*.h) must not collide with
// the macros programs define on the command line: the builtin parse setup force-includes them
// after PolyBench's -DN=64 -DM=64 -DTSTEPS=2, and it is the setup that has to parse such a program
// when the toolkit's headers do not (CUDA 13's cuda.h has a parameter named N). The rule is the
// host emulation headers' (tests/host_runtime/header_names_test.cpp): no all-uppercase identifier
// (N, M, NX, BLOCK_SIZE, ...) unless it is CUDA's or memcarlo's own (CUDA*, MEMCARLO_*), and no
// one-letter identifier but the members CUDA names (x, y, z, w of the vector types, f of
// cudaChannelFormatDesc). Macro parameters count too: one rule is simpler to keep than its
// exceptions.
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

std::vector<fs::path> resource_headers() {
  std::vector<fs::path> headers;
  for (const auto& entry :
       fs::directory_iterator(fs::path(MEMCARLO_SOURCE_DIR) / "instrumenter/src/resources")) {
    if (entry.is_regular_file() && entry.path().extension() == ".h") headers.push_back(entry.path());
  }
  return headers;
}

}  // namespace

TEST(InstrumenterResourceNames, NoIdentifierAProgramMayDefineAsAMacro) {
  const std::vector<fs::path> headers = resource_headers();
  ASSERT_GE(headers.size(), 5u);
  const std::string report = macro_name_report(headers);
  EXPECT_TRUE(report.empty()) << "identifiers a program's -D macros would replace:\n" << report;
}

TEST(InstrumenterResourceNames, TheRuleCatchesWhatBrokePolyBench) {
  // What memcarlo_cuda_legacy.h had: `template <class T, int D, enum cudaTextureReadMode M>`.
  const fs::path sample = fs::temp_directory_path() / "memcarlo_resource_names_sample.h";
  std::ofstream(sample) << "// M in a comment is fine\n"
                           "#include \"N.h\"\n"
                           "#define MEMCARLO_VEC(T, NAME) struct NAME { T x; };  // \"NX\"\n"
                           "template <class T, int D, enum cudaTextureReadMode M> struct tex;\n"
                           "struct cudaChannelFormatDesc { int x, y, z, w; int f; };\n";
  const std::vector<Offence> found = offences_in(sample);
  std::vector<std::string> names;
  for (const Offence& offence : found) names.push_back(offence.identifier);
  EXPECT_EQ(names, (std::vector<std::string>{"T", "NAME", "NAME", "T", "T", "D", "M"}));
  ASSERT_EQ(found.size(), 7u);
  EXPECT_EQ(found[6].line, 4);
  fs::remove(sample);
}
