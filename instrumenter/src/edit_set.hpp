// Text edits collected from both parses and applied at the end, all or nothing: overlapping or
// crossing edits are reported as conflicts (with both origins), never silently dropped.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace memcarlo::instrumenter {

struct Edit {
  enum class Role {
    kReplace,  // replace [offset, offset + length) by text
    kOpen,     // insert text before a wrapped range [range_begin, range_end)
    kClose,    // insert text after a wrapped range
  };
  std::string file;
  unsigned offset = 0;
  unsigned length = 0;
  std::string text;
  Role role = Role::kReplace;
  unsigned range_begin = 0;
  unsigned range_end = 0;
  std::string origin;  // "probe 3 (a[i]) at k.cu:4:7", for conflict messages
  bool operator==(const Edit& other) const {
    return file == other.file && offset == other.offset && length == other.length &&
           text == other.text && role == other.role && range_begin == other.range_begin &&
           range_end == other.range_end;
  }
};

class EditSet {
 public:
  /// Adds `text` around [begin, end) of `file` (nested wraps are ordered by their ranges).
  void wrap(const std::string& file, unsigned begin, unsigned end, std::string open,
            std::string close, const std::string& origin);
  /// Replaces [offset, offset + length); the replacement keeps the replaced text's line breaks.
  void replace(const std::string& file, unsigned offset, unsigned length, std::string text,
               const std::string& origin);
  void add(Edit edit);

  /// Files that have at least one edit.
  [[nodiscard]] std::vector<std::string> files() const;
  /// Applies every edit to `originals` (path -> text). On any conflict fills `errors`, leaves
  /// `rewritten` untouched and returns false.
  bool apply(const std::map<std::string, std::string>& originals,
             std::map<std::string, std::string>& rewritten, std::vector<std::string>& errors) const;

 private:
  std::vector<Edit> edits_;
};

}  // namespace memcarlo::instrumenter
