// The registry of replacement policies: the names accepted by l1.replacement / l2.replacement and
// the variant the engine dispatches on once per trial.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "memcarlo/sim/policy_registry.hpp"
#include "memcarlo/sim/replacement/fifo.hpp"
#include "memcarlo/sim/replacement/lru.hpp"
#include "memcarlo/sim/replacement/random.hpp"

namespace memcarlo::sim::replacement {

using AnyPolicy = std::variant<Lru, Fifo, Random>;

struct Entry {
  std::string_view name;
  std::string_view description;
  AnyPolicy (*make)();
};

// One line per policy.
inline constexpr Entry kRegistry[] = {
    {"lru", "least recently used", [] { return AnyPolicy{Lru{}}; }},
    {"fifo", "first in, first out (hits do not reorder)", [] { return AnyPolicy{Fifo{}}; }},
    {"random", "uniformly random victim", [] { return AnyPolicy{Random{}}; }},
};

inline std::vector<std::string> names() {
  std::vector<std::string> out;
  for (const Entry& entry : kRegistry) {
    out.emplace_back(entry.name);
  }
  return out;
}

/// The policy registered under `name`; an unknown name is an UnknownPolicy that names `key` and
/// lists the registered ones (never a silent fallback).
inline AnyPolicy make(std::string_view key, std::string_view name) {
  for (const Entry& entry : kRegistry) {
    if (entry.name == name) {
      return entry.make();
    }
  }
  throw unknown_policy(key, name, names());
}

}  // namespace memcarlo::sim::replacement
