// One trial, with the prefetchers of a registry list: picks the instantiations for the
// configured policies once (the SM side per L1 replacement policy and prefetcher, the L2 side
// per L2 replacement policy), then replays every launch with that launch's random streams.
// Per prefetcher the engine compiles one SM side per alternative of replacement::AnyPolicy (lru,
// fifo, and Dynamic for every other policy), and one L2 side per alternative; the Locality
// Descriptors' L1 layer is an L1Admission of the SM side (sm_side.hpp). run_trial uses
// prefetch::BuiltIn; a test runs its own prefetchers with run_trial_with<prefetch::List<P...>>.
#pragma once

#include <string>

#include "prefetch/builtin.hpp"
#include "replay.hpp"
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
void replay_launches(const CompiledTrace& trace, const HierarchyConfig& config,
                     std::uint64_t seed, std::uint64_t trial, TrialWorkspace::State& state,
                     Residency& residency, LaunchStreams& streams, SmSide& sm_side,
                     L2Side& l2_side, TrialResult& result);
/// Splits the per-slot counters into per-load, per-allocation, per-kernel and overall totals.
void finish_trial(const CompiledTrace& trace, TrialWorkspace::State& state, TrialResult& result);

/// Untraced line ids a trial with a prefetcher keeps: enough for every way of every cache to
/// hold a different untraced line, plus the requests of a few epochs in flight.
std::uint32_t untraced_line_capacity(const HierarchyConfig& config);

/// run_trial_with<prefetch::Prefetching, L1Admission::kPerTrial>: a trial whose prefetcher is
/// not none, with or without ldesc.cache (in its own translation unit, trial_prefetching.cpp).
TrialResult run_trial_prefetching(const CompiledTrace& trace, const HierarchyConfig& config,
                                  std::uint64_t seed, std::uint64_t trial,
                                  TrialWorkspace& workspace);

/// Whether the trial needs the L1 priorities of ldesc.cache: the key is on and some launch has
/// descriptors (otherwise the plain instantiations run, bit for bit the same as without it).
bool uses_ldesc_cache(const CompiledTrace& trace, const HierarchyConfig& config);

/// run_trial_with<prefetch::List<prefetch::None>, L1Admission::kOn>: a trial without a prefetcher
/// with ldesc.cache (trial_ldesc_cache.cpp).
TrialResult run_trial_ldesc_cache(const CompiledTrace& trace, const HierarchyConfig& config,
                                  std::uint64_t seed, std::uint64_t trial,
                                  TrialWorkspace& workspace);

}  // namespace detail

template <class PrefetcherList, L1Admission kAdmission = L1Admission::kOff>
TrialResult run_trial_with(const CompiledTrace& trace, const HierarchyConfig& config,
                           std::uint64_t seed, std::uint64_t trial, TrialWorkspace& workspace) {
  TrialWorkspace::State& state = workspace.state();
  TrialResult result;
  detail::select_policy<PrivateCaches>(state.l1, config, "l1");
  detail::select_policy<SharedCache>(state.l2, config, "l2");
  PrefetcherList::visit(config, [&](auto prefetcher) {
    using Prefetcher = decltype(prefetcher);
    detail::begin_trial(trace, config, state, result,
                        Prefetcher::kMaxRequests > 0 ? detail::untraced_line_capacity(config) : 0);
    std::visit(
        [&](auto& l1, auto& l2) {
          using L1 = typename std::decay_t<decltype(l1)>::policy_type;
          using L2 = typename std::decay_t<decltype(l2)>::policy_type;
          LaunchStreams streams;  // each launch's, assigned by replay_launches
          Residency residency(trace, state, config.sm.count);
          SmSideOf<L1, Prefetcher, kAdmission> sm_side(
              trace, config, streams, state, residency, l1, std::move(prefetcher), result,
              kAdmission == L1Admission::kPerTrial && detail::uses_ldesc_cache(trace, config));
          L2Drain<L2> l2_side(trace, config, streams, state, l2, result);
          detail::replay_launches(trace, config, seed, trial, state, residency, streams, sm_side,
                                  l2_side, result);
        },
        state.l1, state.l2);
  });
  detail::finish_trial(trace, state, result);
  return result;
}

}  // namespace memcarlo::sim
