// The built-in GPU prefetchers (hierarchy key prefetch.policy): one line each. Each is a header
// (its hooks are templates that inline into the SM side) with its rule and source on top.
#pragma once

#include "cta_aware.hpp"
#include "inter_warp.hpp"
#include "intra_warp.hpp"
#include "ldesc.hpp"
#include "memcarlo/sim/prefetch/registry.hpp"
#include "mta.hpp"
#include "next_line.hpp"
#include "snake.hpp"

namespace memcarlo::sim::prefetch {

/// The prefetchers that prefetch (their SM sides are compiled apart from none's: trial.cpp).
// clang-format off
using Prefetching = List<NextLine,
                         IntraWarp,
                         InterWarp,
                         ManyThreadAware,
                         CtaAware,
                         Snake,
                         LdescPrefetcher>;
// clang-format on

/// Every prefetch.policy, none first.
using BuiltIn = Prefetching::After<None>;

}  // namespace memcarlo::sim::prefetch
