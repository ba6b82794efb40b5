// Fixed-latency DRAM: every access takes dram.base_latency cycles beyond the L2.
#pragma once

#include "memcarlo/sim/dram/model.hpp"

namespace memcarlo::sim::dram {

std::unique_ptr<Model> make_fixed(const DramConfig& config);

}  // namespace memcarlo::sim::dram
