// Messages of the cuda runtime: "memcarlo cuda runtime: ..." on stderr, warnings and fatal
// configuration errors (exit status 78, as in the host backend).
#pragma once

#include <string_view>

// The shared option parser and loads registry (compiled from tracebuf/host/src, see
// CMakeLists.txt) report through these declarations; cuda_diagnostics.cpp defines them for the
// cuda runtime.
#include "diagnostics.hpp"

namespace memcarlo::cuda::detail {

using host::detail::fatal;
using host::detail::kExitConfig;
using host::detail::warn;

}  // namespace memcarlo::cuda::detail
