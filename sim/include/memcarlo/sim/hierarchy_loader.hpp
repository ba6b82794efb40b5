// Builds a HierarchyConfig from a named preset or a JSON hierarchy file plus `key=value`
// overrides, validating every key against the parameter schema.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "memcarlo/sim/config.hpp"

namespace memcarlo::sim {

/// A hierarchy that cannot be built; what() names the file (or preset / --set), the key, and the
/// allowed values, e.g. "h.json: l1.replacement: expected one of lru, fifo, random; got \"mru\"".
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ParameterInfo {
  std::string key;          // dotted path, e.g. "l1.size"
  std::string type;         // "integer", "size", "number", "boolean", "string", "choice"
  std::string description;
  std::vector<std::string> choices;  // for "choice"
  // A key a hierarchy file may leave out (policies and the keys they own): it then takes
  // `fallback`, JSON text. Keys that describe the machine itself are required.
  bool optional = false;
  std::string fallback;
  // A machine key added after the first release: optional too, so that a full file written
  // before it existed still loads; the loader lists the ones a file left out.
  bool added_later = false;
};

/// Every parameter a hierarchy file may set, in documentation order.
const std::vector<ParameterInfo>& hierarchy_parameters();

/// Names of the built-in presets.
std::vector<std::string> preset_names();

/// `name_or_file` is a preset name or a path to a JSON file. A file is either a full description
/// or `{"base": "<preset>", ...}` overriding some keys of a preset. `overrides` are "key=value".
/// A full file may leave out the keys added since the first release; each then takes its default,
/// and `defaulted` (when given) receives "key=value" for each, so that the caller can say so.
HierarchyConfig load_hierarchy(const std::string& name_or_file,
                               const std::vector<std::string>& overrides = {},
                               std::vector<std::string>* defaulted = nullptr);

/// The configuration as a flat JSON object text {"l1.size": 16384, ...}, for reports.
std::string hierarchy_to_json(const HierarchyConfig& config);

}  // namespace memcarlo::sim
