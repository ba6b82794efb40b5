// The parameter schema of hierarchy files: one entry per key with its type, description, allowed
// values and the field it sets. Internal to the loader.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "memcarlo/sim/config.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"

namespace memcarlo::sim::detail {

struct Parameter {
  ParameterInfo info;
  /// Parses `value` into the field; throws ConfigError with `where` + key on a bad value.
  std::function<void(HierarchyConfig&, const nlohmann::json& value, const std::string& where)> set;
  std::function<nlohmann::json(const HierarchyConfig&)> get;
};

const std::vector<Parameter>& parameters();
const Parameter* find_parameter(const std::string& key);

/// Parses "16KiB", "768 KiB", "2MiB", "48KB" (KB = KiB), or a plain integer, into bytes.
std::uint64_t parse_size(const nlohmann::json& value, const std::string& where);

}  // namespace memcarlo::sim::detail
