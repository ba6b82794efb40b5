// The page placement registry: each placement registers itself from its own file (the list of
// sim/src/placement the build generates, sim/CMakeLists.txt).
#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "interleaved.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"

namespace memcarlo::sim::placement {

PlacementRegistry& registry() {
  static PlacementRegistry placements("placement.policy", "interleaved", register_builtin);
  return placements;
}

std::unique_ptr<Placement> make(const HierarchyConfig& config) {
  return registry().find(config.placement.policy).make(config);
}

std::vector<std::unique_ptr<Placement>> make_per_allocation(
    const HierarchyConfig& config, const std::vector<std::string>& allocation_names) {
  const auto text =
      nlohmann::json::parse(config.params.text(kAllocationPlacements)).get<std::string>();
  std::vector<std::unique_ptr<Placement>> out;
  std::istringstream pairs(text);
  std::string pair;
  while (pairs >> pair) {
    const std::size_t colon = pair.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == pair.size()) {
      throw ConfigError("placement.allocations: expected \"name:policy\" pairs separated by "
                        "spaces; got \"" + pair + "\"");
    }
    const std::string name = pair.substr(0, colon);
    const auto found = std::find(allocation_names.begin(), allocation_names.end(), name);
    if (found == allocation_names.end()) {
      std::string known;
      for (const std::string& n : allocation_names) {
        known += (known.empty() ? "" : ", ") + n;
      }
      throw ConfigError("placement.allocations: the trace has no allocation named \"" + name +
                        "\"; it has " + (known.empty() ? std::string("none") : known));
    }
    HierarchyConfig own = config;
    own.placement.policy = pair.substr(colon + 1);
    out.resize(allocation_names.size());
    out[static_cast<std::size_t>(found - allocation_names.begin())] =
        registry().find(own.placement.policy).make(own);
  }
  return out;
}

}  // namespace memcarlo::sim::placement
