// The trials with ldesc.cache (the Locality Descriptors' bypass and pinning in the L1): the SM
// sides with the L1 priorities, for every built-in prefetcher, in a unit of their own so that
// the replay without them (trial.cpp, trial_prefetching.cpp) is compiled as it was.
#include "run_trial.hpp"

namespace memcarlo::sim::detail {

TrialResult run_trial_ldesc_cache(const CompiledTrace& trace, const HierarchyConfig& config,
                                  std::uint64_t seed, std::uint64_t trial,
                                  TrialWorkspace& workspace) {
  return run_trial_with<prefetch::BuiltIn, true>(trace, config, seed, trial, workspace);
}

}  // namespace memcarlo::sim::detail
