// Banked DRAM: channels with a shared data bus, banks with one open row each.
#pragma once

#include "memcarlo/sim/dram/model.hpp"

namespace memcarlo::sim::dram {

std::unique_ptr<Model> make_banked(const DramConfig& config);

}  // namespace memcarlo::sim::dram
