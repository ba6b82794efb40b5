// distributed: the grid cut into numa.modules contiguous chunks, chunk m (blocks
// [m x B / M, (m + 1) x B / M)) run by module m's SMs from one queue in launch order (the
// papers' FirstTouch-Distrib baseline: LDesc §6.2, TAFE §6). Inside a module the chunk is
// dispatched as round-robin dispatches a grid; with one module the one chunk is the whole grid,
// so distributed is round-robin there.
#pragma once

#include "memcarlo/sim/schedule/cta_scheduler.hpp"

namespace memcarlo::sim::schedule {

std::unique_ptr<CtaScheduler> make_distributed(const HierarchyConfig& config);

}  // namespace memcarlo::sim::schedule
