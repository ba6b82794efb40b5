// The DRAM model registry: each model registers itself from its own file (the list of
// sim/src/dram the build generates, sim/CMakeLists.txt).
#include "memcarlo/sim/dram/model.hpp"

namespace memcarlo::sim::dram {

DramRegistry& registry() {
  static DramRegistry models("dram.model", "banked", register_builtin);
  return models;
}

std::unique_ptr<Model> make(const HierarchyConfig& config) {
  if (const DramRegistry::Entry* entry = registry().find_or_null(config.dram.model)) {
    return entry->make(config);
  }
  throw unknown_policy("dram.model", config.dram.model, registry().names(), "model");
}

}  // namespace memcarlo::sim::dram
