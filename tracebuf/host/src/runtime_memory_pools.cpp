// Stream-ordered allocation and memory pools of the emulated CUDA runtime API. Every stream runs
// in order on the host, so cudaMallocAsync allocates and cudaFreeAsync frees at the call, through
// the same registry as cudaMalloc (the trace names the allocation alike). A pool is a handle that
// keeps its attributes and access flags and counts the bytes allocated from it and not yet freed;
// it holds no memory of its own, so its reserved bytes are its used bytes and trimming it has
// nothing to release.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file
// are CUDA's.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "api_errors.hpp"
#include "memory_pools.hpp"
#include "memcarlo/host/detail/memory_api_cuda11.h"

#undef cudaMallocAsync
#undef cudaMallocFromPoolAsync

struct CUmemPoolHandle_st {
  std::uint64_t release_threshold = 0;
  int reuse[3] = {1, 1, 1};  // the three cudaMemPoolReuse* attributes, enabled as in CUDA
  std::uint64_t used = 0;
  std::uint64_t used_high = 0;
  std::uint64_t reserved_high = 0;
  cudaMemAccessFlags access = cudaMemAccessFlagsProtReadWrite;  // the device's own access
  bool destroyed = false;
};

namespace memcarlo::host::detail {
namespace {

struct Pools {
  std::mutex mutex;
  CUmemPoolHandle_st default_pool;
  cudaMemPool_t current = &default_pool;
  std::vector<std::unique_ptr<CUmemPoolHandle_st>> created;  // kept after destruction: handles
  std::map<const void*, std::pair<cudaMemPool_t, std::uint64_t>> allocations;
};

Pools& pools() {
  static Pools state;
  return state;
}

/// Whether `pool` is the default pool or one cudaMemPoolCreate made and nothing destroyed (null
/// is neither).
bool valid_locked(const Pools& state, cudaMemPool_t pool) {
  if (pool == &state.default_pool) return true;
  return std::any_of(state.created.begin(), state.created.end(),
                     [pool](const auto& made) { return made.get() == pool && !made->destroyed; });
}

}  // namespace

cudaError_t malloc_async_named(void** pointer, std::size_t size, cudaMemPool_t pool,
                               const char* call_text) {
  Pools& state = pools();
  {
    const std::lock_guard lock(state.mutex);
    if (pool == nullptr) pool = state.current;
    if (!valid_locked(state, pool)) return api_result(cudaErrorInvalidValue);
  }
  const cudaError_t result = malloc_named(pointer, size, false, call_text);
  if (result != cudaSuccess || *pointer == nullptr) return result;
  const std::lock_guard lock(state.mutex);
  state.allocations[*pointer] = {pool, size};
  pool->used += size;
  pool->used_high = std::max(pool->used_high, pool->used);
  pool->reserved_high = std::max(pool->reserved_high, pool->used);
  return cudaSuccess;
}

void forget_pool_allocation(const void* pointer) {
  Pools& state = pools();
  const std::lock_guard lock(state.mutex);
  const auto found = state.allocations.find(pointer);
  if (found == state.allocations.end()) return;
  found->second.first->used -= found->second.second;
  state.allocations.erase(found);
}

}  // namespace memcarlo::host::detail

using memcarlo::host::detail::api_result;
using memcarlo::host::detail::Pools;
using memcarlo::host::detail::pools;
using memcarlo::host::detail::valid_locked;

cudaError_t cudaMallocAsync(void** pointer, std::size_t size, cudaStream_t) {
  return memcarlo::host::detail::malloc_async_named(pointer, size, nullptr, "");
}

cudaError_t cudaMallocFromPoolAsync(void** pointer, std::size_t size, cudaMemPool_t pool,
                                    cudaStream_t) {
  if (pool == nullptr) return api_result(cudaErrorInvalidValue);
  return memcarlo::host::detail::malloc_async_named(pointer, size, pool, "");
}

