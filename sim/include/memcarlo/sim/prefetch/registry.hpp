// The GPU prefetcher registry (hierarchy key prefetch.policy): a list of types, one entry per
// prefetcher, that the trial turns into SM-side instantiations per L1 replacement policy: one
// for none, one for all the prefetchers without L1 storage hooks (visit_grouped, OneOf) and one
// per prefetcher with them (Snake). Policies that only decide per launch (CTA schedulers,
// placements) stay out of template lists.
// The built-in list is prefetch::BuiltIn (sim/src/prefetch/builtin.hpp: every header of that
// folder, listed by the build); a test or a tool adds a prefetcher with BuiltIn::With<Extra>
// (one line) and runs trials
// through run_trial_with (sim/src/run_trial.hpp).
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "memcarlo/sim/key_spec.hpp"
#include "memcarlo/sim/policy_registry.hpp"
#include "memcarlo/sim/prefetch/one_of.hpp"
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
    const bool found =
        ((Prefetchers::kName == config.prefetch.policy ? (f(Prefetchers{config}), true) : false) ||
         ...);
    if (!found) {
      throw unknown_policy("prefetch.policy", config.prefetch.policy, names());
    }
  }
};

namespace detail {
/// The prefetchers of P... that share one SM side: those that prefetch and have no L1 storage
/// hooks, appended to Out.
template <class Out, class... Ps>
struct Shared {
  using type = Out;
};
template <class... Out, class P, class... Rest>
struct Shared<List<Out...>, P, Rest...> {
  using type = typename Shared<std::conditional_t<(P::kMaxRequests > 0 && !HasStorageHooks<P>),
                                                  List<Out..., P>, List<Out...>>,
                               Rest...>::type;
};
template <class L>
struct OneOfList;
template <class... Ps>
struct OneOfList<List<Ps...>> {
  using type = OneOf<Ps...>;
  static constexpr std::size_t kSize = sizeof...(Ps);
  template <class P>
  static constexpr bool kHas = (std::is_same_v<P, Ps> || ...);
};
template <class... Ps>
auto shared_of(List<Ps...>) -> OneOfList<typename Shared<List<>, Ps...>::type>;
}  // namespace detail

/// As PrefetcherList::visit, but the prefetchers that prefetch and have no L1 storage hooks
/// reach f as one type, OneOf<them...> (one SM side for all of them); none, and a prefetcher
/// with storage hooks (Snake), reach it as themselves. So the SM sides are |hooked| + 2 per L1
/// policy, not |prefetchers|.
template <class PrefetcherList, class F>
void visit_grouped(const HierarchyConfig& config, F&& f) {
  using Group = decltype(detail::shared_of(PrefetcherList{}));
  PrefetcherList::visit(config, [&](auto prefetcher) {
    using P = decltype(prefetcher);
    if constexpr (Group::kSize > 1 && Group::template kHas<P>) {
      f(typename Group::type(std::move(prefetcher)));
    } else {
      f(std::move(prefetcher));
    }
  });
}

}  // namespace memcarlo::sim::prefetch
