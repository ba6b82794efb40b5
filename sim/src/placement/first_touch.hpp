// first-touch: a page lives on the module of the SM whose request reaches the L2 first (the
// papers' FirstTouch baseline, LDesc §6.2 after MCM-GPU; 64 KiB pages there). The order is
// random, so the home is decided per trial (numa.hpp): here every line is placed as on module 0
// with its home marked kHomePerTrial, and the trial moves its L2 sets and DRAM channel to the
// module that touched its page first. Lines outside the trace (a prefetcher's) stay on module 0.
#pragma once

#include "memcarlo/sim/placement/placement.hpp"

namespace memcarlo::sim::placement {

std::unique_ptr<Placement> make_first_touch(const HierarchyConfig& config);

}  // namespace memcarlo::sim::placement
