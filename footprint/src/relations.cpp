// TAF relations from the loads table (relations.hpp). The mapping is written out, form by form,
// in docs/footprints.md.
#include "memcarlo/footprint/relations.hpp"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

#include "form.hpp"
#include "memcarlo/tracebuf/metadata.hpp"

namespace memcarlo::footprint {
namespace {

using nlohmann::json;

bool is_load_symbol(std::string_view symbol) {
  return symbol.rfind("load#", 0) == 0;
}

/// k of "load#k"; nullopt for anything else.
std::optional<std::uint32_t> load_of(std::string_view symbol) {
  if (!is_load_symbol(symbol) || symbol.size() == 5) {
    return std::nullopt;
  }
  std::uint32_t id = 0;
  for (const char c : symbol.substr(5)) {
    if (c < '0' || c > '9') {
      return std::nullopt;
    }
    id = id * 10 + static_cast<std::uint32_t>(c - '0');
  }
  return id;
}

bool mentions_load(const Form& form) {
  for (const Form::Term& term : form.terms) {
    if (std::any_of(term.symbols.begin(), term.symbols.end(), is_load_symbol)) {
      return true;
    }
  }
  return false;
}

/// `load#k + c` (coefficient 1): k and c.
std::optional<std::pair<std::uint32_t, std::int64_t>> single_load_plus_constant(
    const std::optional<Form>& form) {
  if (!form || form->terms.size() != 1 || form->terms[0].coefficient != 1 ||
      form->terms[0].symbols.size() != 1) {
    return std::nullopt;
  }
  const auto load = load_of(form->terms[0].symbols[0]);
  if (!load) {
    return std::nullopt;
  }
  return std::pair{*load, form->constant};
}

/// The index form of `load` (its loads-table entry's "index"), null when it has none.
json index_of(const tracebuf::LoadInfo& load) {
  const json extra = json::parse(load.extra_json.empty() ? "{}" : load.extra_json, nullptr, false);
  return extra.is_object() && extra.contains("index") ? extra["index"] : json();
}

/// Whether loads `a` and `b` read the same element in every thread: the same load, or two loads
/// of the same array with the same affine index form (a bound that rereads the loop's start,
/// `for (i = s[t]; i < n[t] + s[t]; ++i)`, gets its own load id).
bool same_element(std::span<const tracebuf::LoadInfo> loads, std::uint32_t a, std::uint32_t b) {
  if (a == b) {
    return true;
  }
  const auto find = [&](std::uint32_t id) -> const tracebuf::LoadInfo* {
    const auto it = std::find_if(loads.begin(), loads.end(),
                                 [id](const tracebuf::LoadInfo& load) { return load.id == id; });
    return it == loads.end() ? nullptr : &*it;
  };
  const tracebuf::LoadInfo* first = find(a);
  const tracebuf::LoadInfo* second = find(b);
  if (first == nullptr || second == nullptr || first->base != second->base) {
    return false;
  }
  const json index = index_of(*first);
  return index.is_object() && index.value("kind", std::string()) == "affine" &&
         index == index_of(*second);
}

/// `load#n + load#s + c` (coefficients 1) where load#s reads what `start` reads: n and c.
std::optional<std::pair<std::uint32_t, std::int64_t>> count_plus_start(
    const std::optional<Form>& form, std::uint32_t start,
    std::span<const tracebuf::LoadInfo> loads) {
  if (!form || form->terms.size() != 2) {
    return std::nullopt;
  }
  std::array<std::uint32_t, 2> ids{};
  for (std::size_t i = 0; i < 2; ++i) {
    const Form::Term& term = form->terms[i];
    const auto load =
        term.coefficient == 1 && term.symbols.size() == 1 ? load_of(term.symbols[0]) : std::nullopt;
    if (!load) {
      return std::nullopt;
    }
    ids[i] = *load;
  }
  for (std::size_t i = 0; i < 2; ++i) {
    if (same_element(loads, ids[i], start) && !same_element(loads, ids[1 - i], start)) {
      return std::pair{ids[1 - i], form->constant};
    }
  }
  return std::nullopt;
}

Relation unsupported(Relation relation, std::string reason) {
  relation.kind = RelationKind::kUnsupported;
  relation.reason = std::move(reason);
  return relation;
}

/// INDIR_RANGE: an affine offset a·k + R where k's loop runs from load#s + c_s while
/// k < load#e + c_e (or k < load#n + load#s + c_e: a count from the start) in steps of 1, and R
/// names no loop variable and no load.
Relation range_relation(Relation relation, const Induction& induction,
                        std::span<const tracebuf::LoadInfo> loads) {
  const auto start = single_load_plus_constant(induction.init);
  auto end = single_load_plus_constant(induction.bound);
  bool end_adds_start = false;
  if (start && !end) {
    end = count_plus_start(induction.bound, start->first, loads);
    end_adds_start = end.has_value();
  }
  const bool unit_step =
      induction.step && induction.step->terms.empty() && induction.step->constant == 1;
  if (!start || !end || !unit_step || induction.comparison != "<") {
    return unsupported(std::move(relation),
                       "loop over `" + induction.variable +
                           "` bounded by loaded values is not `for (k = load + c; k < load + c; "
                           "++k)` nor `for (k = load + c; k < load + load + c; ++k)` with the "
                           "start's load in the bound");
  }
  Form rest;
  rest.constant = relation.offset.constant;
  std::int64_t coefficient = 0;
  for (const Form::Term& term : relation.offset.terms) {
    if (term.symbols == std::vector<std::string>{induction.variable}) {
      coefficient += term.coefficient;
      continue;
    }
    for (const std::string& symbol : term.symbols) {
      if (is_load_symbol(symbol) || relation.symbol_kind(symbol) == "induction") {
        return unsupported(std::move(relation),
                           "the offset mixes the range variable with `" + symbol + "`");
      }
    }
    rest.terms.push_back(term);
  }
  if (coefficient == 0) {
    return unsupported(std::move(relation), "the offset does not use the range variable `" +
                                                induction.variable + "` linearly");
  }
  relation.kind = RelationKind::kIndirectRange;
  relation.primary = start->first;
  relation.primary_constant = start->second;
  relation.primary_end = end->first;
  relation.end_constant = end->second;
  relation.end_adds_start = end_adds_start;
  relation.range_variable = induction.variable;
  relation.range_coefficient = coefficient;
  relation.offset = std::move(rest);
  relation.inductions.clear();
  return relation;
}

Relation relation_of(const tracebuf::LoadInfo& load, std::span<const tracebuf::LoadInfo> loads) {
  Relation relation;
  relation.load = load.id;
  relation.expression = load.expression;
  relation.element_size = load.element_size;
  const std::string path = "loads[" + std::to_string(load.id) + "].index";
  const json extra = json::parse(load.extra_json.empty() ? "{}" : load.extra_json, nullptr, false);
  if (extra.is_discarded() || !extra.is_object() || !extra.contains("index")) {
    return unsupported(std::move(relation), "no index form in the loads table");
  }
  const json& index = extra["index"];
  if (!index.is_object()) {
    throw tracebuf::MetadataError(path + ": expected an object");
  }
  const std::string kind = index.value("kind", std::string());
  relation.root = index.value("root", load.base);
  relation.offset_in_bytes = index.value("unit", std::string("elements")) == "bytes";
  if (index.contains("symbols") && index["symbols"].is_object()) {
    for (const auto& [name, value] : index["symbols"].items()) {
      relation.symbol_kinds.emplace_back(name, value.is_string() ? value.get<std::string>() : "");
    }
    std::sort(relation.symbol_kinds.begin(), relation.symbol_kinds.end());
  }
  if (kind == "non_affine") {
    return unsupported(
        std::move(relation),
        "non-affine index: " + index.value("reason", std::string("no reason given")));
  }
  if (kind != "affine" && kind != "data_dependent") {
    throw tracebuf::MetadataError(path + ".kind: expected affine, data_dependent or non_affine");
  }
  const auto offset = detail::form_from_json(index, path);
  if (!offset) {
    return unsupported(std::move(relation), "the offset is not a polynomial");
  }
  relation.offset = *offset;
  if (index.contains("inductions")) {
    const json& inductions = index["inductions"];
    if (!inductions.is_array()) {
      throw tracebuf::MetadataError(path + ".inductions: expected an array");
    }
    for (std::size_t i = 0; i < inductions.size(); ++i) {
      const std::string ipath = path + ".inductions[" + std::to_string(i) + "]";
      const json& in = inductions[i];
      if (!in.is_object() || !in.contains("variable") || !in["variable"].is_string()) {
        throw tracebuf::MetadataError(ipath + ": expected an object with a `variable`");
      }
      Induction induction;
      induction.variable = in["variable"].get<std::string>();
      induction.loop_depth = in.value("loop_depth", 0u);
      induction.comparison = in.value("comparison", std::string());
      if (in.contains("init"))
        induction.init = detail::form_from_json(in["init"], ipath + ".init");
      if (in.contains("step"))
        induction.step = detail::form_from_json(in["step"], ipath + ".step");
      if (in.contains("bound")) {
        induction.bound = detail::form_from_json(in["bound"], ipath + ".bound");
      }
      relation.inductions.push_back(std::move(induction));
    }
    std::stable_sort(
        relation.inductions.begin(), relation.inductions.end(),
        [](const Induction& a, const Induction& b) { return a.loop_depth < b.loop_depth; });
  }
  if (is_load_symbol(relation.root)) {
    return unsupported(std::move(relation),
                       "the array is reached through a loaded pointer (" + relation.root + ")");
  }
  if (kind == "data_dependent") {
    // INDIR: R(r) = {m·P[r] + c}; the offset must be exactly that.
    if (relation.offset.terms.size() == 1 && relation.offset.terms[0].symbols.size() == 1 &&
        relation.inductions.empty()) {
      if (const auto primary = load_of(relation.offset.terms[0].symbols[0])) {
        relation.kind = RelationKind::kIndirect;
        relation.primary = *primary;
        relation.primary_coefficient = relation.offset.terms[0].coefficient;
        relation.primary_constant = relation.offset.constant;
        return relation;
      }
    }
    return unsupported(std::move(relation), "data-dependent offset `" + relation.offset.expression +
                                                "` is not m·load + c (TAFE's INDIR)");
  }
  // Affine: a loop bounded by loaded values is INDIR_RANGE; a load elsewhere is unsupported.
  for (const Induction& induction : relation.inductions) {
    const bool loaded = (induction.init && mentions_load(*induction.init)) ||
                        (induction.bound && mentions_load(*induction.bound));
    if (loaded) {
      if (relation.inductions.size() != 1) {
        return unsupported(std::move(relation),
                           "a loop bounded by loaded values inside other loops");
      }
      return range_relation(std::move(relation), induction, loads);
    }
  }
  if (mentions_load(relation.offset)) {
    return unsupported(std::move(relation), "a loaded value in an affine offset");
  }
  for (const Induction& induction : relation.inductions) {
    if (!induction.init || !induction.step || !induction.bound || induction.comparison.empty()) {
      return unsupported(std::move(relation), "loop over `" + induction.variable +
                                                  "` without a polynomial init, step and bound");
    }
    if (mentions_load(*induction.step)) {
      return unsupported(std::move(relation),
                         "loop over `" + induction.variable + "` steps by a loaded value");
    }
  }
  relation.kind = RelationKind::kTidDep;
  return relation;
}

}  // namespace

std::string_view to_string(RelationKind kind) {
  switch (kind) {
    case RelationKind::kTidDep:
      return "TID_DEP";
    case RelationKind::kIndirect:
      return "INDIR";
    case RelationKind::kIndirectRange:
      return "INDIR_RANGE";
    case RelationKind::kUnsupported:
      break;
  }
  return "unsupported";
}

std::string_view Relation::symbol_kind(std::string_view symbol) const {
  const auto it = std::lower_bound(symbol_kinds.begin(), symbol_kinds.end(), symbol,
                                   [](const std::pair<std::string, std::string>& entry,
                                      std::string_view s) { return entry.first < s; });
  if (it == symbol_kinds.end() || it->first != symbol) {
    return {};
  }
  return it->second;
}

std::vector<Relation> derive_relations(std::span<const tracebuf::LoadInfo> loads) {
  std::vector<Relation> out;
  for (const tracebuf::LoadInfo& load : loads) {
    if (load.redundant_of) {
      continue;
    }
    out.push_back(relation_of(load, loads));
  }
  return out;
}

bool has_index_forms(std::span<const tracebuf::LoadInfo> loads) {
  return std::any_of(loads.begin(), loads.end(), [](const tracebuf::LoadInfo& load) {
    const json extra =
        json::parse(load.extra_json.empty() ? "{}" : load.extra_json, nullptr, false);
    return !extra.is_discarded() && extra.is_object() && extra.contains("index");
  });
}

}  // namespace memcarlo::footprint
