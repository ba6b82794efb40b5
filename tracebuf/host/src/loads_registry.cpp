// Loads-table registration and the (tu, local id) -> trace-wide id mapping. A malformed table is
// reported with the unit's hash and the JSON path at fault; its probes are then not traced.
#include "loads_registry.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "diagnostics.hpp"
#include "memcarlo/tracebuf/metadata.hpp"

namespace memcarlo::host::detail {
namespace {

/// `value_depends_on` (kept in extra_json, see docs/accelsim.md) names loads by their ids in the
/// translation unit, like depends_on: renumbered the same way, unknown ones dropped.
template <class Remap>
void remap_value_dependences(tracebuf::LoadInfo& load, const Remap& remap) {
  if (load.extra_json.find("value_depends_on") == std::string::npos) {
    return;
  }
  auto extra = nlohmann::json::parse(load.extra_json, nullptr, false);
  if (!extra.is_object() || !extra.contains("value_depends_on") ||
      !extra["value_depends_on"].is_array()) {
    return;
  }
  nlohmann::json ids = nlohmann::json::array();
  for (const auto& id : extra["value_depends_on"]) {
    if (id.is_number_unsigned()) {
      const std::uint32_t global = remap(id.get<std::uint32_t>());
      if (global != kUnknownLoad) {
        ids.push_back(global);
      }
    }
  }
  extra["value_depends_on"] = std::move(ids);
  load.extra_json = extra.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

const LoadsIndex::Unit* LoadsIndex::unit(unsigned tu) const {
  const auto it = std::lower_bound(units_.begin(), units_.end(), tu,
                                   [](const Unit& u, unsigned key) { return u.tu < key; });
  return it != units_.end() && it->tu == tu ? &*it : nullptr;
}

void LoadsRegistry::add(unsigned tu, const char* json) {
  std::lock_guard lock(mutex_);
  pending_.emplace_back(tu, json != nullptr ? json : "[]");
}

void LoadsRegistry::parse_pending() {
  if (pending_.empty() && index_) {
    return;
  }
  auto index = index_ ? std::make_shared<LoadsIndex>(*index_) : std::make_shared<LoadsIndex>();
  index->generation_ = ++generation_;
  for (auto& [tu, json] : pending_) {
    char tu_text[16];
    std::snprintf(tu_text, sizeof tu_text, "0x%08x", tu);
    if (std::any_of(index->units_.begin(), index->units_.end(),
                    [tu = tu](const LoadsIndex::Unit& unit) { return unit.tu == tu; })) {
      warn(std::string("two translation units registered loads tables under the same id ") +
           tu_text + "; the second one's accesses are attributed to the first");
      continue;
    }
    std::vector<tracebuf::LoadInfo> loads;
    try {
      loads = tracebuf::loads_from_json(json);
    } catch (const tracebuf::MetadataError& e) {
      warn(std::string("the loads table of translation unit ") + tu_text +
           " is malformed and its accesses are not traced: " + e.what());
      continue;
    }
    const auto base = static_cast<std::uint32_t>(loads_.size());
    LoadsIndex::Unit unit;
    unit.tu = tu;
    std::unordered_map<std::uint32_t, std::uint32_t> local_to_global;
    for (std::uint32_t i = 0; i < loads.size(); ++i) {
      local_to_global[loads[i].id] = base + i;
      if (loads[i].id >= unit.global_ids.size()) {
        unit.global_ids.resize(loads[i].id + 1, kUnknownLoad);
      }
      unit.global_ids[loads[i].id] = base + i;
    }
    const auto remap = [&local_to_global](std::uint32_t local) {
      const auto it = local_to_global.find(local);
      return it != local_to_global.end() ? it->second : kUnknownLoad;
    };
    for (tracebuf::LoadInfo& load : loads) {
      load.id = remap(load.id);
      for (std::uint32_t& dependence : load.depends_on) {
        dependence = remap(dependence);
      }
      std::erase(load.depends_on, kUnknownLoad);
      remap_value_dependences(load, remap);
      if (load.redundant_of) {
        const std::uint32_t target = remap(*load.redundant_of);
        load.redundant_of = target != kUnknownLoad ? std::optional(target) : std::nullopt;
      }
      index->kinds_.push_back(load.kind);
      loads_.push_back(std::move(load));
    }
    const auto at =
        std::lower_bound(index->units_.begin(), index->units_.end(), tu,
                         [](const LoadsIndex::Unit& u, unsigned key) { return u.tu < key; });
    index->units_.insert(at, std::move(unit));
  }
  pending_.clear();
  index_ = std::move(index);
}

std::shared_ptr<const LoadsIndex> LoadsRegistry::index() {
  std::lock_guard lock(mutex_);
  parse_pending();
  return index_;
}

std::vector<tracebuf::LoadInfo> LoadsRegistry::table() {
  std::lock_guard lock(mutex_);
  parse_pending();
  return loads_;
}

LoadsRegistry& loads_registry() {
  static LoadsRegistry* registry = new LoadsRegistry();
  return *registry;
}

void KernelParameterRegistry::add(const char* json) {
  std::lock_guard lock(mutex_);
  pending_.emplace_back(json != nullptr ? json : "[]");
}

std::optional<std::vector<std::string>> KernelParameterRegistry::names(
    std::string_view launch_name) {
  std::lock_guard lock(mutex_);
  parse_pending();
  const auto it = by_kernel_.find(kernel_base_name(launch_name));
  return it == by_kernel_.end() ? std::nullopt : it->second;
}

std::vector<std::string> KernelParameterRegistry::kernels() {
  std::lock_guard lock(mutex_);
  parse_pending();
  std::vector<std::string> names;
  for (const auto& entry : by_kernel_) {
    names.push_back(entry.first);
  }
  return names;
}

void KernelParameterRegistry::parse_pending() {
  for (const std::string& text : pending_) {
    const nlohmann::json entries = nlohmann::json::parse(text, nullptr, false);
    if (!entries.is_array()) {
      warn("a translation unit registered kernel parameters that are not a JSON array; its "
           "launches' arguments are not recorded");
      continue;
    }
    for (const nlohmann::json& entry : entries) {
      if (!entry.is_object() || !entry.contains("kernel") || !entry["kernel"].is_string() ||
          !entry.contains("parameters") || !entry["parameters"].is_array()) {
        continue;
      }
      std::vector<std::string> parameters;
      for (const nlohmann::json& name : entry["parameters"]) {
        parameters.push_back(name.is_string() ? name.get<std::string>() : std::string());
      }
      const std::string kernel = kernel_base_name(entry["kernel"].get<std::string>());
      const auto [it, inserted] = by_kernel_.try_emplace(kernel, parameters);
      if (!inserted && it->second != parameters) {
        it->second.reset();  // two kernels of that name (overloads): ambiguous
      }
    }
  }
  pending_.clear();
}

std::vector<unsigned> LoadsRegistry::units() {
  std::lock_guard lock(mutex_);
  parse_pending();
  std::vector<unsigned> units;
  for (const LoadsIndex::Unit& unit : index_->units_) {
    units.push_back(unit.tu);
  }
  return units;
}

void LaunchNameRegistry::add(unsigned tu, const char* json) {
  std::lock_guard lock(mutex_);
  pending_.emplace_back(tu, json != nullptr ? json : "");
}

void LaunchNameRegistry::parse_pending() {
  for (const auto& [tu, text] : pending_) {
    const nlohmann::json entry = nlohmann::json::parse(text, nullptr, false);
    if (!entry.is_object() || !entry.contains("launches") || !entry["launches"].is_array() ||
        !entry.value("complete", false)) {
      complete_ = false;
      continue;
    }
    units_.insert(tu);
    for (const nlohmann::json& name : entry["launches"]) {
      if (!name.is_string()) {
        complete_ = false;
        continue;
      }
      names_.insert(name.get<std::string>());
    }
  }
  pending_.clear();
}

std::optional<std::set<std::string>> LaunchNameRegistry::all(LoadsRegistry& loads) {
  const std::vector<unsigned> units = loads.units();
  std::lock_guard lock(mutex_);
  parse_pending();
  const auto registered = [this](unsigned tu) { return units_.contains(tu); };
  if (!complete_ || units_.empty() || !std::all_of(units.begin(), units.end(), registered)) {
    return std::nullopt;
  }
  return names_;
}

LaunchNameRegistry& launch_names() {
  static LaunchNameRegistry* registry = new LaunchNameRegistry();
  return *registry;
}

KernelParameterRegistry& kernel_parameters() {
  static KernelParameterRegistry* registry = new KernelParameterRegistry();
  return *registry;
}

std::string kernel_base_name(std::string_view name) {
  name = name.substr(0, name.find('<'));
  while (!name.empty() && name.back() == ' ') {
    name.remove_suffix(1);
  }
  const std::size_t scope = name.rfind("::");
  if (scope != std::string_view::npos) {
    name.remove_prefix(scope + 2);
  }
  return std::string(name);
}

std::optional<std::string> kernel_arguments_record(std::uint32_t launch,
                                                   std::string_view kernel_name,
                                                   std::span<const long long> values,
                                                   std::span<const bool> recorded) {
  if (values.empty()) {
    return std::nullopt;
  }
  const std::optional<std::vector<std::string>> names = kernel_parameters().names(kernel_name);
  if (!names || names->size() != values.size()) {
    return std::nullopt;
  }
  nlohmann::json payload = nlohmann::json::object();
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (recorded[i] && !(*names)[i].empty()) {
      payload[(*names)[i]] = static_cast<std::int64_t>(values[i]);
    }
  }
  return nlohmann::json{{"kind", "kernel_arguments"}, {"launch", launch}, {"payload", payload}}
      .dump();
}

}  // namespace memcarlo::host::detail
