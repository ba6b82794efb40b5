// The page placement registry: one line per placement.
#include "interleaved.hpp"

namespace memcarlo::sim::placement {

PlacementRegistry& registry() {
  static PlacementRegistry placements(
      "placement.policy", "interleaved",
      {
          {"interleaved",
           "one module; L2 slices by line number, DRAM channels and banks by address bits",
           {kPageBytes},
           make_interleaved},
      });
  return placements;
}

std::unique_ptr<Placement> make(const HierarchyConfig& config) {
  return registry().find(config.placement.policy).make(config);
}

}  // namespace memcarlo::sim::placement
