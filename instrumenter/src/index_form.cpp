// Polynomial arithmetic for index forms, their classification and their JSON form.
#include "index_form.hpp"

#include <algorithm>
#include <set>

namespace memcarlo::instrumenter {

Polynomial Polynomial::constant(std::int64_t value) {
  Polynomial result;
  result.add_term({}, value);
  return result;
}

Polynomial Polynomial::symbol(const std::string& name) {
  Polynomial result;
  result.add_term({name}, 1);
  return result;
}

void Polynomial::add_term(const std::vector<std::string>& monomial, std::int64_t coefficient) {
  if (coefficient == 0) return;
  auto [it, inserted] = terms_.emplace(monomial, coefficient);
  if (!inserted) {
    it->second += coefficient;
    if (it->second == 0) terms_.erase(it);
  }
}

Polynomial Polynomial::operator+(const Polynomial& other) const {
  Polynomial result = *this;
  for (const auto& [monomial, coefficient] : other.terms_) result.add_term(monomial, coefficient);
  return result;
}

Polynomial Polynomial::operator-(const Polynomial& other) const {
  return *this + other.scaled(-1);
}

Polynomial Polynomial::operator*(const Polynomial& other) const {
  Polynomial result;
  for (const auto& [left, left_coefficient] : terms_) {
    for (const auto& [right, right_coefficient] : other.terms_) {
      std::vector<std::string> monomial = left;
      monomial.insert(monomial.end(), right.begin(), right.end());
      std::sort(monomial.begin(), monomial.end());
      result.add_term(monomial, left_coefficient * right_coefficient);
    }
  }
  return result;
}

Polynomial Polynomial::scaled(std::int64_t factor) const {
  Polynomial result;
  for (const auto& [monomial, coefficient] : terms_) result.add_term(monomial, coefficient * factor);
  return result;
}

bool Polynomial::is_constant() const {
  return terms_.empty() || (terms_.size() == 1 && terms_.begin()->first.empty());
}

std::int64_t Polynomial::constant_term() const {
  const auto it = terms_.find({});
  return it == terms_.end() ? 0 : it->second;
}

std::optional<Polynomial> Polynomial::divided_exactly(std::int64_t divisor) const {
  if (divisor == 0) return std::nullopt;
  Polynomial result;
  for (const auto& [monomial, coefficient] : terms_) {
    if (coefficient % divisor != 0) return std::nullopt;
    result.add_term(monomial, coefficient / divisor);
  }
  return result;
}

std::optional<Polynomial> Polynomial::divided_by_symbol(const std::string& symbol) const {
  Polynomial result;
  for (const auto& [monomial, coefficient] : terms_) {
    std::vector<std::string> reduced = monomial;
    const auto it = std::find(reduced.begin(), reduced.end(), symbol);
    if (it == reduced.end()) return std::nullopt;
    reduced.erase(it);
    result.add_term(reduced, coefficient);
  }
  return result;
}

std::string Polynomial::to_string() const {
  if (terms_.empty()) return "0";
  // Constant last, higher-degree monomials first, so that "blockIdx.x*blockDim.x + threadIdx.x"
  // reads as written in kernels.
  std::vector<std::pair<std::vector<std::string>, std::int64_t>> ordered(terms_.begin(),
                                                                         terms_.end());
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) {
    if (a.first.empty() != b.first.empty()) return b.first.empty();
    return a.first.size() > b.first.size();
  });
  std::string text;
  for (const auto& [monomial, coefficient] : ordered) {
    std::int64_t magnitude = coefficient;
    if (text.empty()) {
      if (coefficient < 0) text = "-";
    } else {
      text += coefficient < 0 ? " - " : " + ";
    }
    if (magnitude < 0) magnitude = -magnitude;
    std::string factors;
    for (const std::string& symbol : monomial) factors += (factors.empty() ? "" : "*") + symbol;
    if (factors.empty()) {
      text += std::to_string(magnitude);
    } else {
      text += magnitude == 1 ? factors : std::to_string(magnitude) + "*" + factors;
    }
  }
  return text;
}

Polynomial Polynomial::renamed(const std::map<std::string, std::string>& names) const {
  Polynomial result;
  for (const auto& [monomial, coefficient] : terms_) {
    std::vector<std::string> renamed_monomial;
    for (const std::string& symbol : monomial) {
      const auto it = names.find(symbol);
      renamed_monomial.push_back(it == names.end() ? symbol : it->second);
    }
    std::sort(renamed_monomial.begin(), renamed_monomial.end());
    result.add_term(renamed_monomial, coefficient);
  }
  return result;
}

