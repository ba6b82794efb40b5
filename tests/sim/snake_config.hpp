// The hierarchy the Snake tests run on: fermi-c2050 with one SM and Snake on, plus SETTINGS.
#pragma once

#include <string>
#include <vector>

#include "memcarlo/sim/hierarchy_loader.hpp"

namespace memcarlo::sim::testing {

inline HierarchyConfig one_sm(std::vector<std::string> settings = {}) {
  settings.push_back("sm.count=1");
  settings.push_back("prefetch.policy=snake");
  return load_hierarchy("fermi-c2050", settings);
}

}  // namespace memcarlo::sim::testing
