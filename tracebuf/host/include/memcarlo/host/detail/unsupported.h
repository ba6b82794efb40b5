// CUDA features the host backend does not emulate. They are declared so that programs using them
// compile, and fail when reached with a message naming the construct and the source line: the
// emulation never silently computes something else.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

#include <cstddef>
#include "memcarlo/host/detail/call_site.h"

#include "memcarlo/host/detail/reports.h"
#include "memcarlo/host/detail/runtime_api.h"
#include "memcarlo/host/detail/textures.h"

// ---- launches the emulation cannot serialize ----------------------------------------------------

// Dynamic parallelism: a launch from device code (memcarlo_launch or cudaLaunchKernel inside a
// kernel) ends the program in run_launch, naming the child kernel and the line. The streams and
// entry points only device-side launches use are declared so that such programs compile.
#define cudaStreamTailLaunch (reinterpret_cast<cudaStream_t>(0x3))
#define cudaStreamFireAndForget (reinterpret_cast<cudaStream_t>(0x4))
inline void* cudaGetParameterBuffer(std::size_t, std::size_t,
                                    ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported("dynamic parallelism (cudaGetParameterBuffer)", where);
}
template <class Function>
cudaError_t cudaLaunchDevice(Function*, void*, dim3, dim3, unsigned = 0, cudaStream_t = nullptr,
                             ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported("dynamic parallelism (cudaLaunchDevice)", where);
}

inline cudaError_t cudaGraphCreate(void*, unsigned, ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported("CUDA graphs (cudaGraphCreate)", where);
}
inline cudaError_t cudaStreamBeginCapture(cudaStream_t, int,
                                          ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported("stream capture (cudaStreamBeginCapture)", where);
}

// ---- device-side traps
// ------------------------------------------------------------------------------

/// A device-side abort: like a kernel hitting `trap`, the program does not continue.
[[noreturn]] inline void __trap(::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::device_trap("__trap()", where);
}
[[noreturn]] inline void __brkpt(::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::device_trap("__brkpt()", where);
}
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
