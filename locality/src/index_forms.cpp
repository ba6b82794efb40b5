// Index forms of the loads table folded into linear forms for one launch (index_forms.hpp).
#include "memcarlo/locality/index_forms.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

namespace memcarlo::locality {
namespace {

using nlohmann::json;

/// A load that cannot be evaluated: carries the reason up to compile_load.
struct NotCovered {
  std::string reason;
};

/// The index does not have the documented shape: a malformed table, not an uncovered load.
[[noreturn]] void malformed(const tracebuf::LoadInfo& info, const std::string& where,
                            const std::string& expected) {
  throw std::runtime_error("loads table entry " + std::to_string(info.id) + " (" +
                           location_of(info) + "): index" + where + ": expected " + expected);
}

struct FormContext {
  const tracebuf::LoadInfo& info;
  const LaunchValues& launch;
  std::map<std::string, std::string> kinds;            // symbol -> kind
  std::map<std::string, std::size_t> induction_slots;  // variable -> slot
};

std::optional<std::size_t> builtin_slot(const std::string& symbol) {
  static const std::map<std::string, std::size_t> slots = {{"threadIdx.x", 0}, {"threadIdx.y", 1},
                                                           {"threadIdx.z", 2}, {"blockIdx.x", 3},
                                                           {"blockIdx.y", 4},  {"blockIdx.z", 5}};
  const auto it = slots.find(symbol);
  if (it == slots.end())
    return std::nullopt;
  return it->second;
}

std::optional<std::int64_t> launch_constant(const std::string& symbol, const LaunchValues& launch) {
  const auto component = [&](const tracebuf::Dim3& dim) -> std::optional<std::int64_t> {
    const char axis = symbol.back();
    if (axis == 'x')
      return dim.x;
    if (axis == 'y')
      return dim.y;
    if (axis == 'z')
      return dim.z;
    return std::nullopt;
  };
  if (symbol.rfind("blockDim.", 0) == 0 && symbol.size() == 10)
    return component(launch.block);
  if (symbol.rfind("gridDim.", 0) == 0 && symbol.size() == 9)
    return component(launch.grid);
  if (symbol == "warpSize")
    return 32;
  return std::nullopt;
}

/// The value of a symbol that is constant over the launch, or why there is none.
std::int64_t constant_value(const FormContext& context, const std::string& symbol) {
  if (const auto value = launch_constant(symbol, context.launch))
    return *value;
  const auto given = context.launch.values.find(symbol);
  const auto kind_it = context.kinds.find(symbol);
  const std::string kind = kind_it == context.kinds.end() ? "variable" : kind_it->second;
  if (kind == "load") {
    throw NotCovered{"not affine: the address depends on the loaded value " + symbol +
                     " (data_dependent): measured graph only"};
  }
  if (given != context.launch.values.end())
    return given->second;
  if (kind == "kernel_parameter" || kind == "size" || kind == "launch_parameter") {
    throw NotCovered{"`" + symbol + "` (" + kind + ") has no value: give --param " + symbol +
                     "=VALUE"};
  }
  throw NotCovered{"`" + symbol + "` is a per-thread value the loads table does not resolve (" +
                   kind + ")"};
}

LinearForm linear_form(const FormContext& context, const json& form, const std::string& where) {
  if (!form.is_object())
    malformed(context.info, where, "an object");
  if (form.contains("reason")) {
    throw NotCovered{"not affine: " + where.substr(where.empty() ? 0 : 1) +
                     " is not a polynomial (" + form["reason"].get<std::string>() + ")"};
  }
  if (!form.contains("constant") || !form["constant"].is_number_integer()) {
    malformed(context.info, where + ".constant", "an integer");
  }
  LinearForm result;
  result.constant = form["constant"].get<std::int64_t>();
  if (!form.contains("terms") || !form["terms"].is_array()) {
    malformed(context.info, where + ".terms", "an array");
  }
  std::size_t t = 0;
  for (const json& term : form["terms"]) {
    const std::string at = where + ".terms[" + std::to_string(t++) + "]";
    if (!term.is_object() || !term.contains("coefficient") ||
        !term["coefficient"].is_number_integer() || !term.contains("symbols") ||
        !term["symbols"].is_array()) {
      malformed(context.info, at, "{\"coefficient\": integer, \"symbols\": [strings]}");
    }
    std::int64_t coefficient = term["coefficient"].get<std::int64_t>();
    std::optional<std::size_t> varying;
    for (const json& symbol_json : term["symbols"]) {
      if (!symbol_json.is_string())
        malformed(context.info, at + ".symbols", "strings");
      const std::string symbol = symbol_json.get<std::string>();
      std::optional<std::size_t> slot = builtin_slot(symbol);
      if (!slot) {
        const auto induction = context.induction_slots.find(symbol);
        if (induction != context.induction_slots.end())
          slot = induction->second;
      }
      if (!slot) {
        const auto kind = context.kinds.find(symbol);
        if (kind != context.kinds.end() && kind->second == "induction") {
          throw NotCovered{"loop variable `" + symbol + "` has no entry in `inductions`"};
        }
        coefficient *= constant_value(context, symbol);
        continue;
      }
      if (varying) {
        throw NotCovered{"not affine: a product of two varying values in " +
                         where.substr(where.empty() ? 0 : 1)};
      }
      varying = slot;
    }
    if (coefficient == 0)
      continue;
    if (!varying) {
      result.constant += coefficient;
    } else {
      result.terms.emplace_back(*varying, coefficient);
    }
  }
  return result;
}

CompiledLoad compile(const tracebuf::LoadInfo& info, const LaunchValues& launch) {
  const json extra = json::parse(info.extra_json, nullptr, false);
  if (extra.is_discarded() || !extra.is_object() || !extra.contains("index")) {
    return {std::nullopt, "the loads table has no index form for this access"};
  }
  const json& index = extra["index"];
  if (!index.is_object() || !index.contains("kind") || !index["kind"].is_string()) {
    malformed(info, ".kind", "a string");
  }
  const std::string kind = index["kind"].get<std::string>();
  if (kind == "data_dependent") {
    return {std::nullopt,
            "not affine: data_dependent (the address depends on " +
                (index.contains("loads") ? index["loads"].dump() : std::string("a load")) +
                "): measured graph only"};
  }
  if (kind == "non_affine") {
    return {std::nullopt, "not affine: " + index.value("reason", std::string("non_affine")) +
                              ": measured graph only"};
  }
  if (kind != "affine")
    malformed(info, ".kind", "affine, data_dependent or non_affine");
  if (info.element_size == 0) {
    return {std::nullopt, "the element size depends on a template argument"};
  }
  FormContext context{info, launch, {}, {}};
  if (index.contains("symbols") && index["symbols"].is_object()) {
    for (const auto& [symbol, symbol_kind] : index["symbols"].items()) {
      if (symbol_kind.is_string())
        context.kinds[symbol] = symbol_kind.get<std::string>();
    }
  }
  try {
    EvaluableLoad load;
    load.id = info.id;
    load.root = index.value("root", info.base);
    load.element_size = info.element_size;
    std::vector<json> inductions;
    if (index.contains("inductions")) {
      if (!index["inductions"].is_array())
        malformed(info, ".inductions", "an array");
      inductions.assign(index["inductions"].begin(), index["inductions"].end());
    }
    std::stable_sort(inductions.begin(), inductions.end(), [](const json& a, const json& b) {
      return a.value("loop_depth", 0) < b.value("loop_depth", 0);
    });
    for (std::size_t i = 0; i < inductions.size(); ++i) {
      const json& entry = inductions[i];
      const std::string at = ".inductions[" + std::to_string(i) + "]";
      if (!entry.is_object() || !entry.contains("variable") || !entry["variable"].is_string() ||
          !entry.contains("init") || !entry.contains("step")) {
        malformed(info, at, "variable, init and step");
      }
      const std::string variable = entry["variable"].get<std::string>();
      context.induction_slots[variable] = kFirstInductionSlot + i;
      InductionLoop loop;
      loop.variable = variable;
      // A loop's forms may use the thread, the block and the loops around it, not itself or
      // the loops inside it.
      loop.init = linear_form(context, entry["init"], at + ".init");
      const LinearForm step = linear_form(context, entry["step"], at + ".step");
      if (!step.terms.empty()) {
        throw NotCovered{"loop `" + variable + "` has a step that varies"};
      }
      loop.step = step.constant;
      if (!entry.contains("bound") || !entry.contains("comparison")) {
        throw NotCovered{"loop `" + variable + "` has no bound the loads table knows"};
      }
      loop.bound = linear_form(context, entry["bound"], at + ".bound");
      loop.comparison = entry["comparison"].get<std::string>();
      if (loop.init.uses_slot_from(kFirstInductionSlot + i) ||
          loop.bound.uses_slot_from(kFirstInductionSlot + i)) {
        throw NotCovered{"loop `" + variable + "` has bounds that depend on itself or inner loops"};
      }
      const bool ascending = loop.comparison == "<" || loop.comparison == "<=";
      const bool descending = loop.comparison == ">" || loop.comparison == ">=";
      if (!(ascending || descending || loop.comparison == "!=")) {
        throw NotCovered{"loop `" + variable + "` compares with `" + loop.comparison + "`"};
      }
      if (loop.step == 0 || (ascending && loop.step < 0) || (descending && loop.step > 0)) {
        throw NotCovered{"loop `" + variable + "` would not end (step " +
                         std::to_string(loop.step) + " against `" + loop.comparison + "`)"};
      }
      load.loops.push_back(std::move(loop));
    }
    load.offset = linear_form(context, index, "");
    if (index.value("unit", std::string("elements")) == "bytes") {
      const std::int64_t size = info.element_size;
      bool divisible = load.offset.constant % size == 0;
      for (auto& [slot, coefficient] : load.offset.terms)
        divisible = divisible && coefficient % size == 0;
      if (!divisible) {
        return {std::nullopt, "the byte offset is not a whole number of " + std::to_string(size) +
                                  "-byte elements"};
      }
      load.offset.constant /= size;
      for (auto& [slot, coefficient] : load.offset.terms)
        coefficient /= size;
    }
    const auto note_blocks = [&](const LinearForm& form) {
      for (const auto& [slot, coefficient] : form.terms) {
        if (slot >= 3 && slot < 6)
          load.block_dimensions.insert(static_cast<char>('x' + (slot - 3)));
      }
    };
    note_blocks(load.offset);
    for (const InductionLoop& loop : load.loops) {
      // Block slots are 3..5: a loop whose range moves with the block.
      const auto block_term = [](const LinearForm& form) {
        for (const auto& [slot, coefficient] : form.terms) {
          if (slot >= 3 && slot < 6)
            return true;
        }
        return false;
      };
      if (block_term(loop.init) || block_term(loop.bound)) {
        load.loops_depend_on_block = true;
        note_blocks(loop.init);
        note_blocks(loop.bound);
      }
    }
    return {std::move(load), ""};
  } catch (const NotCovered& reason) {
    return {std::nullopt, reason.reason};
  }
}

}  // namespace

bool LinearForm::uses_slot_below(std::size_t end) const {
  for (const auto& [slot, coefficient] : terms) {
    if (slot < end)
      return true;
  }
  return false;
}

bool LinearForm::uses_slot_from(std::size_t first) const {
  for (const auto& [slot, coefficient] : terms) {
    if (slot >= first)
      return true;
  }
  return false;
}

std::string location_of(const tracebuf::LoadInfo& info) {
  return info.file + ":" + std::to_string(info.line) + ":" + std::to_string(info.column);
}

CompiledLoad compile_load(const tracebuf::LoadInfo& info, const LaunchValues& launch) {
  return compile(info, launch);
}

}  // namespace memcarlo::locality
