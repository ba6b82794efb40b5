// JSON form of the loads table (field names and types match tracebuf's LoadInfo reader).
#include "memcarlo/instrumenter/loads_table.hpp"

#include <nlohmann/json.hpp>

namespace memcarlo::instrumenter {

namespace {
nlohmann::ordered_json entry_to_json(const LoadEntry& entry) {
  nlohmann::ordered_json out;
  out["id"] = entry.id;
  out["function"] = entry.function;
  out["kernels"] = entry.kernels;
  out["file"] = entry.file;
  out["line"] = entry.line;
  out["column"] = entry.column;
  out["expression"] = entry.expression;
  out["kind"] = entry.kind;
  out["element_type"] = entry.element_type;
  out["element_size"] = entry.element_size;
  out["base"] = entry.base;
  out["address_space"] = entry.address_space;
  out["loop_depth"] = entry.loop_depth;
  out["sequence"] = entry.sequence;
  out["depends_on"] = entry.depends_on;
  if (entry.value_depends_on) out["value_depends_on"] = *entry.value_depends_on;
  if (entry.redundant_of) out["redundant_of"] = *entry.redundant_of;
  out["index"] = nlohmann::ordered_json::parse(entry.index_json);
  return out;
}
}  // namespace

std::string loads_table_to_json(const std::vector<LoadEntry>& entries, bool one_per_line) {
  if (!one_per_line) {
    nlohmann::ordered_json table = nlohmann::ordered_json::array();
    for (const LoadEntry& entry : entries) table.push_back(entry_to_json(entry));
    return table.dump(2) + "\n";
  }
  std::string out = "[\n";
  for (size_t i = 0; i < entries.size(); ++i) {
    out += entry_to_json(entries[i]).dump();
    out += i + 1 < entries.size() ? ",\n" : "\n";
  }
  return out + "]\n";
}

}  // namespace memcarlo::instrumenter
