// The trials without a prefetcher with ldesc.cache (the Locality Descriptors' bypass and pinning
// in the L1, ldesc/cache_layer.hpp): the `none` SM sides with that layer, in a unit of their own
// so that the replay without it (trial.cpp) is compiled as it was. With a prefetcher, the
// prefetching SM sides decide per trial (trial_prefetching.cpp).
#include "ldesc/cache_layer.hpp"
#include "run_trial.hpp"

namespace memcarlo::sim::detail {

TrialResult run_trial_ldesc_cache(const CompiledTrace& trace, const HierarchyConfig& config,
                                  std::uint64_t seed, std::uint64_t trial,
                                  TrialWorkspace& workspace) {
  return run_trial_sides(
      trace, config, seed, trial, workspace, prefetch::None{config},
      [&](const LineSpace& line_space) { return ldesc::CacheLayer(trace, config, line_space); });
}

}  // namespace memcarlo::sim::detail
