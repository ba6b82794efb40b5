// bcs (block clustering): consecutive blocks in pairs to one SM, so that two blocks that share
// data (neighbours in the grid) share that SM's L1. Pair p = blocks {2p, 2p + 1} goes to SM
// p mod S; each SM has its own queue of its pairs in launch order (a static plan: an SM that
// finishes early does not take another SM's pairs).
#pragma once

#include "memcarlo/sim/schedule/cta_scheduler.hpp"

namespace memcarlo::sim::schedule {

std::unique_ptr<CtaScheduler> make_block_clustering(const HierarchyConfig& config);

}  // namespace memcarlo::sim::schedule
