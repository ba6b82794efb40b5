// Conflict detection and ordered application of text edits.
#include "edit_set.hpp"

#include <algorithm>
#include <set>

namespace memcarlo::instrumenter {

void EditSet::wrap(const std::string& file, unsigned begin, unsigned end, std::string open,
                   std::string close, const std::string& origin) {
  add({file, begin, 0, std::move(open), Edit::Role::kOpen, begin, end, origin});
  add({file, end, 0, std::move(close), Edit::Role::kClose, begin, end, origin});
}

void EditSet::replace(const std::string& file, unsigned offset, unsigned length, std::string text,
                      const std::string& origin) {
  add({file, offset, length, std::move(text), Edit::Role::kReplace, offset, offset + length,
       origin});
}

void EditSet::add(Edit edit) {
  if (std::find(edits_.begin(), edits_.end(), edit) != edits_.end()) return;  // same edit twice
  edits_.push_back(std::move(edit));
}

std::vector<std::string> EditSet::files() const {
  std::set<std::string> files;
  for (const Edit& edit : edits_) files.insert(edit.file);
  return {files.begin(), files.end()};
}

namespace {
std::string conflict(const Edit& a, const Edit& b, const std::string& what) {
  return a.file + ": error: conflicting edits: " + a.origin + " and " + b.origin + " " + what +
         "; nothing was written";
}

// Position of an edit in the output order at one offset: closing texts of ranges ending here
// (innermost first), then replacements, then opening texts of ranges starting here (outermost
// first).
bool before(const Edit& a, const Edit& b) {
  if (a.offset != b.offset) return a.offset < b.offset;
  auto rank = [](const Edit& e) {
    return e.role == Edit::Role::kClose ? 0 : e.role == Edit::Role::kReplace ? 1 : 2;
  };
  if (rank(a) != rank(b)) return rank(a) < rank(b);
  if (a.role == Edit::Role::kClose) return a.range_begin > b.range_begin;
  if (a.role == Edit::Role::kOpen) return a.range_end > b.range_end;
  return false;
}

void check_file(const std::vector<const Edit*>& edits, std::vector<std::string>& errors) {
  for (size_t i = 0; i < edits.size(); ++i) {
    const Edit& a = *edits[i];
    for (size_t j = i + 1; j < edits.size(); ++j) {
      const Edit& b = *edits[j];
      const bool a_replace = a.role == Edit::Role::kReplace;
      const bool b_replace = b.role == Edit::Role::kReplace;
      if (a_replace && b_replace) {
        if (a.offset < b.offset + b.length && b.offset < a.offset + a.length) {
          errors.push_back(conflict(a, b, "replace overlapping text"));
        } else if (a.offset == b.offset && a.length == 0 && b.length == 0) {
          errors.push_back(conflict(a, b, "insert different text at the same place"));
        }
        continue;
      }
      if (a_replace || b_replace) {
        const Edit& replacement = a_replace ? a : b;
        const Edit& wrap = a_replace ? b : a;
        if (wrap.role == Edit::Role::kClose) continue;  // the kOpen half is checked
        const unsigned r_begin = replacement.offset;
        const unsigned r_end = replacement.offset + replacement.length;
        // A wrapped range may contain the replacement or lie outside it, not overlap partly.
        const bool inside = wrap.range_begin >= r_end || wrap.range_end <= r_begin ||
                            (wrap.range_begin <= r_begin && wrap.range_end >= r_end);
        if (!inside) errors.push_back(conflict(a, b, "overlap"));
        continue;
      }
      if (a.role != Edit::Role::kOpen || b.role != Edit::Role::kOpen) continue;
      const bool crossing = (a.range_begin < b.range_begin && b.range_begin < a.range_end &&
                             a.range_end < b.range_end) ||
                            (b.range_begin < a.range_begin && a.range_begin < b.range_end &&
                             b.range_end < a.range_end);
      const bool same = a.range_begin == b.range_begin && a.range_end == b.range_end;
      if (crossing) errors.push_back(conflict(a, b, "wrap crossing ranges"));
      if (same) errors.push_back(conflict(a, b, "wrap the same text differently"));
    }
  }
}
}  // namespace

bool EditSet::apply(const std::map<std::string, std::string>& originals,
                    std::map<std::string, std::string>& rewritten,
                    std::vector<std::string>& errors) const {
  std::map<std::string, std::vector<const Edit*>> by_file;
  for (const Edit& edit : edits_) by_file[edit.file].push_back(&edit);
  const size_t errors_before = errors.size();
  std::map<std::string, std::string> result;
  for (auto& [file, edits] : by_file) {
    const auto original = originals.find(file);
    if (original == originals.end()) {
      errors.push_back(file + ": error: internal: no original text for edits");
      continue;
    }
    check_file(edits, errors);
    std::stable_sort(edits.begin(), edits.end(),
                     [](const Edit* a, const Edit* b) { return before(*a, *b); });
    const std::string& text = original->second;
    std::string out;
    out.reserve(text.size() + text.size() / 4);
    unsigned cursor = 0;
    for (const Edit* edit : edits) {
      if (edit->offset > text.size() || edit->offset + edit->length > text.size()) {
        errors.push_back(file + ": error: internal: edit outside the file (" + edit->origin +
                         ")");
        break;
      }
      if (edit->offset < cursor) continue;  // reported as a conflict above
      out.append(text, cursor, edit->offset - cursor);
      out += edit->text;
      if (edit->role == Edit::Role::kReplace) {
        // Keep the line count so that #line directives and diffs stay aligned.
        const auto newlines = std::count(text.begin() + edit->offset,
                                         text.begin() + edit->offset + edit->length, '\n');
        out.append(static_cast<size_t>(newlines), '\n');
      }
      cursor = edit->offset + edit->length;
    }
    out.append(text, std::min<size_t>(cursor, text.size()), std::string::npos);
    result[file] = std::move(out);
  }
  if (errors.size() != errors_before) return false;
  for (auto& [file, content] : result) rewritten[file] = std::move(content);
  return true;
}

}  // namespace memcarlo::instrumenter