namespace {
bool is_varying(SymbolKind kind) {
  return kind == SymbolKind::kThread || kind == SymbolKind::kBlock ||
         kind == SymbolKind::kInduction || kind == SymbolKind::kVariable ||
         kind == SymbolKind::kLoad;
}

SymbolKind kind_of(const IndexForm& form, const std::string& symbol) {
  const auto it = form.symbols.find(symbol);
  return it == form.symbols.end() ? SymbolKind::kVariable : it->second;
}

bool mentions_load(const IndexForm& form, const Polynomial& polynomial) {
  for (const auto& [monomial, coefficient] : polynomial.terms()) {
    for (const std::string& symbol : monomial) {
      if (kind_of(form, symbol) == SymbolKind::kLoad) return true;
    }
  }
  return false;
}

const char* kind_name(SymbolKind kind) {
  switch (kind) {
    case SymbolKind::kThread: return "thread";
    case SymbolKind::kBlock: return "block";
    case SymbolKind::kLaunchParameter: return "launch_parameter";
    case SymbolKind::kKernelParameter: return "kernel_parameter";
    case SymbolKind::kInduction: return "induction";
    case SymbolKind::kVariable: return "variable";
    case SymbolKind::kLoad: return "load";
    case SymbolKind::kSize: return "size";
  }
  return "variable";
}

nlohmann::json value_to_json(const SymbolicValue& value,
                             const std::map<std::string, std::string>& names) {
  nlohmann::json out = nlohmann::json::object();
  if (!value.polynomial) {
    out["reason"] = value.reason;
    return out;
  }
  const Polynomial polynomial = value.polynomial->renamed(names);
  out["expression"] = polynomial.to_string();
  nlohmann::json terms = nlohmann::json::array();
  for (const auto& [monomial, coefficient] : polynomial.terms()) {
    if (monomial.empty()) continue;
    terms.push_back({{"coefficient", coefficient}, {"symbols", monomial}});
  }
  out["terms"] = terms;
  out["constant"] = polynomial.constant_term();
  return out;
}
}  // namespace

std::string classify(const IndexForm& form) {
  if (kind_of(form, form.root) == SymbolKind::kLoad) return "data_dependent";
  if (!form.offset.polynomial) return "non_affine";
  if (mentions_load(form, *form.offset.polynomial)) return "data_dependent";
  for (const auto& [monomial, coefficient] : form.offset.polynomial->terms()) {
    int varying = 0;
    for (const std::string& symbol : monomial) varying += is_varying(kind_of(form, symbol)) ? 1 : 0;
    if (varying > 1) return "non_affine";
  }
  return "affine";
}

nlohmann::json index_to_json(const IndexForm& form,
                             const std::map<std::string, std::string>& load_names) {
  nlohmann::json out = nlohmann::json::object();
  const std::string kind = classify(form);
  out["kind"] = kind;
  const auto root_name = load_names.find(form.root);
  out["root"] = root_name == load_names.end() ? form.root : root_name->second;
  out["unit"] = form.in_elements ? "elements" : "bytes";
  nlohmann::json offset = value_to_json(form.offset, load_names);
  for (auto& [key, value] : offset.items()) out[key] = value;
  if (kind == "non_affine" && form.offset.polynomial) {
    out["reason"] = "a product of thread-, block- or iteration-dependent values";
  }
  std::set<std::string> loads;
  nlohmann::json symbols = nlohmann::json::object();
  for (const auto& [symbol, symbol_kind] : form.symbols) {
    const auto renamed = load_names.find(symbol);
    const std::string name = renamed == load_names.end() ? symbol : renamed->second;
    symbols[name] = kind_name(symbol_kind);
    if (symbol_kind == SymbolKind::kLoad) loads.insert(name);
  }
  out["symbols"] = symbols;
  nlohmann::json inductions = nlohmann::json::array();
  for (const Induction& induction : form.inductions) {
    nlohmann::json entry = {{"variable", induction.variable},
                            {"loop_depth", induction.loop_depth},
                            {"init", value_to_json(induction.init, load_names)},
                            {"step", value_to_json(induction.step, load_names)}};
    if (!induction.comparison.empty()) {
      entry["bound"] = value_to_json(induction.bound, load_names);
      entry["comparison"] = induction.comparison;
    }
    inductions.push_back(entry);
  }
  out["inductions"] = inductions;
  out["loads"] = nlohmann::json(std::vector<std::string>(loads.begin(), loads.end()));
  return out;
}

}  // namespace memcarlo::instrumenter
