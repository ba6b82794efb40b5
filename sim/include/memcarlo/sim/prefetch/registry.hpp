// The GPU prefetcher registry (hierarchy key prefetch.policy): a list of types, one entry per
// prefetcher. The trial runs none through its own SM sides and boxes every other one
// (sim/src/any_prefetcher.hpp: Boxed<P>, P's hooks inlined into its box), so a prefetcher adds
// a box and no SM-side instantiation.
// The built-in list is prefetch::BuiltIn (sim/src/prefetch/builtin.hpp: every header of that
// folder, listed by the build); a test or a tool adds a prefetcher with BuiltIn::With<Extra>
// (one line) and runs trials
// through run_trial_with (sim/src/run_trial.hpp).
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "memcarlo/sim/key_spec.hpp"
#include "memcarlo/sim/policy_registry.hpp"
#include "memcarlo/sim/prefetch/prefetcher.hpp"

namespace memcarlo::sim::prefetch {

template <class... Prefetchers>
struct List {
  template <class... More>
  using With = List<Prefetchers..., More...>;
  template <class... Before>
  using After = List<Before..., Prefetchers...>;

  static std::vector<std::string> names() { return {std::string(Prefetchers::kName)...}; }

  /// The keys of every prefetcher (P::kKeys, where it has one), each once, in list order.
  static std::vector<KeySpec> keys() {
    std::vector<KeySpec> out;
    const auto add = [&out](const auto& specs) {
      for (const KeySpec& spec : specs) {
        if (std::none_of(out.begin(), out.end(),
                         [&](const KeySpec& known) { return known.name == spec.name; })) {
          out.push_back(spec);
        }
      }
    };
    (
        [&] {
          if constexpr (requires { Prefetchers::kKeys; }) {
            add(Prefetchers::kKeys);
          }
        }(),
        ...);
    return out;
  }

  /// Calls f(P{config}) for the prefetcher P named config.prefetch.policy; an unknown name is
  /// an UnknownPolicy listing the known ones.
  template <class F>
  static void visit(const HierarchyConfig& config, F&& f) {
    const bool found = ((Prefetchers::kName == config.prefetch.policy
                             ? (f(Prefetchers{config}), true)
                             : false) ||
                        ...);
    if (!found) {
      throw unknown_policy("prefetch.policy", config.prefetch.policy, names());
    }
  }
};

}  // namespace memcarlo::sim::prefetch
