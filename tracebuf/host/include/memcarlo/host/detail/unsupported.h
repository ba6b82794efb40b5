// CUDA features the host backend does not emulate. They are declared so that programs using them
// compile, and fail when reached with a message naming the construct and the source line: the
// emulation never silently computes something else.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

#include <cstddef>
#include "memcarlo/host/detail/call_site.h"

#include "memcarlo/host/detail/runtime_api.h"

namespace memcarlo::host::detail {
/// Prints "memcarlo host runtime: <construct> is not supported by the host backend (file:line)"
/// and exits with status 69 (EX_UNAVAILABLE), leaving the trace as a readable prefix.
[[noreturn]] void unsupported(const char* construct, ::memcarlo::host::CallSite where);
/// A kernel reached __trap() or __brkpt(): reports where and aborts, as a GPU would fail the
/// launch.
[[noreturn]] void device_trap(const char* construct, ::memcarlo::host::CallSite where);
}  // namespace memcarlo::host::detail

// ---- textures and surfaces
// -------------------------------------------------------------------------

enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
struct cudaChannelFormatDesc {
  int x, y, z, w;
  int f;
};
struct cudaResourceDesc;
struct cudaTextureDesc;
struct cudaResourceViewDesc;
struct cudaArray;
typedef cudaArray* cudaArray_t;

template <class T, int Dimensions = 1, cudaTextureReadMode Mode = cudaReadModeElementType>
struct texture {
  int normalized = 0;
  int filterMode = 0;
  int addressMode[3] = {0, 0, 0};
};

template <class T>
cudaChannelFormatDesc cudaCreateChannelDesc() {
  return cudaChannelFormatDesc{static_cast<int>(8 * sizeof(T)), 0, 0, 0, 0};
}

template <class T, int D, cudaTextureReadMode M>
cudaError_t cudaBindTexture(std::size_t*, const texture<T, D, M>&, const void*, std::size_t = ~0ul,
                            ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported("texture references (cudaBindTexture)", where);
}
template <class T, int D, cudaTextureReadMode M>
cudaError_t cudaBindTexture2D(std::size_t*, const texture<T, D, M>&, const void*,
                              const cudaChannelFormatDesc&, std::size_t, std::size_t, std::size_t,
                              ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported("texture references (cudaBindTexture2D)", where);
}
template <class T, int D, cudaTextureReadMode M>
cudaError_t cudaUnbindTexture(const texture<T, D, M>&, ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported("texture references (cudaUnbindTexture)", where);
}
template <class T, int D, cudaTextureReadMode M>
T tex1Dfetch(const texture<T, D, M>&, int, ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported("texture fetches (tex1Dfetch)", where);
}
template <class T, int D, cudaTextureReadMode M>
T tex1D(const texture<T, D, M>&, float, ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported("texture fetches (tex1D)", where);
}
template <class T, int D, cudaTextureReadMode M>
T tex2D(const texture<T, D, M>&, float, float, ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported("texture fetches (tex2D)", where);
}
template <class T, int D, cudaTextureReadMode M>
T tex3D(const texture<T, D, M>&, float, float, float, ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported("texture fetches (tex3D)", where);
}
template <class T>
T tex1Dfetch(cudaTextureObject_t, int, ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported("texture objects (tex1Dfetch)", where);
}
template <class T>
T tex2D(cudaTextureObject_t, float, float, ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported("texture objects (tex2D)", where);
}
inline cudaError_t cudaCreateTextureObject(cudaTextureObject_t*, const cudaResourceDesc*,
                                           const cudaTextureDesc*, const cudaResourceViewDesc*,
                                           ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported("texture objects (cudaCreateTextureObject)", where);
}
inline cudaError_t cudaDestroyTextureObject(cudaTextureObject_t,
                                            ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported("texture objects (cudaDestroyTextureObject)", where);
}
inline cudaError_t cudaMallocArray(cudaArray_t*, const cudaChannelFormatDesc*, std::size_t,
                                   std::size_t = 0, unsigned = 0,
                                   ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported("CUDA arrays (cudaMallocArray)", where);
}
template <class T>
void surf2Dwrite(T, cudaSurfaceObject_t, int, int, ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported("surfaces (surf2Dwrite)", where);
}
template <class T>
T surf2Dread(cudaSurfaceObject_t, int, int, ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported("surfaces (surf2Dread)", where);
}

// ---- launches the emulation cannot serialize ----------------------------------------------------

template <class F>
cudaError_t cudaLaunchCooperativeKernel(F*, dim3, dim3, void**, std::size_t = 0,
                                        cudaStream_t = nullptr,
                                        ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported(
      "cooperative launches (cudaLaunchCooperativeKernel: grid-wide synchronization)", where);
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
