// Small string helpers shared by the Nsight Compute comparison and validation sources (not
// installed).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace memcarlo::reports::ncu_text {

inline std::string quoted(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

/// `text` without leading and trailing blanks and tabs.
inline std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) {
    return {};
  }
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

/// A ratio as a percentage with two decimals: 0.1234 -> "12.34".
inline std::string percent(double ratio) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", ratio * 100);
  return buffer;
}

/// "1 launch", "2 launches", "3 trials".
inline std::string plural(std::uint64_t n, std::string_view word) {
  const char* suffix = n == 1 ? "" : word.ends_with("h") ? "es" : "s";
  return std::to_string(n) + " " + std::string(word) + suffix;
}

}  // namespace memcarlo::reports::ncu_text
