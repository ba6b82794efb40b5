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

std::vector<fs::path> resource_headers() {
  std::vector<fs::path> headers;
  for (const auto& entry :
       fs::directory_iterator(fs::path(MEMCARLO_SOURCE_DIR) / "instrumenter/src/resources")) {
    if (entry.is_regular_file() && entry.path().extension() == ".h") headers.push_back(entry.path());
  }
  return headers;
}

bool allowed(const std::string& identifier) {
  if (identifier.size() == 1) {
    return identifier == "x" || identifier == "y" || identifier == "z" || identifier == "w" ||
           identifier == "f";
  }
  static const std::regex all_upper("[A-Z][A-Z0-9_]*");
  if (!std::regex_match(identifier, all_upper)) return true;
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
    if (!std::isspace(static_cast<unsigned char>(c))) line_start = false;
    if (text.compare(i, 2, "//") == 0) {
      i = text.find('\n', i);
      continue;
    }
    if (text.compare(i, 2, "/*") == 0) {
      const std::size_t end = text.find("*/", i + 2);
      for (std::size_t k = i; k < end; ++k) line += text[k] == '\n' ? 1 : 0;
      i = end + 2;
      continue;
    }
    if (c == '"' || c == '\'') {
      std::size_t k = i + 1;
      while (k < text.size() && text[k] != c) k += text[k] == '\\' ? 2 : 1;
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
      if (!allowed(identifier)) found.push_back({path.string(), line, identifier});
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

TEST(InstrumenterResourceNames, NoIdentifierAProgramMayDefineAsAMacro) {
  const std::vector<fs::path> headers = resource_headers();
  ASSERT_GE(headers.size(), 5u);
  std::string report;
  for (const fs::path& header : headers) {
    for (const Offence& offence : offences_in(header)) {
      report += offence.file + ":" + std::to_string(offence.line) + ": " + offence.identifier + "\n";
    }
  }
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
