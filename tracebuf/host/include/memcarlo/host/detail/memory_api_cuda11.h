// CUDA 11's memory APIs as the host backend provides them: stream-ordered allocation and memory
// pools (runtime_memory_pools.cpp), and L2 persistence with the stream attributes that carry its
// access policy windows (runtime_settings.cpp). The rest of the runtime API: runtime_api.h.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

#include <cstddef>

#include "memcarlo/host/detail/runtime_api.h"

// Stream-ordered allocation (CUDA 11.2): every stream runs in order on the host, so an
// allocation is made and a free done at the call. A memory pool is a handle that keeps its
// attributes and counts the bytes allocated from it; it holds no memory of its own (its reserved
// bytes are its used bytes).
struct CUmemPoolHandle_st;
typedef CUmemPoolHandle_st* cudaMemPool_t;
enum cudaMemPoolAttr {
  cudaMemPoolReuseFollowEventDependencies = 0x1,
  cudaMemPoolReuseAllowOpportunistic = 0x2,
  cudaMemPoolReuseAllowInternalDependencies = 0x3,
  cudaMemPoolAttrReleaseThreshold = 0x4,
  cudaMemPoolAttrReservedMemCurrent = 0x5,
  cudaMemPoolAttrReservedMemHigh = 0x6,
  cudaMemPoolAttrUsedMemCurrent = 0x7,
  cudaMemPoolAttrUsedMemHigh = 0x8,
};
enum cudaMemLocationType {
  cudaMemLocationTypeInvalid = 0,
  cudaMemLocationTypeDevice = 1,
  cudaMemLocationTypeHost = 2,
  cudaMemLocationTypeHostNuma = 3,
  cudaMemLocationTypeHostNumaCurrent = 4,
};
enum cudaMemAllocationType {
  cudaMemAllocationTypeInvalid = 0x0,
  cudaMemAllocationTypePinned = 0x1,
  cudaMemAllocationTypeManaged = 0x2,
};
enum cudaMemAllocationHandleType {
  cudaMemHandleTypeNone = 0x0,
  cudaMemHandleTypePosixFileDescriptor = 0x1,
  cudaMemHandleTypeWin32 = 0x2,
  cudaMemHandleTypeWin32Kmt = 0x4,
  cudaMemHandleTypeFabric = 0x8,
};
enum cudaMemAccessFlags {
  cudaMemAccessFlagsProtNone = 0,
  cudaMemAccessFlagsProtRead = 1,
  cudaMemAccessFlagsProtReadWrite = 3,
};
struct cudaMemLocation {
  cudaMemLocationType type;
  int id;
};
struct cudaMemAccessDesc {
  cudaMemLocation location;
  cudaMemAccessFlags flags;
};
struct cudaMemPoolProps {
  cudaMemAllocationType allocType;
  cudaMemAllocationHandleType handleTypes;
  cudaMemLocation location;
  void* win32SecurityAttributes;
  std::size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};
cudaError_t cudaMallocAsync(void** pointer, std::size_t size, cudaStream_t stream);
cudaError_t cudaMallocFromPoolAsync(void** pointer, std::size_t size, cudaMemPool_t pool,
                                    cudaStream_t stream);
cudaError_t cudaFreeAsync(void* pointer, cudaStream_t stream);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device);
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool);
cudaError_t cudaMemPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* properties);
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attribute, void* value);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, std::size_t keep_bytes);
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const cudaMemAccessDesc* descriptors,
                                 std::size_t count);
cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags* flags, cudaMemPool_t pool,
                                 cudaMemLocation* location);

// L2 persistence (CUDA 11): the types and calls, so that programs using them compile. The
// emulated device has no persisting L2 lines (cudaDeviceProp::persistingL2CacheMaxSize is 0, as
// on GPUs before Ampere, and the hierarchy models none), so a persisting L2 size above 0 is
// refused as CUDA refuses it there; stream attributes are kept and read back, and change nothing.
enum cudaAccessProperty {
  cudaAccessPropertyNormal = 0,
  cudaAccessPropertyStreaming = 1,
  cudaAccessPropertyPersisting = 2,
};
struct cudaAccessPolicyWindow {
  void* base_ptr;
  std::size_t num_bytes;
  float hitRatio;
  cudaAccessProperty hitProp;
  cudaAccessProperty missProp;
};
enum cudaSynchronizationPolicy {
  cudaSyncPolicyAuto = 1,
  cudaSyncPolicySpin = 2,
  cudaSyncPolicyYield = 3,
  cudaSyncPolicyBlockingSync = 4,
};
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeSynchronizationPolicy = 3,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributeProgrammaticEvent = 7,
  cudaLaunchAttributePriority = 8,
  cudaLaunchAttributeMemSyncDomainMap = 9,
  cudaLaunchAttributeMemSyncDomain = 10,
};
/// CUDA's union less the members of features the emulation has no types for; 64 bytes as CUDA's.
union cudaLaunchAttributeValue {
  char pad[64];
  cudaAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  cudaSynchronizationPolicy syncPolicy;
  struct {
    unsigned x;
    unsigned y;
    unsigned z;
  } clusterDim;
  int programmaticStreamSerializationAllowed;
  int priority;
};
typedef cudaLaunchAttributeID cudaStreamAttrID;
typedef cudaLaunchAttributeValue cudaStreamAttrValue;
#define cudaStreamAttributeAccessPolicyWindow cudaLaunchAttributeAccessPolicyWindow
#define cudaStreamAttributeSynchronizationPolicy cudaLaunchAttributeSynchronizationPolicy
#define cudaStreamAttributePriority cudaLaunchAttributePriority
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attribute,
                                   const cudaStreamAttrValue* value);
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attribute,
                                   cudaStreamAttrValue* value);
cudaError_t cudaCtxResetPersistingL2Cache();

// ---- allocation names, as cudaMalloc's (runtime_api.h)
// -------------------------------------------------

namespace memcarlo::host::detail {
/// cudaMallocAsync and cudaMallocFromPoolAsync that name the allocation as cudaMalloc does.
cudaError_t malloc_async_named(void** pointer, std::size_t size, cudaMemPool_t pool,
                               const char* call_text);
template <class Element>
cudaError_t cuda_malloc_async_named(const char* call_text, Element** pointer, std::size_t size,
                                    cudaStream_t) {
  return malloc_async_named(reinterpret_cast<void**>(pointer), size, nullptr, call_text);
}
/// cuda_runtime.h's cudaMallocAsync(pointer, size, pool, stream): from the pool.
template <class Element>
cudaError_t cuda_malloc_async_named(const char* call_text, Element** pointer, std::size_t size,
                                    cudaMemPool_t pool, cudaStream_t) {
  return malloc_async_named(reinterpret_cast<void**>(pointer), size, pool, call_text);
}
template <class Element>
cudaError_t cuda_malloc_from_pool_named(const char* call_text, Element** pointer,
                                        std::size_t size, cudaMemPool_t pool, cudaStream_t) {
  return malloc_async_named(reinterpret_cast<void**>(pointer), size, pool, call_text);
}
}  // namespace memcarlo::host::detail

#define cudaMallocAsync(...) \
  ::memcarlo::host::detail::cuda_malloc_async_named(#__VA_ARGS__, __VA_ARGS__)
#define cudaMallocFromPoolAsync(...) \
  ::memcarlo::host::detail::cuda_malloc_from_pool_named(#__VA_ARGS__, __VA_ARGS__)
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
