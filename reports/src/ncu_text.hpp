// Small string helpers shared by the Nsight Compute comparison sources (not installed).
#pragma once

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

}  // namespace memcarlo::reports::ncu_text
