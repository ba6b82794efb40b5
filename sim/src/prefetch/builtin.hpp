// The built-in GPU prefetchers (hierarchy key prefetch.policy). Each is a header of this folder
// (its hooks are templates that inline into the SM side) with its rule and source on top, that
// defines the type named after the file (next_line.hpp: NextLine); the build lists them
// (sim/CMakeLists.txt: prefetch/generated_list.hpp), so a new prefetcher is one new header.
#pragma once

#include "memcarlo/sim/prefetch/registry.hpp"
#include "prefetch/generated_list.hpp"

namespace memcarlo::sim::prefetch {

/// Every prefetch.policy, none first.
using BuiltIn = Prefetching::After<None>;

}  // namespace memcarlo::sim::prefetch
