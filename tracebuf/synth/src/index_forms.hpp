// The loads table's `index` forms (docs/loads-table.md) of the synthetic listings, written as the
// instrumenter would write them for that source, so that TAFE footprints (memcarlo footprint, the
// tafe scheduler and placement) work on synthetic traces too.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace memcarlo::synth {

struct IndexTerm {
  std::int64_t coefficient = 1;
  std::vector<std::string> symbols;
};

/// The symbol kinds of the loads table for the names the listings use.
inline std::string symbol_kind(const std::string& name) {
  if (name.rfind("threadIdx.", 0) == 0)
    return "thread";
  if (name.rfind("blockIdx.", 0) == 0)
    return "block";
  if (name.rfind("blockDim.", 0) == 0 || name.rfind("gridDim.", 0) == 0)
    return "launch_parameter";
  if (name.rfind("load#", 0) == 0)
    return "load";
  if (name == "j" || name == "k")
    return "induction";
  return "kernel_parameter";
}

inline nlohmann::ordered_json form_json(const std::string& expression,
                                        const std::vector<IndexTerm>& terms,
                                        std::int64_t constant) {
  nlohmann::ordered_json form;
  form["expression"] = expression;
  form["terms"] = nlohmann::ordered_json::array();
  for (const IndexTerm& term : terms) {
    form["terms"].push_back({{"coefficient", term.coefficient}, {"symbols", term.symbols}});
  }
  form["constant"] = constant;
  return form;
}

struct IndexInduction {
  std::string variable;
  std::vector<IndexTerm> init{}, bound{};
  std::int64_t init_constant = 0, step = 1, bound_constant = 0;
  std::string init_text{}, bound_text{};
};

/// {"kind", "root", "unit": "elements", "expression", "terms", "constant", "symbols",
/// "inductions", "loads"} for an offset Σ terms + constant of `root`.
inline std::string index_form(const std::string& kind, const std::string& root,
                              const std::string& expression, const std::vector<IndexTerm>& terms,
                              std::int64_t constant,
                              const std::vector<IndexInduction>& inductions = {}) {
  nlohmann::ordered_json index = form_json(expression, terms, constant);
  index["kind"] = kind;
  index["root"] = root;
  index["unit"] = "elements";
  nlohmann::ordered_json symbols = nlohmann::ordered_json::object();
  std::vector<std::string> loads;
  const auto note = [&](const std::vector<IndexTerm>& ts) {
    for (const IndexTerm& t : ts) {
      for (const std::string& s : t.symbols) {
        symbols[s] = symbol_kind(s);
        if (symbol_kind(s) == "load")
          loads.push_back(s);
      }
    }
  };
  note(terms);
  index["inductions"] = nlohmann::ordered_json::array();
  for (const IndexInduction& in : inductions) {
    note(in.init);
    note(in.bound);
    symbols[in.variable] = "induction";
    index["inductions"].push_back({{"variable", in.variable},
                                   {"loop_depth", 1},
                                   {"init", form_json(in.init_text, in.init, in.init_constant)},
                                   {"step", form_json(std::to_string(in.step), {}, in.step)},
                                   {"bound", form_json(in.bound_text, in.bound, in.bound_constant)},
                                   {"comparison", "<"}});
  }
  index["symbols"] = symbols;
  index["loads"] = loads;
  return index.dump();
}

}  // namespace memcarlo::synth
