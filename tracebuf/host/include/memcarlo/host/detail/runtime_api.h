// The CUDA runtime API as the host backend provides it: errors, device memory (which the runtime
// records, so that probes keep only device addresses), symbols, streams and events (serialized:
// every call completes before it returns), device properties and occupancy queries.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

#include <cstddef>
#include <cstring>
#include "memcarlo/host/detail/call_site.h"

#include "memcarlo/host/detail/vector_types.h"

#define CUDART_VERSION 12000
#define CUDA_VERSION 12000
#define CUDART_CB
#define CUDARTAPI

enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorProfilerDisabled = 5,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidTexture = 18,
  cudaErrorInvalidTextureBinding = 19,
  cudaErrorInvalidChannelDescriptor = 20,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInsufficientDriver = 35,
  cudaErrorInvalidSurface = 37,
  cudaErrorDevicesUnavailable = 46,
  cudaErrorMissingConfiguration = 52,
  cudaErrorLaunchMaxDepthExceeded = 65,
  cudaErrorSyncDepthExceeded = 68,
  cudaErrorLaunchPendingCountExceeded = 69,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorStartupFailure = 127,
  cudaErrorInvalidKernelImage = 200,
  cudaErrorNoKernelImageForDevice = 209,
  cudaErrorUnsupportedLimit = 215,
  cudaErrorInvalidPtx = 218,
  cudaErrorInvalidSource = 300,
  cudaErrorFileNotFound = 301,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorIllegalState = 401,
  cudaErrorSymbolNotFound = 500,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorPeerAccessAlreadyEnabled = 704,
  cudaErrorPeerAccessNotEnabled = 705,
  cudaErrorSetOnActiveProcess = 708,
  cudaErrorAssert = 710,
  cudaErrorHostMemoryAlreadyRegistered = 712,
  cudaErrorHostMemoryNotRegistered = 713,
  cudaErrorIllegalInstruction = 715,
  cudaErrorMisalignedAddress = 716,
  cudaErrorInvalidAddressSpace = 717,
  cudaErrorInvalidPc = 718,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorNotPermitted = 800,
  cudaErrorNotSupported = 801,
  cudaErrorStreamCaptureUnsupported = 900,
  cudaErrorTimeout = 909,
  cudaErrorUnknown = 999,
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3,
};
enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2,
};
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};
enum cudaLimit {
  cudaLimitStackSize = 0,
  cudaLimitPrintfFifoSize = 1,
  cudaLimitMallocHeapSize = 2,
  cudaLimitDevRuntimeSyncDepth = 3,
  cudaLimitDevRuntimePendingLaunchCount = 4,
  cudaLimitMaxL2FetchGranularity = 5,
  cudaLimitPersistingL2CacheSize = 6,
};
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1,
  cudaMemAdviseUnsetReadMostly = 2,
  cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4,
  cudaMemAdviseSetAccessedBy = 5,
  cudaMemAdviseUnsetAccessedBy = 6,
};
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxPitch = 11,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrTextureAlignment = 14,
  cudaDevAttrGpuOverlap = 15,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrKernelExecTimeout = 17,
  cudaDevAttrIntegrated = 18,
  cudaDevAttrCanMapHostMemory = 19,
  cudaDevAttrComputeMode = 20,
  cudaDevAttrSurfaceAlignment = 30,
  cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrEccEnabled = 32,
  cudaDevAttrPciBusId = 33,
  cudaDevAttrPciDeviceId = 34,
  cudaDevAttrTccDriver = 35,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrAsyncEngineCount = 40,
  cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrPciDomainId = 50,
  cudaDevAttrTexturePitchAlignment = 51,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrStreamPrioritiesSupported = 78,
  cudaDevAttrGlobalL1CacheSupported = 79,
  cudaDevAttrLocalL1CacheSupported = 80,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrIsMultiGpuBoard = 84,
  cudaDevAttrMultiGpuBoardGroupID = 85,
  cudaDevAttrHostNativeAtomicSupported = 86,
  cudaDevAttrSingleToDoublePrecisionPerfRatio = 87,
  cudaDevAttrPageableMemoryAccess = 88,
  cudaDevAttrConcurrentManagedAccess = 89,
  cudaDevAttrComputePreemptionSupported = 90,
  cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrCooperativeMultiDeviceLaunch = 96,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrCanFlushRemoteWrites = 98,
  cudaDevAttrHostRegisterSupported = 99,
  cudaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
  cudaDevAttrDirectManagedMemAccessFromHost = 101,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106,
  cudaDevAttrMaxPersistingL2CacheSize = 108,
  cudaDevAttrMaxAccessPolicyWindowSize = 109,
  cudaDevAttrReservedSharedMemoryPerBlock = 111,
  cudaDevAttrMemoryPoolsSupported = 115,
};
/// What cudaDevAttrComputeMode and cudaDeviceProp::computeMode report (always the default).
enum cudaComputeMode {
  cudaComputeModeDefault = 0,
  cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3,
};

