// Loads-table registration and the (tu, local id) -> trace-wide id mapping. A malformed table is
// reported with the unit's hash and the JSON path at fault; its probes are then not traced.
#include "loads_registry.hpp"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "diagnostics.hpp"
#include "memcarlo/tracebuf/metadata.hpp"

namespace memcarlo::host::detail {

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

}  // namespace memcarlo::host::detail
