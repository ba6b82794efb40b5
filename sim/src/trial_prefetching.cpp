// The trials with a GPU prefetcher: the SM sides of every built-in prefetcher, in a unit of
// their own so that the `none` replay in trial.cpp is compiled as it was without them. Each SM
// side has the Locality Descriptors' L1 layer, on when the trial uses ldesc.cache.
#include "run_trial.hpp"

namespace memcarlo::sim::detail {

TrialResult run_trial_prefetching(const CompiledTrace& trace, const HierarchyConfig& config,
                                  std::uint64_t seed, std::uint64_t trial,
                                  TrialWorkspace& workspace) {
  return run_trial_with<prefetch::Prefetching, L1Admission::kPerTrial>(trace, config, seed, trial,
                                                                       workspace);
}

}  // namespace memcarlo::sim::detail