cudaError_t cudaFreeAsync(void* pointer, cudaStream_t) {
  return cudaFree(pointer);  // cudaFree forgets the pool's bytes
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
  if (pool == nullptr) return api_result(cudaErrorInvalidValue);
  if (device != 0) return api_result(cudaErrorInvalidDevice);
  *pool = &pools().default_pool;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device) {
  if (pool == nullptr) return api_result(cudaErrorInvalidValue);
  if (device != 0) return api_result(cudaErrorInvalidDevice);
  const std::lock_guard lock(pools().mutex);
  *pool = pools().current;
  return cudaSuccess;
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
  if (device != 0) return api_result(cudaErrorInvalidDevice);
  const std::lock_guard lock(pools().mutex);
  if (!valid_locked(pools(), pool)) {
    return api_result(cudaErrorInvalidValue);
  }
  pools().current = pool;
  return cudaSuccess;
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* properties) {
  if (pool == nullptr || properties == nullptr) return api_result(cudaErrorInvalidValue);
  const bool kind = properties->allocType == cudaMemAllocationTypePinned ||
                    properties->allocType == cudaMemAllocationTypeManaged;
  const cudaMemLocation& where = properties->location;
  const bool place = (where.type == cudaMemLocationTypeDevice && where.id == 0) ||
                     where.type == cudaMemLocationTypeHost;
  if (!kind || !place) return api_result(cudaErrorInvalidValue);
  const std::lock_guard lock(pools().mutex);
  pools().created.push_back(std::make_unique<CUmemPoolHandle_st>());
  *pool = pools().created.back().get();
  return cudaSuccess;
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool) {
  Pools& state = pools();
  const std::lock_guard lock(state.mutex);
  if (pool == &state.default_pool || !valid_locked(state, pool)) {
    return api_result(cudaErrorInvalidValue);
  }
  pool->destroyed = true;  // its allocations stay valid until freed, as in CUDA
  if (state.current == pool) state.current = &state.default_pool;
  return cudaSuccess;
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value) {
  const std::lock_guard lock(pools().mutex);
  if (value == nullptr || !valid_locked(pools(), pool)) {
    return api_result(cudaErrorInvalidValue);
  }
  std::uint64_t bytes = 0;
  switch (attribute) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
      std::memcpy(&pool->reuse[attribute - cudaMemPoolReuseFollowEventDependencies], value,
                  sizeof(int));
      return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
      std::memcpy(&pool->release_threshold, value, sizeof bytes);
      return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh:
      // Only a reset: CUDA takes 0, which sets the high-water mark to the current bytes.
      std::memcpy(&bytes, value, sizeof bytes);
      if (bytes != 0) return api_result(cudaErrorInvalidValue);
      (attribute == cudaMemPoolAttrUsedMemHigh ? pool->used_high : pool->reserved_high) =
          pool->used;
      return cudaSuccess;
    case cudaMemPoolAttrReservedMemCurrent:
    case cudaMemPoolAttrUsedMemCurrent:
      break;
  }
  return api_result(cudaErrorInvalidValue);
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value) {
  const std::lock_guard lock(pools().mutex);
  if (value == nullptr || !valid_locked(pools(), pool)) {
    return api_result(cudaErrorInvalidValue);
  }
  std::uint64_t bytes = 0;
  switch (attribute) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
      std::memcpy(value, &pool->reuse[attribute - cudaMemPoolReuseFollowEventDependencies],
                  sizeof(int));
      return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
      bytes = pool->release_threshold;
      break;
    case cudaMemPoolAttrReservedMemCurrent:
    case cudaMemPoolAttrUsedMemCurrent:
      bytes = pool->used;
      break;
    case cudaMemPoolAttrReservedMemHigh:
      bytes = pool->reserved_high;
      break;
    case cudaMemPoolAttrUsedMemHigh:
      bytes = pool->used_high;
      break;
    default:
      return api_result(cudaErrorInvalidValue);
  }
  std::memcpy(value, &bytes, sizeof bytes);
  return cudaSuccess;
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, std::size_t) {
  const std::lock_guard lock(pools().mutex);
  return valid_locked(pools(), pool) ? cudaSuccess : api_result(cudaErrorInvalidValue);
}

cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const cudaMemAccessDesc* descriptors,
                                 std::size_t count) {
  const std::lock_guard lock(pools().mutex);
  if ((descriptors == nullptr && count > 0) || !valid_locked(pools(), pool)) {
    return api_result(cudaErrorInvalidValue);
  }
  for (std::size_t i = 0; i < count; ++i) {
    const cudaMemLocation& where = descriptors[i].location;
    if (where.type != cudaMemLocationTypeDevice || where.id != 0) {
      return api_result(cudaErrorInvalidDevice);
    }
  }
  for (std::size_t i = 0; i < count; ++i) pool->access = descriptors[i].flags;
  return cudaSuccess;
}

cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags* flags, cudaMemPool_t pool,
                                 cudaMemLocation* location) {
  const std::lock_guard lock(pools().mutex);
  if (flags == nullptr || location == nullptr || !valid_locked(pools(), pool)) {
    return api_result(cudaErrorInvalidValue);
  }
  if (location->type != cudaMemLocationTypeDevice || location->id != 0) {
    return api_result(cudaErrorInvalidDevice);
  }
  *flags = pool->access;
  return cudaSuccess;
}
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
