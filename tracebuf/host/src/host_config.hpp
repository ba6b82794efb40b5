// Reading the host runtime's options from MEMCARLO_* environment variables.
#pragma once

#include "memcarlo/host/control.hpp"

namespace memcarlo::host::detail {

/// Parses `text` as the value of variable `name` (used by options_from_environment and tests).
/// A malformed value ends the program with a message naming the variable (exit status 78).
RuntimeOptions options_from(const char* (*lookup)(const char* name));

}  // namespace memcarlo::host::detail
