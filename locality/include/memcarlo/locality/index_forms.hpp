// The loads table's symbolic index forms (docs/loads-table.md) made evaluable for one launch:
// launch constants and the values given for kernel parameters and macros are folded in, and what
// is left is linear in the thread, block and loop-induction values. A load whose form cannot be
// made so is "not covered", with the reason.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::locality {

/// Values of the form's variables: threadIdx.{x,y,z}, blockIdx.{x,y,z}, then the inductions,
/// outermost loop first.
inline constexpr std::size_t kFirstInductionSlot = 6;

/// c0 + sum of coefficient x slot value.
struct LinearForm {
  std::int64_t constant = 0;
  std::vector<std::pair<std::size_t, std::int64_t>> terms;  // (slot, coefficient)

  [[nodiscard]] std::int64_t evaluate(const std::int64_t* slots) const {
    std::int64_t value = constant;
    for (const auto& [slot, coefficient] : terms)
      value += coefficient * slots[slot];
    return value;
  }
  [[nodiscard]] bool uses_slot_below(std::size_t end) const;
  [[nodiscard]] bool uses_slot_from(std::size_t first) const;
};

/// A loop over one induction variable: init, then while `variable comparison bound`, += step.
struct InductionLoop {
  std::string variable;
  LinearForm init;
  LinearForm bound;
  std::int64_t step = 1;
  std::string comparison;  // <, <=, >, >=, !=
};

/// One read the static graph can evaluate.
struct EvaluableLoad {
  std::uint32_t id = 0;
  std::string root;
  std::uint32_t element_size = 0;
  LinearForm offset;                 // in elements of the root
  std::vector<InductionLoop> loops;  // outermost first
  std::set<char> block_dimensions;   // 'x', 'y', 'z': the blockIdx components the reads depend on
  bool loops_depend_on_block = false;
};

/// Launch constants and the user's values (-D NAME=VALUE) for kernel parameters and macros.
struct LaunchValues {
  tracebuf::Dim3 grid;
  tracebuf::Dim3 block;
  std::map<std::string, std::int64_t> values;
};

/// Either an evaluable load or why the load is not covered.
struct CompiledLoad {
  std::optional<EvaluableLoad> load;
  std::string not_covered;  // empty when load is set
};

/// Compiles one loads-table entry. Throws std::runtime_error naming the entry when its `index`
/// does not have the documented shape.
CompiledLoad compile_load(const tracebuf::LoadInfo& info, const LaunchValues& launch);

/// "file:line:col" of a loads-table entry.
std::string location_of(const tracebuf::LoadInfo& info);

}  // namespace memcarlo::locality
