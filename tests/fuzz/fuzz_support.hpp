// What the libFuzzer harnesses share: the input as a file (the readers under test open paths),
// and the rule that an input may be refused only with one of memcarlo's documented exceptions.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace memcarlo::fuzz {

/// A file in the temporary directory holding `bytes`, removed when this goes out of scope; one
/// name per process and purpose, so that parallel fuzzing jobs do not share it.
class InputFile {
 public:
  InputFile(const std::uint8_t* data, std::size_t size, std::string_view suffix) {
    path_ = std::filesystem::temp_directory_path() /
            ("memcarlo-fuzz-" + std::to_string(::getpid()) + std::string(suffix));
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  InputFile(std::string_view text, std::string_view suffix)
      : InputFile(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), suffix) {}
  ~InputFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  [[nodiscard]] std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

/// Splits `text` at the first line that is exactly `marker` (e.g. "---"): what comes before and
/// after it; no marker: everything is the second part.
inline std::pair<std::string_view, std::string_view> split_at_marker(std::string_view text,
                                                                     std::string_view marker) {
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = text.find('\n', at);
    const std::string_view line =
        text.substr(at, end == std::string_view::npos ? text.npos : end - at);
    if (line == marker) {
      return {text.substr(0, at),
              end == std::string_view::npos ? std::string_view{} : text.substr(end + 1)};
    }
    if (end == std::string_view::npos) {
      break;
    }
    at = end + 1;
  }
  return {std::string_view{}, text};
}

}  // namespace memcarlo::fuzz
