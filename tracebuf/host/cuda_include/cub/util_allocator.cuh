// cub::CachingDeviceAllocator for memcarlo's host backend: the same calls, each allocation a
// cudaMalloc of the emulation and each free a cudaFree (nothing is cached: the emulation's
// allocations are cheap and never reuse addresses, which keeps traces alike from run to run).
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <cstddef>

#include "detail/memcarlo_cub.cuh"

namespace cub {

struct CachingDeviceAllocator {
  static constexpr unsigned INVALID_BIN = static_cast<unsigned>(-1);
  static constexpr std::size_t INVALID_SIZE = static_cast<std::size_t>(-1);
  static constexpr int INVALID_DEVICE_ORDINAL = -1;

  explicit CachingDeviceAllocator(unsigned = 8, unsigned = 3, unsigned = 7,
                                  std::size_t = static_cast<std::size_t>(-1), bool = false,
                                  bool = false) {}
  explicit CachingDeviceAllocator(bool, bool = false) {}

  cudaError_t SetMaxCachedBytes(std::size_t) { return cudaSuccess; }
  cudaError_t DeviceAllocate(int, void** d_ptr, std::size_t bytes, cudaStream_t = 0) {
    return cudaMalloc(d_ptr, bytes);
  }
  cudaError_t DeviceAllocate(void** d_ptr, std::size_t bytes, cudaStream_t = 0) {
    return cudaMalloc(d_ptr, bytes);
  }
  cudaError_t DeviceFree(int, void* d_ptr) { return cudaFree(d_ptr); }
  cudaError_t DeviceFree(void* d_ptr) { return cudaFree(d_ptr); }
  cudaError_t FreeAllCached() { return cudaSuccess; }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
