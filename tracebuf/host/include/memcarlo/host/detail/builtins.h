// The per-CUDA-thread built-in variables (threadIdx, blockIdx, blockDim, gridDim) and warpSize.
// Each CUDA thread is a fiber; the block runner points a thread_local at the running fiber's copy.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

#include "memcarlo/host/detail/call_site.h"

#include "memcarlo/host/detail/vector_types.h"

namespace memcarlo::host::detail {

/// What the index built-ins read. One per CUDA thread, filled when its fiber starts.
struct ThreadBuiltins {
  ::uint3 thread_idx;
  ::uint3 block_idx;
  ::dim3 block_dim;
  ::dim3 grid_dim;
};

/// The running CUDA thread's built-ins; null outside kernels. A fiber never leaves the OS thread
/// that runs its block, so a thread_local is the right scope; constinit lets the compiler read it
/// directly (%fs-relative) instead of through a TLS wrapper call.
inline constinit thread_local const ThreadBuiltins* current_builtins = nullptr;

[[noreturn]] void builtin_outside_kernel(const char* name);

inline const ThreadBuiltins& builtins(const char* name) {
  const ThreadBuiltins* b = current_builtins;
  if (b == nullptr) [[unlikely]] {
    builtin_outside_kernel(name);
  }
  return *b;
}

}  // namespace memcarlo::host::detail

// CUDA spells them as variables; here they are const lvalues of the running fiber.
#define threadIdx (::memcarlo::host::detail::builtins("threadIdx").thread_idx)
#define blockIdx (::memcarlo::host::detail::builtins("blockIdx").block_idx)
#define blockDim (::memcarlo::host::detail::builtins("blockDim").block_dim)
#define gridDim (::memcarlo::host::detail::builtins("gridDim").grid_dim)

inline constexpr int warpSize = 32;
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
