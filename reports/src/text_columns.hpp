// Text laid out in terminal columns, for the tables of reports/: UTF-8 text where "±", "…" and
// "×" take one column each, cut and padded by columns rather than bytes.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>

namespace memcarlo::reports::text {

inline bool continuation_byte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

/// Columns `text` takes (its code points).
inline std::size_t columns(std::string_view text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return !continuation_byte(c); }));
}

/// Byte offset of the column-th character of `text` (its size when there are fewer).
inline std::size_t offset_of(std::string_view text, std::size_t column) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!continuation_byte(text[i])) {
      if (seen == column) {
        return i;
      }
      ++seen;
    }
  }
  return text.size();
}

inline constexpr std::string_view kEllipsis = "…";

/// `text` in at most `width` columns, cut at the end ("spmv_csr_sca…").
inline std::string cut_right(const std::string& text, std::size_t width) {
  if (columns(text) <= width) {
    return text;
  }
  if (width == 0) {
    return {};
  }
  return text.substr(0, offset_of(text, width - 1)) + std::string(kEllipsis);
}

/// `text` in at most `width` columns, cut at the start ("…/spmv/spmv_scalar.cu:34:22").
inline std::string cut_left(const std::string& text, std::size_t width) {
  const std::size_t total = columns(text);
  if (total <= width) {
    return text;
  }
  if (width == 0) {
    return {};
  }
  return std::string(kEllipsis) + text.substr(offset_of(text, total - (width - 1)));
}

inline std::string padded(const std::string& text, std::size_t width, bool right_aligned) {
  const std::size_t used = columns(text);
  const std::string fill(used < width ? width - used : 0, ' ');
  return right_aligned ? fill + text : text + fill;
}

}  // namespace memcarlo::reports::text
