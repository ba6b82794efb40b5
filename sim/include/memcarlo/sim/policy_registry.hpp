// The registries of the engine's policies, one shape for every family (CTA schedulers, page
// placements, replacement policies, DRAM models; the GPU prefetchers are a type list with the
// same fields, prefetch/registry.hpp): one entry per implementation, with its name, what it does,
// the hierarchy keys it owns (type, default, meaning) and a factory that sees the whole
// configuration. A policy's keys are ordinary hierarchy keys (`memcarlo hierarchy keys` lists
// them, `--set` and sweeps vary them); a hierarchy file that does not set one gets its default.
//
// Adding a built-in policy: one file in its family's folder, sim/src/<family>/<stem>.cpp, that
// defines `void register_<stem>(<Family>Registry& registry)` calling registry.add({...}). The
// build finds the file (a glob) and generates the call (sim/CMakeLists.txt): no list to edit.
// Outside the engine (a test, a tool), one `registry().add(...)` in a static initializer.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "memcarlo/sim/key_spec.hpp"

namespace memcarlo::sim {

/// The policy named `name` is not registered; what() lists the names that are.
class UnknownPolicy : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// The error for `name`, which names no registered `what` of the family chosen by `key`: it lists
/// the `known` names ("l1.replacement: unknown policy \"mru\"; expected one of lru, fifo, random").
inline UnknownPolicy unknown_policy(std::string_view key, std::string_view name,
                                    const std::vector<std::string>& known,
                                    std::string_view what = "policy") {
  std::string list;
  for (const std::string& known_name : known) {
    list += (list.empty() ? "" : ", ") + known_name;
  }
  return UnknownPolicy(std::string(key) + ": unknown " + std::string(what) + " \"" +
                       std::string(name) + "\"; expected one of " + list);
}

template <class Factory>
struct PolicyEntry {
  std::string_view name;
  std::string_view description;
  std::vector<KeySpec> keys;
  Factory make;
};

/// The entries of one family of policies, chosen by the hierarchy key `key()`. Entries are kept
/// in registration order, the default first; names are unique.
template <class Factory>
class PolicyRegistry {
 public:
  using Entry = PolicyEntry<Factory>;

  PolicyRegistry(std::string_view key, std::string_view fallback, std::vector<Entry> entries)
      : key_(key), fallback_(fallback) {
    for (Entry& entry : entries) {
      add(std::move(entry));
    }
  }
  /// The registry `register_all` fills (a family's generated list of its built-in policies).
  PolicyRegistry(std::string_view key, std::string_view fallback,
                 void (*register_all)(PolicyRegistry&))
      : key_(key), fallback_(fallback) {
    register_all(*this);
  }

  /// Registers one more policy; returns true so that a static initializer can call it. A name
  /// already registered is a programming error. The default (`fallback`) is kept first, so
  /// listings and error messages start with it.
  bool add(Entry entry) {
    if (find_or_null(entry.name) != nullptr) {
      throw std::logic_error(std::string(key_) + ": policy " + std::string(entry.name) +
                             " is registered twice");
    }
    if (entry.name == fallback_) {
      entries_.push_front(std::move(entry));
    } else {
      entries_.push_back(std::move(entry));
    }
    return true;
  }

  [[nodiscard]] const Entry* find_or_null(std::string_view name) const {
    const auto found = std::find_if(entries_.begin(), entries_.end(),
                                    [&](const Entry& entry) { return entry.name == name; });
    return found == entries_.end() ? nullptr : &*found;
  }

  /// The entry named `name`; an unknown name is an UnknownPolicy naming the key and listing
  /// the known policies (never a silent fallback).
  [[nodiscard]] const Entry& find(std::string_view name) const {
    if (const Entry* entry = find_or_null(name)) {
      return *entry;
    }
    throw unknown_policy(key_, name, names());
  }

  [[nodiscard]] std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const Entry& entry : entries_) {
      out.emplace_back(entry.name);
    }
    return out;
  }
  [[nodiscard]] const std::deque<Entry>& entries() const { return entries_; }
  /// The keys of every entry, each once (entries may share keys), in registration order.
  [[nodiscard]] std::vector<KeySpec> keys() const {
    std::vector<KeySpec> out;
    for (const Entry& entry : entries_) {
      for (const KeySpec& spec : entry.keys) {
        if (std::none_of(out.begin(), out.end(),
                         [&](const KeySpec& known) { return known.name == spec.name; })) {
          out.push_back(spec);
        }
      }
    }
    return out;
  }
  [[nodiscard]] std::string_view key() const { return key_; }
  [[nodiscard]] std::string_view fallback() const { return fallback_; }

 private:
  std::string_view key_;
  std::string_view fallback_;
  std::deque<Entry> entries_;  // stable addresses: find() hands out references
};

}  // namespace memcarlo::sim
