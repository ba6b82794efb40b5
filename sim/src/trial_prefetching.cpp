// The trials with a GPU prefetcher: the prefetching SM sides (one per inlined L1 policy, with
// ldesc.cache's layer on when the trial uses it) and the built-in prefetchers' boxes
// (any_prefetcher.hpp), in a unit of their own so that the `none` replay in trial.cpp is
// compiled as it was without them.
#include "ldesc/cache_layer.hpp"
#include "run_trial.hpp"

namespace memcarlo::sim::detail {

TrialResult run_trial_boxed(const CompiledTrace& trace, const HierarchyConfig& config,
                            std::uint64_t seed, std::uint64_t trial, TrialWorkspace& workspace,
                            prefetch::Any prefetcher) {
  const bool ldesc_cache = ldesc::CacheLayer::wanted(trace, config);
  return run_trial_sides(trace, config, seed, trial, workspace, std::move(prefetcher),
                         [&](const LineSpace& line_space) {
                           return PerTrial<ldesc::CacheLayer>(trace, config, line_space,
                                                              ldesc_cache);
                         });
}

TrialResult run_trial_prefetching(const CompiledTrace& trace, const HierarchyConfig& config,
                                  std::uint64_t seed, std::uint64_t trial,
                                  TrialWorkspace& workspace) {
  return run_trial_with<prefetch::BuiltIn>(trace, config, seed, trial, workspace);
}

}  // namespace memcarlo::sim::detail
