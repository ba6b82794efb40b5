// One trial: picks the instantiations for the configured policies once (the SM side per L1
// replacement policy, prefetcher kind and L1 layer; the L2 side per L2 replacement policy), then
// replays every launch with that launch's random streams. The engine compiles one SM side per
// alternative of replacement::AnyPolicy (lru, fifo, and Dynamic for every other policy) for
//   none, no layer                       trial.cpp (the default, alone in its unit)
//   none, ldesc::CacheLayer              trial_ldesc_cache.cpp
//   prefetch::Any, PerTrial<CacheLayer>  trial_prefetching.cpp (every other prefetcher, boxed:
//                                        any_prefetcher.hpp)
// so 9 SM sides and 3 L2 sides: a prefetcher adds a Boxed<P> and no SM side, a replacement
// policy through Dynamic none, an L1 layer one SM side per inlined L1 policy. run_trial uses
// prefetch::BuiltIn; a test runs its own prefetchers with run_trial_with<prefetch::List<P...>>,
// which compiles only their boxes (the SM sides are the library's).
#pragma once

#include <memory>
#include <string>

#include "any_prefetcher.hpp"
#include "l1_layer.hpp"
#include "prefetch/builtin.hpp"
#include "replay.hpp"
#include "sm_side.hpp"
#include "trial_state.hpp"

namespace memcarlo::sim {
namespace detail {

template <template <class> class Cache>
void select_policy(AnyCache<Cache>& cache, const HierarchyConfig& config, std::string_view level) {
  // Keep the existing storage when the policy is unchanged; switch alternatives otherwise. A
  // run-time policy is handed over every trial (its parameters may differ); an inlined one has
  // none, and keeping it keeps its storage.
  std::visit(
      [&](auto&& policy) {
        using Policy = std::decay_t<decltype(policy)>;
        if (!std::holds_alternative<Cache<Policy>>(cache)) {
          cache.template emplace<Cache<Policy>>();
        }
        if constexpr (std::is_same_v<Policy, replacement::Dynamic>) {
          std::get<Cache<Policy>>(cache).set_policy(std::move(policy));
        }
      },
      replacement::make(config, level));
}

/// Sizes the trial's state and result for `trace`.
void begin_trial(const CompiledTrace& trace, const HierarchyConfig& config,
                 TrialWorkspace::State& state, TrialResult& result, std::uint32_t untraced_lines);
/// Replays every launch of `trace` through the two sides.
void replay_launches(const CompiledTrace& trace, const HierarchyConfig& config, std::uint64_t seed,
                     std::uint64_t trial, TrialWorkspace::State& state, Residency& residency,
                     LaunchStreams& streams, SmSide& sm_side, L2Side& l2_side, TrialResult& result);
/// Splits the per-slot counters into per-load, per-allocation, per-kernel and overall totals.
void finish_trial(const CompiledTrace& trace, TrialWorkspace::State& state, TrialResult& result);

/// Untraced line ids a trial with a prefetcher keeps: enough for every way of every cache to
/// hold a different untraced line, plus the requests of a few epochs in flight.
std::uint32_t untraced_line_capacity(const HierarchyConfig& config);

/// A trial without a prefetcher: with ldesc.cache's layer when the trial uses it
/// (trial_ldesc_cache.cpp), else the plain SM sides (trial.cpp).
TrialResult run_trial_none(const CompiledTrace& trace, const HierarchyConfig& config,
                           std::uint64_t seed, std::uint64_t trial, TrialWorkspace& workspace);
/// A trial without a prefetcher with ldesc.cache (trial_ldesc_cache.cpp).
TrialResult run_trial_ldesc_cache(const CompiledTrace& trace, const HierarchyConfig& config,
                                  std::uint64_t seed, std::uint64_t trial,
                                  TrialWorkspace& workspace);
/// A trial with the boxed prefetcher `prefetcher`, with or without ldesc.cache
/// (trial_prefetching.cpp).
TrialResult run_trial_boxed(const CompiledTrace& trace, const HierarchyConfig& config,
                            std::uint64_t seed, std::uint64_t trial, TrialWorkspace& workspace,
                            prefetch::Any prefetcher);
/// A trial whose prefetch.policy is a built-in prefetcher other than none
/// (trial_prefetching.cpp).
TrialResult run_trial_prefetching(const CompiledTrace& trace, const HierarchyConfig& config,
                                  std::uint64_t seed, std::uint64_t trial,
                                  TrialWorkspace& workspace);

/// One trial through SmSideOf<L1, Prefetcher, Layer> for the configured L1 policy;
/// `make_layer(line_space)` builds the layer.
template <class Prefetcher, class MakeLayer>
TrialResult run_trial_sides(const CompiledTrace& trace, const HierarchyConfig& config,
                            std::uint64_t seed, std::uint64_t trial, TrialWorkspace& workspace,
                            Prefetcher prefetcher, MakeLayer&& make_layer) {
  constexpr bool kPrefetching = std::is_same_v<Prefetcher, prefetch::Any>;
  TrialWorkspace::State& state = workspace.state();
  TrialResult result;
  detail::select_policy<PrivateCaches>(state.l1, config, "l1");
  detail::select_policy<SharedCache>(state.l2, config, "l2");
  detail::begin_trial(trace, config, state, result,
                      kPrefetching ? detail::untraced_line_capacity(config) : 0);
  std::visit(
      [&](auto& l1, auto& l2) {
        using L1 = typename std::decay_t<decltype(l1)>::policy_type;
        using L2 = typename std::decay_t<decltype(l2)>::policy_type;
        using Layer = decltype(make_layer(state.line_space));
        LaunchStreams streams;  // each launch's, assigned by replay_launches
        Residency residency(trace, state, config.sm.count);
        SmSideOf<L1, Prefetcher, Layer> sm_side(trace, config, streams, state, residency, l1,
                                                std::move(prefetcher),
                                                make_layer(state.line_space));
        L2Drain<L2> l2_side(trace, config, streams, state, l2, result);
        detail::replay_launches(trace, config, seed, trial, state, residency, streams, sm_side,
                                l2_side, result);
      },
      state.l1, state.l2);
  detail::finish_trial(trace, state, result);
  return result;
}

}  // namespace detail

/// One trial with the prefetchers of `PrefetcherList` (prefetch::List): the configured one, if
/// it may prefetch, runs boxed through the library's prefetching SM sides; none (and any
/// prefetcher whose kMaxRequests is 0: it is never called) through the plain ones.
template <class PrefetcherList>
TrialResult run_trial_with(const CompiledTrace& trace, const HierarchyConfig& config,
                           std::uint64_t seed, std::uint64_t trial, TrialWorkspace& workspace) {
  TrialResult result;
  PrefetcherList::visit(config, [&](auto prefetcher) {
    using P = decltype(prefetcher);
    if constexpr (P::kMaxRequests == 0) {
      result = detail::run_trial_none(trace, config, seed, trial, workspace);
    } else {
      result = detail::run_trial_boxed(
          trace, config, seed, trial, workspace,
          prefetch::Any{std::make_unique<prefetch::Boxed<P>>(std::move(prefetcher))});
    }
  });
  return result;
}

}  // namespace memcarlo::sim
