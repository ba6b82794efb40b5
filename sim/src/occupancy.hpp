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

/// What to do when no block fits, for that error: ". Presets whose SM holds this block: v100,
/// ...; simulate with one (-H), best on a trace sized for it (memcarlo run -H PRESET)", or the
/// same without the list when none does. The hierarchy that failed (`failed`, its name) is not
/// listed, even when only --set made its block too big.
std::string presets_that_fit(const tracebuf::LaunchInfo& launch, const std::string& failed);

}  // namespace memcarlo::sim::detail
