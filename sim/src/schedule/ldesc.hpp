// ldesc: CTA scheduling by Locality Descriptors (Vijaykumar et al., ISCA'18, §4.3 and §4.6,
// Figure 11). With one module, Algorithm 1 (sim/src/ldesc/clustering.hpp) over the launch's
// descriptors (LaunchTrace::descriptors, in priority order) gives the cluster dimensions, and the
// clusters are dealt one per SM (assign_clusters over the snapshot's blocks): each SM runs its
// own queue. With numa.modules > 1, Algorithm 2 (sim/src/ldesc/numa_mapping.hpp) first partitions
// the CTAs over the zones (zone m = module m: each C-Tile of the highest-priority descriptor goes
// to the zone that holds most of its D-Tile under the chosen address bits), then Algorithm 1 runs
// inside each zone: the zone's blocks, cut into clusters, are dealt over its module's S / M SMs
// only. A launch without descriptors runs as round-robin (one queue, launch order).
#pragma once

#include "memcarlo/sim/schedule/cta_scheduler.hpp"

namespace memcarlo::sim::schedule {

/// ConfigError when numa.modules is not a power of two (the zone bits of Algorithm 2 index a
/// power of two of zones).
std::unique_ptr<CtaScheduler> make_ldesc(const HierarchyConfig& config);

}  // namespace memcarlo::sim::schedule
