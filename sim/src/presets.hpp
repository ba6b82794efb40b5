// Built-in hierarchy presets as declarative key/value tables (internal to the loader).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace memcarlo::sim::detail {

using PresetTable = std::vector<std::pair<std::string, nlohmann::json>>;

struct Preset {
  std::string name;
  PresetTable values;
};

const std::vector<Preset>& presets();

}  // namespace memcarlo::sim::detail
