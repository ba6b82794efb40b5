// The loads table: one entry per static access the instrumenter probed (or merged as redundant),
// written as JSON for the trace reader (docs/loads-table.md documents every field).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace memcarlo::instrumenter {

struct LoadEntry {
  std::uint32_t id = 0;
  std::string function;
  std::vector<std::string> kernels;
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string expression;
  std::string kind;  // read | write | rmw | atomic
  std::string element_type;
  std::uint32_t element_size = 0;  // 0 when it differs between template instantiations
  std::string base;
  std::string address_space;  // global | unknown
  std::uint32_t loop_depth = 0;
  std::int64_t sequence = 0;
  std::vector<std::uint32_t> depends_on;
  /// Writes and rmws of assignments: the loads whose values feed the value stored.
  std::optional<std::vector<std::uint32_t>> value_depends_on;
  std::optional<std::uint32_t> redundant_of;
  std::string index_json = "{}";  // the affine / data-dependent / non-affine index form
};

/// The table as a JSON array, one entry per line when `one_per_line` (the embedded form), else
/// pretty-printed with two-space indentation.
std::string loads_table_to_json(const std::vector<LoadEntry>& entries, bool one_per_line);

}  // namespace memcarlo::instrumenter
