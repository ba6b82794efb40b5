// Rejoining launch chevrons split by white space (see split_chevrons.hpp).
#include "split_chevrons.hpp"

#include <cctype>
#include <optional>
#include <string_view>

namespace memcarlo::instrumenter {
namespace {

bool blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

/// Where the comment or literal starting at `at` ends (one past it), or nullopt when none starts
/// there. A `'` inside a number is a digit separator (1'000), not a character literal.
std::optional<std::size_t> skip_comment_or_literal(std::string_view text, std::size_t at) {
  const char c = text[at];
  if (c == '/' && at + 1 < text.size() && text[at + 1] == '/') {
    const std::size_t end = text.find('\n', at);
    return end == std::string_view::npos ? text.size() : end;
  }
  if (c == '/' && at + 1 < text.size() && text[at + 1] == '*') {
    const std::size_t end = text.find("*/", at + 2);
    return end == std::string_view::npos ? text.size() : end + 2;
  }
  if (c == '\'') {
    std::size_t start = at;
    while (start > 0 && identifier_char(text[start - 1]))
      --start;
    if (start < at && std::isdigit(static_cast<unsigned char>(text[start])) != 0) {
      return std::nullopt;  // digit separator
    }
  }
  if (c == '"' && at > 0 && text[at - 1] == 'R') {  // raw string R"delim( ... )delim"
    const std::size_t open = text.find('(', at);
    if (open == std::string_view::npos)
      return text.size();
    const std::string close = ")" + std::string(text.substr(at + 1, open - at - 1)) + "\"";
    const std::size_t end = text.find(close, open);
    return end == std::string_view::npos ? text.size() : end + close.size();
  }
  if (c == '"' || c == '\'') {
    std::size_t i = at + 1;
    while (i < text.size() && text[i] != c && text[i] != '\n') {
      i += text[i] == '\\' ? 2 : 1;
    }
    return i < text.size() ? i + 1 : text.size();
  }
  return std::nullopt;
}

/// If three `symbol` characters separated only by white space start at `at`: one past the third.
std::optional<std::size_t> chevrons_at(std::string_view text, std::size_t at, char symbol) {
  std::size_t i = at;
  for (int k = 0; k < 3; ++k) {
    if (k > 0) {
      while (i < text.size() && blank(text[i]))
        ++i;
    }
    if (i >= text.size() || text[i] != symbol)
      return std::nullopt;
    ++i;
  }
  return i;
}

/// Writes the three chevrons of [begin, end) together, followed by the white space among them.
void join(std::string& text, std::size_t begin, std::size_t end, char symbol) {
  std::string white;
  for (std::size_t i = begin; i < end; ++i) {
    if (text[i] != symbol)
      white.push_back(text[i]);
  }
  text.replace(begin, end - begin, std::string(3, symbol) + white);
}

/// Whether the identifier that ends just before `at` (white space skipped) is `operator`.
bool after_operator_keyword(std::string_view text, std::size_t at) {
  std::size_t end = at;
  while (end > 0 && blank(text[end - 1]))
    --end;
  std::size_t start = end;
  while (start > 0 && identifier_char(text[start - 1]))
    --start;
  return text.substr(start, end - start) == "operator";
}

/// The closing chevrons of a launch whose configuration starts at `from`: (begin, end) of the
/// three `>`, when they come at parenthesis depth 0 before any `;`, `{` or `}` and are followed
/// by `(`.
std::optional<std::pair<std::size_t, std::size_t>> closing_chevrons(std::string_view text,
                                                                    std::size_t from) {
  int depth = 0;
  for (std::size_t i = from; i < text.size();) {
    if (const auto skipped = skip_comment_or_literal(text, i)) {
      i = *skipped;
      continue;
    }
    const char c = text[i];
    if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      if (--depth < 0)
        return std::nullopt;
    } else if (c == ';' || c == '{' || c == '}') {
      return std::nullopt;
    } else if (c == '>' && depth == 0) {
      if (const auto end = chevrons_at(text, i, '>')) {
        std::size_t next = *end;
        while (next < text.size() && blank(text[next]))
          ++next;
        if (next < text.size() && text[next] == '(')
          return std::pair{i, *end};
      }
    }
    ++i;
  }
  return std::nullopt;
}

}  // namespace

unsigned rejoin_split_chevrons(std::string& text) {
  if (text.find("<<") == std::string::npos && text.find("< <") == std::string::npos)
    return 0;
  unsigned rewritten = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (const auto skipped = skip_comment_or_literal(text, i)) {
      i = *skipped;
      continue;
    }
    if (text[i] != '<') {
      ++i;
      continue;
    }
    const auto open_end = chevrons_at(text, i, '<');
    if (!open_end || after_operator_keyword(text, i)) {
      // `<<=` and the like, or a template argument list of operator<<.
      ++i;
      continue;
    }
    const auto close = closing_chevrons(text, *open_end);
    if (!close) {
      i = *open_end;
      continue;
    }
    const bool open_split = *open_end - i != 3;
    const bool close_split = close->second - close->first != 3;
    if (open_split || close_split) {
      if (open_split)
        join(text, i, *open_end, '<');
      if (close_split)
        join(text, close->first, close->second, '>');
      ++rewritten;
    }
    i = close->second;
  }
  return rewritten;
}

}  // namespace memcarlo::instrumenter