#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaCpuDeviceId (-1)

struct CUstream_st;
struct CUevent_st;
typedef CUstream_st* cudaStream_t;
typedef CUevent_st* cudaEvent_t;
#define cudaStreamLegacy (static_cast<cudaStream_t>(nullptr))
#define cudaStreamPerThread (static_cast<cudaStream_t>(nullptr))
typedef void (*cudaStreamCallback_t)(cudaStream_t, cudaError_t, void*);
typedef void (*cudaHostFn_t)(void*);

/// 16 bytes identifying a device (cudaDeviceProp::uuid).
struct CUuuid_st {
  char bytes[16];
};
typedef CUuuid_st cudaUUID_t;

/// Filled from the device limits the runtime was configured with (docs/host-runtime.md); the
/// fields CUDA has and the emulation has no value for are 0. deviceQuery-style programs print
/// them all, so every field of CUDA 12's cudaDeviceProp is here.
struct cudaDeviceProp {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned luidDeviceNodeMask;
  std::size_t totalGlobalMem;
  std::size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  std::size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  std::size_t totalConstMem;
  int major;
  int minor;
  std::size_t textureAlignment;
  std::size_t texturePitchAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture1DLinear;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  std::size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  std::size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int singleToDoublePrecisionPerfRatio;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  std::size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  std::size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
};

struct cudaFuncAttributes {
  std::size_t sharedSizeBytes;
  std::size_t constSizeBytes;
  std::size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
};

cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);

cudaError_t cudaDeviceSynchronize();
cudaError_t cudaThreadSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* properties, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int device);
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config);
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config);
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* config);
cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value);
cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit);
cudaError_t cudaDriverGetVersion(int* version);
cudaError_t cudaRuntimeGetVersion(int* version);
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes);
cudaError_t cudaProfilerStart();
cudaError_t cudaProfilerStop();

cudaError_t cudaMalloc(void** pointer, std::size_t size);
cudaError_t cudaMallocManaged(void** pointer, std::size_t size,
                              unsigned flags = cudaMemAttachGlobal);
cudaError_t cudaMallocPitch(void** pointer, std::size_t* pitch, std::size_t width,
                            std::size_t height);
cudaError_t cudaFree(void* pointer);
cudaError_t cudaMallocHost(void** pointer, std::size_t size);
cudaError_t cudaHostAlloc(void** pointer, std::size_t size, unsigned flags);
cudaError_t cudaFreeHost(void* pointer);
cudaError_t cudaHostRegister(void* pointer, std::size_t size, unsigned flags);
cudaError_t cudaHostUnregister(void* pointer);
cudaError_t cudaHostGetDevicePointer(void** device_pointer, void* host_pointer, unsigned flags);
cudaError_t cudaMemcpy(void* destination, const void* source, std::size_t count,
                       cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* destination, const void* source, std::size_t count,
                            cudaMemcpyKind kind, cudaStream_t stream = nullptr);
cudaError_t cudaMemcpy2D(void* destination, std::size_t destination_pitch, const void* source,
                         std::size_t source_pitch, std::size_t width, std::size_t height,
                         cudaMemcpyKind kind);
cudaError_t cudaMemcpy2DAsync(void* destination, std::size_t destination_pitch, const void* source,
                              std::size_t source_pitch, std::size_t width, std::size_t height,
                              cudaMemcpyKind kind, cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void* pointer, int value, std::size_t count);
