// The built-in GPU prefetchers (hierarchy key prefetch.policy): one line each. Each is a header
// (its hooks are templates that inline into the SM side) with its rule and source on top.
#pragma once

#include "cta_aware.hpp"
#include "inter_warp.hpp"
#include "intra_warp.hpp"
#include "memcarlo/sim/prefetch/registry.hpp"
#include "mta.hpp"
#include "next_line.hpp"

namespace memcarlo::sim::prefetch {

// clang-format off
using BuiltIn = List<None,
                     NextLine,
                     IntraWarp,
                     InterWarp,
                     ManyThreadAware,
                     CtaAware>;
// clang-format on

}  // namespace memcarlo::sim::prefetch
