// The error type of the trace reader and writer: it names the file, the byte offset and what was
// wrong, so that `memcarlo trace check` and every command that reads traces report the same thing.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace memcarlo::tracebuf {

class TraceError : public std::runtime_error {
 public:
  enum class Kind { kIo, kFormat, kChecksum, kVersion, kTruncated, kInvariant };

  TraceError(Kind kind, std::string file, std::uint64_t offset, const std::string& what)
      : std::runtime_error(file + ": byte " + std::to_string(offset) + ": " + what),
        kind_(kind),
        file_(std::move(file)),
        offset_(offset) {}

  [[nodiscard]] Kind kind() const { return kind_; }
  [[nodiscard]] const std::string& file() const { return file_; }
  [[nodiscard]] std::uint64_t offset() const { return offset_; }

 private:
  Kind kind_;
  std::string file_;
  std::uint64_t offset_;
};

}  // namespace memcarlo::tracebuf