cudaError_t cudaMemsetAsync(void* pointer, int value, std::size_t count,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemset2D(void* pointer, std::size_t pitch, int value, std::size_t width,
                         std::size_t height);
cudaError_t cudaMemPrefetchAsync(const void* pointer, std::size_t count, int device,
                                 cudaStream_t stream = nullptr);
cudaError_t cudaMemAdvise(const void* pointer, std::size_t count, cudaMemoryAdvise advice,
                          int device);

template <class Element>
cudaError_t cudaMalloc(Element** pointer, std::size_t size) {
  return cudaMalloc(reinterpret_cast<void**>(pointer), size);
}
template <class Element>
cudaError_t cudaMallocManaged(Element** pointer, std::size_t size,
                              unsigned flags = cudaMemAttachGlobal) {
  return cudaMallocManaged(reinterpret_cast<void**>(pointer), size, flags);
}
template <class Element>
cudaError_t cudaMallocHost(Element** pointer, std::size_t size) {
  return cudaMallocHost(reinterpret_cast<void**>(pointer), size);
}
template <class Element>
cudaError_t cudaHostAlloc(Element** pointer, std::size_t size, unsigned flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(pointer), size, flags);
}
template <class Element>
cudaError_t cudaMallocPitch(Element** pointer, std::size_t* pitch, std::size_t width,
                            std::size_t height) {
  return cudaMallocPitch(reinterpret_cast<void**>(pointer), pitch, width, height);
}

cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags);
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned flags, int priority);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamQuery(cudaStream_t stream);
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags = 0);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void* user_data, unsigned flags);
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t function, void* user_data);
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventQuery(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end);

// ---- per-kernel settings and occupancy
// ------------------------------------------------------------

namespace memcarlo::host::detail {
/// Resident blocks of `block_size` threads per SM under the configured limits (0: does not fit).
int resident_blocks_for(int block_size, std::size_t dynamic_shared_bytes);
void fill_function_attributes(cudaFuncAttributes* attributes);
}  // namespace memcarlo::host::detail

template <class Function>
cudaError_t cudaFuncSetCacheConfig(Function*, cudaFuncCache) {
  return cudaSuccess;
}
template <class Function>
cudaError_t cudaFuncSetSharedMemConfig(Function*, cudaSharedMemConfig) {
  return cudaSuccess;
}
template <class Function>
cudaError_t cudaFuncSetAttribute(Function*, cudaFuncAttribute, int) {
  return cudaSuccess;
}
template <class Function>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attributes, Function*) {
  ::memcarlo::host::detail::fill_function_attributes(attributes);
  return cudaSuccess;
}
template <class Function>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, Function*, int block_size,
                                                          std::size_t dynamic_shared_bytes) {
  *blocks = ::memcarlo::host::detail::resident_blocks_for(block_size, dynamic_shared_bytes);
  return cudaSuccess;
}
/// The block size (a multiple of 32 up to the limit) with the most resident threads per SM.
template <class Function>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid_size, int* block_size, Function*,
                                               std::size_t dynamic_shared_bytes = 0,
                                               int block_size_limit = 0) {
  cudaDeviceProp properties{};
  cudaGetDeviceProperties(&properties, 0);
  const int limit = block_size_limit > 0 ? block_size_limit : properties.maxThreadsPerBlock;
  int best_size = 32;
  int best_threads = 0;
  for (int size = 32; size <= limit; size += 32) {
    const int threads =
        size * ::memcarlo::host::detail::resident_blocks_for(size, dynamic_shared_bytes);
    if (threads > best_threads) {
      best_threads = threads;
      best_size = size;
    }
  }
  *block_size = best_size;
  *min_grid_size = properties.multiProcessorCount * (best_threads / best_size);
  return cudaSuccess;
}

// ---- allocation names
// ------------------------------------------------------------------------------

namespace memcarlo::host::detail {
/// cudaMalloc that also records the variable named in the call's first argument, e.g.
/// "(void**)&d_val, bytes" names the allocation "d_val" in the trace's allocation table.
cudaError_t malloc_named(void** pointer, std::size_t size, bool managed, const char* call_text);
template <class Element>
cudaError_t cuda_malloc_named(const char* call_text, Element** pointer, std::size_t size) {
  return malloc_named(reinterpret_cast<void**>(pointer), size, false, call_text);
}
template <class Element>
cudaError_t cuda_malloc_managed_named(const char* call_text, Element** pointer, std::size_t size,
                                      unsigned = cudaMemAttachGlobal) {
  return malloc_named(reinterpret_cast<void**>(pointer), size, true, call_text);
}
}  // namespace memcarlo::host::detail

/// Names a device allocation for the trace (host-backend extension; no-op for unknown pointers).
void memcarlo_name_allocation(const void* base, const char* name);

#define cudaMalloc(...) ::memcarlo::host::detail::cuda_malloc_named(#__VA_ARGS__, __VA_ARGS__)
#define cudaMallocManaged(...) \
  ::memcarlo::host::detail::cuda_malloc_managed_named(#__VA_ARGS__, __VA_ARGS__)
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
