// Line-based Myers diff (O((N+M)·D)) and unified-diff hunks.
#include "unified_diff.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

namespace memcarlo::instrumenter {

namespace {
std::vector<std::string_view> split_lines(const std::string& text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      lines.emplace_back(text.data() + start, text.size() - start);
      break;
    }
    lines.emplace_back(text.data() + start, end - start + 1);
    start = end + 1;
  }
  return lines;
}

enum class Op { kKeep, kDelete, kInsert };

// Myers' greedy shortest edit script, recovered from the saved frontier of each step.
std::vector<Op> edit_script(const std::vector<std::string_view>& a,
                            const std::vector<std::string_view>& b) {
  const int n = static_cast<int>(a.size());
  const int m = static_cast<int>(b.size());
  const int max = n + m;
  std::vector<int> frontier(2 * static_cast<size_t>(max) + 2, 0);
  std::vector<std::vector<int>> history;
  auto at = [max](int k) { return static_cast<size_t>(k + max); };
  int found = -1;
  for (int d = 0; d <= max && found < 0; ++d) {
    history.push_back(frontier);
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && frontier[at(k - 1)] < frontier[at(k + 1)]))
                  ? frontier[at(k + 1)]
                  : frontier[at(k - 1)] + 1;
      int y = x - k;
      while (x < n && y < m && a[static_cast<size_t>(x)] == b[static_cast<size_t>(y)]) {
        ++x;
        ++y;
      }
      frontier[at(k)] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  std::vector<Op> ops;
  int x = n;
  int y = m;
  for (int d = found; d > 0; --d) {
    const std::vector<int>& previous = history[static_cast<size_t>(d)];
    const int k = x - y;
    const bool down = k == -d || (k != d && previous[at(k - 1)] < previous[at(k + 1)]);
    const int previous_k = down ? k + 1 : k - 1;
    const int previous_x = previous[at(previous_k)];
    const int previous_y = previous_x - previous_k;
    while (x > previous_x + (down ? 0 : 1) && y > previous_y + (down ? 1 : 0)) {
      ops.push_back(Op::kKeep);
      --x;
      --y;
    }
    ops.push_back(down ? Op::kInsert : Op::kDelete);
    x = previous_x;
    y = previous_y;
  }
  while (x > 0 && y > 0) {
    ops.push_back(Op::kKeep);
    --x;
    --y;
  }
  std::reverse(ops.begin(), ops.end());
  return ops;
}

std::string with_newline(std::string_view line) {
  std::string out(line);
  if (out.empty() || out.back() != '\n') out += "\n\\ No newline at end of file\n";
  return out;
}
}  // namespace

std::string unified_diff(const std::string& label, const std::string& original,
                         const std::string& rewritten) {
  if (original == rewritten) return "";
  const std::vector<std::string_view> a = split_lines(original);
  const std::vector<std::string_view> b = split_lines(rewritten);
  const std::vector<Op> ops = edit_script(a, b);
  constexpr size_t kContext = 3;
  std::string out = "--- " + label + "\n+++ " + label + "\n";
  size_t i = 0;
  size_t a_line = 0;
  size_t b_line = 0;
  while (i < ops.size()) {
    if (ops[i] == Op::kKeep) {
      ++i;
      ++a_line;
      ++b_line;
      continue;
    }
    // A hunk: back up for context, then extend while changes are within 2*context lines.
    const size_t back = std::min({kContext, a_line, b_line});
    size_t start = i - back;
    size_t end = i;
    size_t keep_run = 0;
    bool split = false;
    while (end < ops.size()) {
      keep_run = ops[end] == Op::kKeep ? keep_run + 1 : 0;
      if (keep_run > 2 * kContext) {
        split = true;  // the next change is far enough away for a hunk of its own
        break;
      }
      ++end;
    }
    const size_t trailing = split ? keep_run - 1 : keep_run;
    if (trailing > kContext) end -= trailing - kContext;
    size_t a_start = a_line - back;
    size_t b_start = b_line - back;
    size_t a_count = 0;
    size_t b_count = 0;
    std::string body;
    size_t x = a_start;
    size_t y = b_start;
    for (size_t j = start; j < end; ++j) {
      switch (ops[j]) {
        case Op::kKeep: body += " " + with_newline(a[x++]); ++a_count; ++b_count; ++y; break;
        case Op::kDelete: body += "-" + with_newline(a[x++]); ++a_count; break;
        case Op::kInsert: body += "+" + with_newline(b[y++]); ++b_count; break;
      }
    }
    out += "@@ -" + std::to_string(a_count == 0 ? a_start : a_start + 1) + "," +
           std::to_string(a_count) + " +" + std::to_string(b_count == 0 ? b_start : b_start + 1) +
           "," + std::to_string(b_count) + " @@\n" + body;
    a_line = x;
    b_line = y;
    i = end;
  }
  return out;
}

}  // namespace memcarlo::instrumenter
