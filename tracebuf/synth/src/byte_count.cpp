// parse_byte_count: "16KiB"-style sizes for --footprint (binary multiples only, so that a power
// of two stays one).
#include <charconv>

#include "memcarlo/synth/synth.hpp"

namespace memcarlo::synth {

std::optional<std::uint64_t> parse_byte_count(std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) {
    return std::nullopt;
  }
  std::string_view suffix(end, static_cast<std::size_t>(text.data() + text.size() - end));
  std::uint64_t multiplier = 1;
  if (suffix.empty() || suffix == "B") {
    multiplier = 1;
  } else if (suffix == "K" || suffix == "KiB") {
    multiplier = std::uint64_t{1} << 10;
  } else if (suffix == "M" || suffix == "MiB") {
    multiplier = std::uint64_t{1} << 20;
  } else if (suffix == "G" || suffix == "GiB") {
    multiplier = std::uint64_t{1} << 30;
  } else {
    return std::nullopt;
  }
  std::uint64_t bytes = 0;
  if (__builtin_mul_overflow(value, multiplier, &bytes)) {
    return std::nullopt;
  }
  return bytes;
}

}  // namespace memcarlo::synth
