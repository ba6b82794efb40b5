// PolicyParameters (config.hpp): the values of policy-owned keys, read with their defaults.
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "hierarchy_schema.hpp"
#include "memcarlo/sim/config.hpp"

namespace memcarlo::sim {

std::string PolicyParameters::text(const KeySpec& key) const {
  const auto found = values_.find(std::string(key.name));
  return found != values_.end() ? found->second : std::string(key.fallback);
}

double PolicyParameters::number(const KeySpec& key) const {
  const std::string value = text(key);
  try {
    const nlohmann::json parsed = nlohmann::json::parse(value);
    if (parsed.is_number()) {
      return parsed.get<double>();
    }
    return static_cast<double>(detail::parse_size(parsed, std::string(key.name)));
  } catch (const std::exception&) {
    throw std::invalid_argument(std::string(key.name) + ": expected a number; got " + value);
  }
}

std::uint64_t PolicyParameters::integer(const KeySpec& key) const {
  const double value = number(key);
  if (value < 0 || value != static_cast<double>(static_cast<std::uint64_t>(value))) {
    throw std::invalid_argument(std::string(key.name) + ": expected a non-negative integer; got " +
                                text(key));
  }
  return static_cast<std::uint64_t>(value);
}

}  // namespace memcarlo::sim
