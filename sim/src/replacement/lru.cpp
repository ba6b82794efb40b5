// lru (replacement/lru.hpp), inlined into the SM and L2 sides.
#include "memcarlo/sim/replacement/registry.hpp"

namespace memcarlo::sim::replacement {

void register_lru(ReplacementRegistry& registry) {
  registry.add({"lru", "least recently used", {}, [](const HierarchyConfig&, std::string_view) {
                  return AnyPolicy{Lru{}};
                }});
}

}  // namespace memcarlo::sim::replacement
