// What the instrumenter knows about CUDA functions by name: atomics and cache-hinted loads and
// stores (accesses through their pointer argument), barriers (sequence ends), and functions that
// neither read nor write memory (they do not end a redundant-load window).
#pragma once

#include <optional>
#include <string>

#include "access_site.hpp"

namespace memcarlo::instrumenter {

/// atomicAdd/atomicCAS/... -> kAtomic, __ldg/__ldcg/... -> kRead, __stcg/__stwb/... -> kWrite.
std::optional<AccessKind> pointer_access_kind(const std::string& name);

/// __syncthreads, __syncwarp, __threadfence, cooperative-groups sync, ...
bool is_barrier(const std::string& name);

/// Math, conversion, bit and warp-shuffle intrinsics, make_<vector>, builtin-variable reads.
bool is_pure_function(const std::string& name);

}  // namespace memcarlo::instrumenter
