// The trials without a prefetcher with ldesc.cache (the Locality Descriptors' bypass and pinning
// in the L1): the `none` SM sides with the L1 priorities, in a unit of their own so that the
// replay without them (trial.cpp) is compiled as it was. With a prefetcher, the prefetching SM
// sides decide per trial (trial_prefetching.cpp).
#include "run_trial.hpp"

namespace memcarlo::sim::detail {

TrialResult run_trial_ldesc_cache(const CompiledTrace& trace, const HierarchyConfig& config,
                                  std::uint64_t seed, std::uint64_t trial,
                                  TrialWorkspace& workspace) {
  return run_trial_with<prefetch::List<prefetch::None>, L1Admission::kOn>(trace, config, seed,
                                                                          trial, workspace);
}

}  // namespace memcarlo::sim::detail
