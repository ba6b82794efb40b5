// The page placement registry: one line per placement.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "first_touch.hpp"
#include "interleaved.hpp"
#include "ldesc.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "tafe.hpp"
#include "xor_hashed.hpp"

namespace memcarlo::sim::placement {

PlacementRegistry& registry() {
  static PlacementRegistry placements(
      "placement.policy", "interleaved",
      {
          {"interleaved",
           "page p on module p mod M; in it, L2 slices by line number, DRAM channels and banks "
           "by address bits",
           {kPageBytes, kAllocationPlacements},
           make_interleaved},
          {"xor", "a page on the XOR of its page number's log2(M)-bit digits (M a power of two)",
           {},
           make_xor_hashed},
          {"first-touch",
           "a page on the module whose SM's request reaches the L2 first, decided per trial",
           {},
           make_first_touch},
          {"tafe",
           "TAFE: a page on the module whose blocks (tafe CTA order) are estimated to touch it, "
           "or the one nearest to all of them; other pages interleaved",
           {kTafeTid},
           make_tafe},
          {"ldesc",
           "Locality Descriptors: a described data structure interleaved over the modules by its "
           "own address bits (Algorithm 2, bits 7-16); other pages interleaved",
           {},
           make_ldesc},
      });
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
