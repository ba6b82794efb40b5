// xor: a page's module is the XOR of the log2(M)-bit digits of its page number (static XOR
// address hashing, the Locality Descriptors paper's Baseline, §6.2, after Zhang et al. [62]); it
// spreads pages evenly over the modules, whatever the stride. numa.modules must be a power of
// two. Inside the module, lines are placed as interleaved places them.
#pragma once

#include "memcarlo/sim/placement/placement.hpp"

namespace memcarlo::sim::placement {

std::unique_ptr<Placement> make_xor_hashed(const HierarchyConfig& config);

}  // namespace memcarlo::sim::placement
