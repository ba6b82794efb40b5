// The emulation headers must not collide with the macros programs define. They are force-included
// after the command line's -D macros (PolyBench's -DN=... -DM=...) and cuda_include/ is included
// after a program's own #defines, so any identifier in them that a program may #define breaks the
// build (`template <class T>` with -DT=3). The rule this test enforces over every header a host
// build reads: no all-uppercase identifier (N, M, NX, TSTEPS, BLOCK_SIZE, ...) unless it is
// CUDA's or memcarlo's own (CUDA*, MEMCARLO_*), and no one-letter identifier but the members
// CUDA itself names (x, y, z, w of the vector types, f of cudaChannelFormatDesc).
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Offence {
  std::string file;
  int line;
  std::string identifier;
};

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

bool allowed(const std::string& identifier) {
  if (identifier.size() == 1) {
    return identifier == "x" || identifier == "y" || identifier == "z" || identifier == "w" ||
           identifier == "f";
  }
  static const std::regex all_upper("[A-Z][A-Z0-9_]*");
  if (!std::regex_match(identifier, all_upper)) {
    return true;
  }
  return identifier.starts_with("MEMCARLO_") || identifier.starts_with("CUDA");
}

/// Identifiers outside comments, string and character literals and #include lines.
std::vector<Offence> offences_in(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::vector<Offence> found;
  int line = 1;
  bool line_start = true;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = true;
      ++i;
      continue;
    }
    if (line_start && c == '#' && text.compare(i, 8, "#include") == 0) {
      i = text.find('\n', i);
      continue;
    }
    if (!std::isspace(static_cast<unsigned char>(c))) {
      line_start = false;
    }
    if (text.compare(i, 2, "//") == 0) {
      i = text.find('\n', i);
      continue;
    }
    if (text.compare(i, 2, "/*") == 0) {
      const std::size_t end = text.find("*/", i + 2);
      for (std::size_t k = i; k < end; ++k) {
        line += text[k] == '\n' ? 1 : 0;
      }
      i = end + 2;
      continue;
    }
    if (c == '"' || c == '\'') {
      std::size_t k = i + 1;
      while (k < text.size() && text[k] != c) {
        k += text[k] == '\\' ? 2 : 1;
      }
      i = k + 1;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t k = i;
      while (k < text.size() &&
             (std::isalnum(static_cast<unsigned char>(text[k])) || text[k] == '_')) {
        ++k;
      }
      const std::string identifier = text.substr(i, k - i);
      if (!allowed(identifier)) {
        found.push_back({path.string(), line, identifier});
      }
      i = k;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      // A number's suffix (1u, 0x1fULL) is not an identifier.
      while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) ||
                                 text[i] == '.' || text[i] == '\'')) {
        ++i;
      }
      continue;
    }
    ++i;
  }
  return found;
}

}  // namespace

TEST(HostHeaderNames, NoIdentifierAProgramMayDefineAsAMacro) {
  const std::vector<fs::path> headers = emulation_headers();
  ASSERT_GT(headers.size(), 10u);
  std::string report;
  for (const fs::path& header : headers) {
    for (const Offence& offence : offences_in(header)) {
      report +=
          offence.file + ":" + std::to_string(offence.line) + ": " + offence.identifier + "\n";
    }
  }
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
