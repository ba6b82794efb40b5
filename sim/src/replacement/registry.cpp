// The replacement-policy registry: each policy registers itself from its own file (the list of
// sim/src/replacement the build generates, sim/CMakeLists.txt).
#include "memcarlo/sim/replacement/registry.hpp"

namespace memcarlo::sim::replacement {

ReplacementRegistry& registry() {
  // The key in messages is the level's (make() names it); this one is for listings.
  static ReplacementRegistry policies("replacement", "lru", register_builtin);
  return policies;
}

AnyPolicy make(const HierarchyConfig& config, std::string_view level) {
  const std::string& name = level_config(config, level).replacement;
  if (const ReplacementRegistry::Entry* entry = registry().find_or_null(name)) {
    return entry->make(config, level);
  }
  throw unknown_policy(std::string(level) + ".replacement", name, registry().names());
}

}  // namespace memcarlo::sim::replacement
