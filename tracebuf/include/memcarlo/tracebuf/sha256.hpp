// SHA-256 (FIPS 180-4), used to fingerprint the trace a report was computed from.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace memcarlo::tracebuf {

class Sha256 {
 public:
  Sha256();
  void update(std::span<const std::byte> data);
  std::array<std::uint8_t, 32> finish();
  /// Lower-case hex digest of `data`.
  static std::string hex(std::span<const std::byte> data);

 private:
  void block(const std::uint8_t* p);
  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;
};

}  // namespace memcarlo::tracebuf
