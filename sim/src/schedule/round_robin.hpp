// round-robin: the hardware's default order (paper §3.2.1): one queue of the blocks in launch
// order that every SM takes from, so block i starts on SM i mod S.
#pragma once

#include "memcarlo/sim/schedule/cta_scheduler.hpp"

namespace memcarlo::sim::schedule {

std::unique_ptr<CtaScheduler> make_round_robin(const HierarchyConfig& config);

}  // namespace memcarlo::sim::schedule
