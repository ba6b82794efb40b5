// tafe: TAFE's threadblock mapping (PACT'20 §5.1). The blocks are ordered row-, column- or
// depth-major by the block-id coefficients of the kernel's first TID_DEP access (derived from the
// loads table: the axis whose step moves the address least varies fastest), then cut into
// numa.modules contiguous equal chunks, chunk m run by module m's SMs from one queue (as
// `distributed` runs its chunks). Without a TID_DEP access, or with one module, it is
// `distributed` (launch order). The tafe placement puts pages after the same mapping.
#pragma once

#include "memcarlo/sim/schedule/cta_scheduler.hpp"

namespace memcarlo::sim::schedule {

std::unique_ptr<CtaScheduler> make_tafe(const HierarchyConfig& config);

}  // namespace memcarlo::sim::schedule
