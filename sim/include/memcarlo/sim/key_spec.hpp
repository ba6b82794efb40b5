// A hierarchy key that a policy owns, declared beside the policy (see policy_registry.hpp).
#pragma once

#include <string_view>

namespace memcarlo::sim {

/// `type` is one of the loader's types ("integer", "size", "number", "boolean", "string");
/// `fallback` is the default as JSON text ("4096", "\"4KiB\"", "true").
struct KeySpec {
  std::string_view name;  // dotted, under the family's prefix: "prefetch.degree"
  std::string_view type;
  std::string_view fallback;
  std::string_view description;
};

}  // namespace memcarlo::sim
