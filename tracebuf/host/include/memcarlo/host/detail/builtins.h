// The per-CUDA-thread built-in variables (threadIdx, blockIdx, blockDim, gridDim) and warpSize.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

#include "memcarlo/host/detail/vector_types.h"

namespace memcarlo::host::detail {

/// What the index built-ins hold for one CUDA thread; the block runner keeps one per fiber.
struct ThreadBuiltins {
  ::uint3 thread_idx;
  ::uint3 block_idx;
  ::dim3 block_dim;
  ::dim3 grid_dim;
};

}  // namespace memcarlo::host::detail

// Variables, not macros: a program may declare host variables of the same names, as Rodinia's nn
// does with `dim3 gridDim(...)` in main; the local declaration hides the built-in, which nvcc only
// declares for device code. They live in a namespace that a using-directive opens, so that GCC's
// -Wshadow does not object to such locals and parameters. Each OS thread runs one CUDA thread
// (fiber) at a time and a fiber never leaves its OS thread, so the block runner copies the
// running fiber's values into these thread_locals whenever it switches to it; constinit lets the
// compiler read them directly (%fs-relative), without a TLS wrapper call. Host code that reads
// them (valid CUDA cannot) sees the last CUDA thread that ran on its OS thread, or zeros.
namespace memcarlo_cuda_builtins {
inline constinit thread_local ::uint3 threadIdx{};
inline constinit thread_local ::uint3 blockIdx{};
inline constinit thread_local ::dim3 blockDim{0, 0, 0};
inline constinit thread_local ::dim3 gridDim{0, 0, 0};
}  // namespace memcarlo_cuda_builtins
using namespace memcarlo_cuda_builtins;  // NOLINT(google-global-names-in-headers): CUDA's names

inline constexpr int warpSize = 32;
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
