// Header files that programs' -D macros must not break: memcarlo's headers are read after a
// program's command-line macros (PolyBench's -DN=64 -DM=64) and its own #defines, so an identifier
// in them that a program may #define breaks the build (`template <class T>` with -DT=3). The rule:
// no all-uppercase identifier (N, M, NX, TSTEPS, BLOCK_SIZE, ...) unless it is CUDA's,
// memcarlo's or Thrust's own (CUDA*, MEMCARLO_*, THRUST_*: a program that defines one of Thrust's
// macros changes Thrust itself), and no one-letter identifier but the members CUDA itself
// names (x, y, z, w of the vector types, f of cudaChannelFormatDesc). Used by the scans of the host
// emulation's headers and of the instrumenter's resource headers.
#pragma once

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace memcarlo::test_support {

struct Offence {
  std::string file;
  int line;
  std::string identifier;
};

inline bool macro_safe(const std::string& identifier) {
  if (identifier.size() == 1) {
    return identifier == "x" || identifier == "y" || identifier == "z" || identifier == "w" ||
           identifier == "f";
  }
  // [A-Z][A-Z0-9_]* (without <regex>, which GCC 12 warns about under the sanitizers)
  const bool all_upper =
      std::isupper(static_cast<unsigned char>(identifier[0])) != 0 &&
      std::all_of(identifier.begin(), identifier.end(), [](char c) {
        return std::isupper(static_cast<unsigned char>(c)) != 0 ||
               std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '_';
      });
  if (!all_upper) {
    return true;
  }
  return identifier.starts_with("MEMCARLO_") || identifier.starts_with("CUDA") ||
         identifier.starts_with("THRUST_");
}

/// Identifiers of `path` that break the rule, outside comments, string and character literals
/// and #include lines.
inline std::vector<Offence> offences_in(const std::filesystem::path& path) {
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
      if (!macro_safe(identifier)) {
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

/// The offences of every file in `headers`, one "file:line: identifier" line each.
inline std::string macro_name_report(const std::vector<std::filesystem::path>& headers) {
  std::string report;
  for (const std::filesystem::path& header : headers) {
    for (const Offence& offence : offences_in(header)) {
      report +=
          offence.file + ":" + std::to_string(offence.line) + ": " + offence.identifier + "\n";
    }
  }
  return report;
}

}  // namespace memcarlo::test_support
