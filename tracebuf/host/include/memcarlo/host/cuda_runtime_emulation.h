// The CUDA emulation of the host backend, force-included (g++ -x c++ -include this-file
// -DMEMCARLO_BACKEND_HOST) into CUDA sources so that they compile as C++ and run on CPU fibers.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file
// are CUDA's.
#pragma once

#ifndef MEMCARLO_BACKEND_HOST
#define MEMCARLO_BACKEND_HOST 1
#endif

// Everything the emulation needs from the standard library comes first: the keyword macros at the
// end of this file must not reach into system headers (except the harmless empty __noinline__).
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "memcarlo/host/detail/call_site.h"

#include "memcarlo/host/detail/atomics.h"
#include "memcarlo/host/detail/builtins.h"
#include "memcarlo/host/detail/launch.h"
#include "memcarlo/host/detail/legacy_runtime_api.h"
#include "memcarlo/host/detail/math_functions.h"
#include "memcarlo/host/detail/memory_api_cuda11.h"
#include "memcarlo/host/detail/runtime_api.h"
#include "memcarlo/host/detail/symbols.h"
#include "memcarlo/host/detail/synchronization.h"
#include "memcarlo/host/detail/texture_references.h"
#include "memcarlo/host/detail/textures.h"
#include "memcarlo/host/detail/unsupported.h"
#include "memcarlo/host/detail/vector_types.h"
#include "memcarlo/probe_api.h"

namespace memcarlo::host::detail {
/// The running block's dynamic shared memory (the launch's shmem bytes, 128-byte aligned).
void* dynamic_shared_memory();
/// Whether `pointer` lies inside a device allocation (what a probe keeps).
bool is_device_address(const void* pointer);
}  // namespace memcarlo::host::detail

inline unsigned __isGlobal(const void* pointer) {
  return ::memcarlo::host::detail::is_device_address(pointer) ? 1u : 0u;
}

// ---- the include guards of the CUDA headers this one stands in for ------------------------------
//
// Programs and helper headers test them to learn which parts of CUDA are declared: the CUDA
// samples' helper_cuda.h defines checkCudaErrors only under __DRIVER_TYPES_H__ and findCudaDevice
// only under __CUDA_RUNTIME_H__. nvcc force-includes cuda_runtime.h, which defines all of these.
// The driver API's guard (__cuda_cuda_h__) is defined by the <cuda.h> stand-in alone, as in CUDA.
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __VECTOR_TYPES_H__
#define __VECTOR_FUNCTIONS_H__
#define __BUILTIN_TYPES_H__
#define __HOST_DEFINES_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#define __TEXTURE_TYPES_H__
#define __SURFACE_TYPES_H__
#define __CHANNEL_DESCRIPTOR_H__

// ---- the `register` storage class -------------------------------------------------------------
//
// C++17 removed `register`; nvcc still accepts it in device code (old kernels declare their
// accumulators `register float sum`). GCC's C++17-and-later modes warn on it (-Wregister), which
// -Werror builds would turn into an error: a program compiled against the emulation is accepted
// as nvcc accepts it. (The instrumenter's Clang parse, where it is an error, gets -Wno-register.)
// _Pragma keeps the pragma's words in a string, out of reach of a program's -D macros.
_Pragma("GCC diagnostic ignored \"-Wregister\"")

// ---- function and variable qualifiers
// --------------------------------------------------------------

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __grid_constant__
#define __forceinline__ inline
// Empty rather than noinline: libstdc++ spells __attribute__((__noinline__)), and an empty
// attribute list is still valid there.
#define __noinline__
#define __launch_bounds__(...)
#define __align__(bytes) __attribute__((aligned(bytes)))
#define __builtin_align__(bytes) __attribute__((aligned(bytes)))
#define __device_builtin__
#define __cudart_builtin__

// ---- shared memory -----------------------------------------------------------------------------
//
// CUDA gives every block its own instance of each __shared__ variable, which the block's threads
// share. Here a block runs all its CUDA threads as fibers on one OS thread, from its first fiber
// to its last, and an OS thread runs one block at a time. Block-local storage is therefore exactly
// thread_local storage: `__shared__ float tile[16][16];` inside a kernel becomes a block-scope
// `thread_local float tile[16][16];`, which C++ makes implicitly static — one object per OS thread,
// so one per running block, shared by all the block's fibers and never by two blocks at once.
// Blocks that run one after another on the same OS thread reuse the object; like GPU shared
// memory, its contents are undefined at the start of a block.
//
// The expansion starts with an unused constant so that a storage class written before __shared__
// lands on that constant instead of on the variable:
//   `static __shared__ T x;`   -> `static const int unused = 0; thread_local T x;`   (C++: fine)
//   `volatile __shared__ T x;` -> `volatile const int unused = 0; thread_local T x;` (fine)
//   `extern __shared__ T x[];` -> `extern const int ...needs_MEMCARLO_DYNAMIC_SHARED = 0;` which
// the compiler rejects ("has both 'extern' and initializer"), naming the macro and the line. An
// unsized extern array cannot become per-block storage without its name, so dynamic shared memory
// is spelled MEMCARLO_DYNAMIC_SHARED(T, x); the instrumenter rewrites `extern __shared__` to it
// when it builds for the host backend.
#define MEMCARLO_CONCATENATE_IMPL(first, second) first##second
#define MEMCARLO_CONCATENATE(first, second) MEMCARLO_CONCATENATE_IMPL(first, second)
#define __shared__                                                                          \
  __attribute__((unused)) const int MEMCARLO_CONCATENATE(                                   \
      memcarlo_extern_shared_must_be_written_as_MEMCARLO_DYNAMIC_SHARED_, __COUNTER__) = 0; \
  thread_local

/// `extern __shared__ T name[];` for the host backend: `name` points at the block's dynamic
/// shared memory (the launch's shmem argument).
// `type` is a type and `name` a declarator: neither can be parenthesized.
#define MEMCARLO_DYNAMIC_SHARED(type, name) \
  type* const name =                        \
      static_cast<type*>(::memcarlo::host::detail::dynamic_shared_memory())  // NOLINT
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
