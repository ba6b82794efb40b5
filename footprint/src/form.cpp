// Index forms: JSON reading and compiled evaluation (form.hpp).
#include "form.hpp"

#include <algorithm>

#include "memcarlo/tracebuf/metadata.hpp"

namespace memcarlo::footprint {

std::vector<std::string> Form::symbols() const {
  std::vector<std::string> out;
  for (const Term& term : terms) {
    out.insert(out.end(), term.symbols.begin(), term.symbols.end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace detail {

std::optional<Form> form_from_json(const nlohmann::json& j, const std::string& path) {
  if (!j.is_object()) {
    throw tracebuf::MetadataError(path + ": expected an object {expression, terms, constant}");
  }
  if (!j.contains("terms") && !j.contains("constant")) {
    return std::nullopt;  // {"reason": ...}: not a polynomial
  }
  Form form;
  form.expression = j.value("expression", std::string());
  const nlohmann::json constant = j.value("constant", nlohmann::json(0));
  if (!constant.is_number_integer()) {
    throw tracebuf::MetadataError(path + ".constant: expected an integer");
  }
  form.constant = constant.get<std::int64_t>();
  const nlohmann::json terms = j.value("terms", nlohmann::json::array());
  if (!terms.is_array()) {
    throw tracebuf::MetadataError(path + ".terms: expected an array");
  }
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const std::string term_path = path + ".terms[" + std::to_string(t) + "]";
    const nlohmann::json& term = terms[t];
    if (!term.is_object() || !term.contains("coefficient") ||
        !term["coefficient"].is_number_integer() || !term.contains("symbols") ||
        !term["symbols"].is_array()) {
      throw tracebuf::MetadataError(term_path +
                                    ": expected {coefficient: integer, symbols: [strings]}");
    }
    Form::Term out{term["coefficient"].get<std::int64_t>(), {}};
    for (const nlohmann::json& symbol : term["symbols"]) {
      if (!symbol.is_string()) {
        throw tracebuf::MetadataError(term_path + ".symbols: expected strings");
      }
      out.symbols.push_back(symbol.get<std::string>());
    }
    form.terms.push_back(std::move(out));
  }
  return form;
}

std::uint32_t SymbolTable::slot(const std::string& name) {
  if (const auto found = find(name)) {
    return *found;
  }
  names_.push_back(name);
  return static_cast<std::uint32_t>(names_.size() - 1);
}

std::optional<std::uint32_t> SymbolTable::find(const std::string& name) const {
  const auto it = std::find(names_.begin(), names_.end(), name);
  if (it == names_.end()) {
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(it - names_.begin());
}

CompiledForm::CompiledForm(const Form& form, SymbolTable& table) : constant_(form.constant) {
  for (const Form::Term& term : form.terms) {
    const auto first = static_cast<std::uint32_t>(slots_.size());
    for (const std::string& symbol : term.symbols) {
      slots_.push_back(table.slot(symbol));
    }
    terms_.push_back({term.coefficient, first, static_cast<std::uint32_t>(term.symbols.size())});
  }
  all_slots_ = slots_;
  std::sort(all_slots_.begin(), all_slots_.end());
  all_slots_.erase(std::unique(all_slots_.begin(), all_slots_.end()), all_slots_.end());
}

std::int64_t CompiledForm::evaluate(const std::vector<std::int64_t>& values) const {
  std::int64_t sum = constant_;
  for (const Term& term : terms_) {
    std::int64_t product = term.coefficient;
    for (std::uint32_t i = term.first; i < term.first + term.count; ++i) {
      product *= values[slots_[i]];
    }
    sum += product;
  }
  return sum;
}

}  // namespace detail
}  // namespace memcarlo::footprint
