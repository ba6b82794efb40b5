// Index forms read from the loads table's JSON, and compiled for fast evaluation per thread.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "memcarlo/footprint/relations.hpp"

namespace memcarlo::footprint::detail {

/// A form from its JSON object ({expression, terms, constant}); nullopt when the object holds a
/// `reason` instead (not a polynomial). MetadataError naming `path` for a malformed one.
std::optional<Form> form_from_json(const nlohmann::json& j, const std::string& path);

/// Symbol values by slot; a symbol table gives each name its slot.
class SymbolTable {
 public:
  std::uint32_t slot(const std::string& name);
  [[nodiscard]] std::optional<std::uint32_t> find(const std::string& name) const;
  [[nodiscard]] std::size_t size() const { return names_.size(); }
  [[nodiscard]] const std::string& name(std::uint32_t slot) const { return names_[slot]; }

 private:
  std::vector<std::string> names_;
};

/// A form whose symbols are slots: value = Σ coefficient · Π values[slot] + constant.
class CompiledForm {
 public:
  CompiledForm() = default;
  CompiledForm(const Form& form, SymbolTable& table);
  [[nodiscard]] std::int64_t evaluate(const std::vector<std::int64_t>& values) const;
  /// The slots it reads.
  [[nodiscard]] const std::vector<std::uint32_t>& slots() const { return all_slots_; }

 private:
  struct Term {
    std::int64_t coefficient;
    std::uint32_t first, count;  // into slots_
  };
  std::vector<Term> terms_;
  std::vector<std::uint32_t> slots_;
  std::vector<std::uint32_t> all_slots_;
  std::int64_t constant_ = 0;
};

}  // namespace memcarlo::footprint::detail
