// locality: blocks clustered by their locality graph (LocalityGuru; the follow-on PAVER
// schedules by the graph) so that blocks that read the same L1 lines run on one SM, and with
// numa.modules > 1 on one module. The graph is measured from the launch's traced lines at the
// start of the launch (decide per launch): L(i, j) = lines both blocks touch; lines touched by
// more than 64 blocks are left out (they weigh on every pair alike and would cost pairs
// quadratically). Load balance is the constraint: the grid is cut into modules, then SMs, of
// ceil(B / parts) blocks, each part grown greedily from its lowest unplaced block by the block
// with the most shared lines with the part (ties: the lowest block). Each SM has its own queue
// in growth order (a static plan, like bcs). Without a compiled trace it is round-robin.
#pragma once

#include "memcarlo/sim/schedule/cta_scheduler.hpp"

namespace memcarlo::sim::schedule {

std::unique_ptr<CtaScheduler> make_locality(const HierarchyConfig& config);

}  // namespace memcarlo::sim::schedule
