// Reads a text file line by line in large blocks, plain or xz-compressed, holding one buffer of it
// at a time; tracks line numbers and bytes read for error messages and progress.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace memcarlo::accelsim::detail {

class LineSource {
 public:
  /// Opens `path`; a name ending in ".xz" is decompressed. Throws ImportError.
  explicit LineSource(std::string path);
  ~LineSource();
  LineSource(const LineSource&) = delete;
  LineSource& operator=(const LineSource&) = delete;

  /// The next line without its "\n" or "\r\n"; false at the end of the file. The view stays valid
  /// until the next call.
  bool next(std::string_view& line);
  /// 1-based number of the line last returned.
  [[nodiscard]] std::uint64_t line_number() const { return line_number_; }
  /// Bytes of the file (compressed bytes for .xz) read so far.
  [[nodiscard]] std::uint64_t bytes_read() const;
  [[nodiscard]] std::uint64_t file_size() const { return file_size_; }
  [[nodiscard]] const std::string& path() const { return path_; }

  /// Throws ImportError naming this file and the current line.
  [[noreturn]] void fail(const std::string& message) const;

 private:
  struct Decoder;  // xz state, when the file is compressed
  /// Appends up to `capacity` bytes at `out`; 0 at the end of the file.
  std::size_t read_some(char* out, std::size_t capacity);
  std::size_t read_raw(char* out, std::size_t capacity);

  std::string path_;
  int fd_ = -1;
  std::uint64_t file_size_ = 0;
  std::uint64_t raw_bytes_read_ = 0;
  std::unique_ptr<Decoder> decoder_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;  // first unread byte in buffer_
  std::size_t end_ = 0;    // one past the last valid byte
  bool eof_ = false;
  std::uint64_t line_number_ = 0;
};

/// True when the path names an xz-compressed file.
bool is_xz_path(std::string_view path);

}  // namespace memcarlo::accelsim::detail
