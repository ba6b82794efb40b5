// Stand-in for Thrust's <thrust/system/cpp/detail/malloc_and_free.h> on the host backend: the C++
// system's raw allocations (thrust::device_malloc, thrust::malloc, the temporary buffers of its
// algorithms) are the emulation's device memory, as a device_vector's storage is
// (thrust/system/cpp/memory_resource.h), so that cudaMemcpy to and from a device_ptr of
// thrust::device_malloc is a device copy (the CUDA samples' segmentationTreeThrust) and kernels'
// accesses to it are traced and bounds-checked. Thrust's header uses std::malloc; these overloads
// for the C++ system's policies are closer to them than the sequential system's.
#pragma once

#include <thrust/detail/config.h>
#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/system/cpp/detail/execution_policy.h>
#include <thrust/system/detail/sequential/malloc_and_free.h>
#include <cstddef>

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cpp {
namespace detail {

template <typename DerivedPolicy>
inline void* malloc(execution_policy<DerivedPolicy>&, std::size_t bytes) {
  void* pointer = nullptr;
  return cudaMalloc(&pointer, bytes > 0 ? bytes : 1) == cudaSuccess ? pointer : nullptr;
}

template <typename DerivedPolicy, typename Pointer>
inline void free(execution_policy<DerivedPolicy>&, Pointer pointer) {
  cudaFree(thrust::raw_pointer_cast(pointer));
}

}  // namespace detail
}  // namespace cpp
}  // namespace system
THRUST_NAMESPACE_END
