// What the compile needs of the occupancy rules (occupancy.cpp) beyond plan_occupancy, which
// compiled_trace.hpp declares.
#pragma once

#include <string>

#include "memcarlo/sim/config.hpp"
#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::sim::detail {

/// The SM limits one block of `launch` exceeds, with the numbers (for the error that no block
/// fits).
std::string exceeded_limits(const tracebuf::LaunchInfo& launch, const SmConfig& sm);

}  // namespace memcarlo::sim::detail
