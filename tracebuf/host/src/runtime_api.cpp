// The non-memory half of the emulated CUDA runtime API: errors, the one emulated device and its
// properties (from the configured limits), streams and events. Work is serialized, so every
// stream is always idle and synchronization calls return at once.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file
// are CUDA's.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "api_errors.hpp"
#include "memcarlo/host/control.hpp"
#include "memcarlo/host/detail/runtime_api.h"

struct CUstream_st {
  unsigned flags = 0;
};
struct CUevent_st {
  std::chrono::steady_clock::time_point time{};
  bool recorded = false;
  unsigned flags = 0;
};

namespace memcarlo::host::detail {
namespace {

thread_local cudaError_t last_error = cudaSuccess;

}  // namespace

cudaError_t api_result(cudaError_t error) {
  if (error != cudaSuccess) {
    last_error = error;
  }
  return error;
}

}  // namespace memcarlo::host::detail

using memcarlo::host::detail::api_result;

cudaError_t cudaGetLastError() {
  const cudaError_t error = memcarlo::host::detail::last_error;
  memcarlo::host::detail::last_error = cudaSuccess;
  return error;
}
cudaError_t cudaPeekAtLastError() {
  return memcarlo::host::detail::last_error;
}

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
#define MEMCARLO_ERROR_NAME(e) \
  case e:                      \
    return #e;
    MEMCARLO_ERROR_NAME(cudaSuccess)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidValue)
    MEMCARLO_ERROR_NAME(cudaErrorMemoryAllocation)
    MEMCARLO_ERROR_NAME(cudaErrorInitializationError)
    MEMCARLO_ERROR_NAME(cudaErrorCudartUnloading)
    MEMCARLO_ERROR_NAME(cudaErrorProfilerDisabled)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidConfiguration)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidPitchValue)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidSymbol)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidHostPointer)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidDevicePointer)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidTexture)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidTextureBinding)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidChannelDescriptor)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidMemcpyDirection)
    MEMCARLO_ERROR_NAME(cudaErrorInsufficientDriver)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidSurface)
    MEMCARLO_ERROR_NAME(cudaErrorDevicesUnavailable)
    MEMCARLO_ERROR_NAME(cudaErrorMissingConfiguration)
    MEMCARLO_ERROR_NAME(cudaErrorLaunchMaxDepthExceeded)
    MEMCARLO_ERROR_NAME(cudaErrorSyncDepthExceeded)
    MEMCARLO_ERROR_NAME(cudaErrorLaunchPendingCountExceeded)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidDeviceFunction)
    MEMCARLO_ERROR_NAME(cudaErrorNoDevice)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidDevice)
    MEMCARLO_ERROR_NAME(cudaErrorStartupFailure)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidKernelImage)
    MEMCARLO_ERROR_NAME(cudaErrorNoKernelImageForDevice)
    MEMCARLO_ERROR_NAME(cudaErrorUnsupportedLimit)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidPtx)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidSource)
    MEMCARLO_ERROR_NAME(cudaErrorFileNotFound)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidResourceHandle)
    MEMCARLO_ERROR_NAME(cudaErrorIllegalState)
    MEMCARLO_ERROR_NAME(cudaErrorSymbolNotFound)
    MEMCARLO_ERROR_NAME(cudaErrorNotReady)
    MEMCARLO_ERROR_NAME(cudaErrorIllegalAddress)
    MEMCARLO_ERROR_NAME(cudaErrorLaunchOutOfResources)
    MEMCARLO_ERROR_NAME(cudaErrorLaunchTimeout)
    MEMCARLO_ERROR_NAME(cudaErrorPeerAccessAlreadyEnabled)
    MEMCARLO_ERROR_NAME(cudaErrorPeerAccessNotEnabled)
    MEMCARLO_ERROR_NAME(cudaErrorSetOnActiveProcess)
    MEMCARLO_ERROR_NAME(cudaErrorAssert)
    MEMCARLO_ERROR_NAME(cudaErrorHostMemoryAlreadyRegistered)
    MEMCARLO_ERROR_NAME(cudaErrorHostMemoryNotRegistered)
    MEMCARLO_ERROR_NAME(cudaErrorIllegalInstruction)
    MEMCARLO_ERROR_NAME(cudaErrorMisalignedAddress)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidAddressSpace)
    MEMCARLO_ERROR_NAME(cudaErrorInvalidPc)
    MEMCARLO_ERROR_NAME(cudaErrorLaunchFailure)
    MEMCARLO_ERROR_NAME(cudaErrorCooperativeLaunchTooLarge)
    MEMCARLO_ERROR_NAME(cudaErrorNotPermitted)
    MEMCARLO_ERROR_NAME(cudaErrorNotSupported)
    MEMCARLO_ERROR_NAME(cudaErrorStreamCaptureUnsupported)
    MEMCARLO_ERROR_NAME(cudaErrorTimeout)
    MEMCARLO_ERROR_NAME(cudaErrorUnknown)
#undef MEMCARLO_ERROR_NAME
  }
  return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess:
      return "no error";
    case cudaErrorInvalidValue:
      return "invalid argument";
    case cudaErrorMemoryAllocation:
      return "out of memory";
    case cudaErrorInvalidConfiguration:
      return "invalid configuration argument";
    case cudaErrorInvalidPitchValue:
      return "invalid pitch argument";
    case cudaErrorInvalidSymbol:
      return "invalid device symbol";
    case cudaErrorInvalidDevicePointer:
      return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection:
      return "invalid copy direction for memcpy";
    case cudaErrorInvalidDevice:
      return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle:
      return "invalid resource handle";
    case cudaErrorNotReady:
      return "device not ready";
    case cudaErrorLaunchOutOfResources:
      return "too many resources requested for launch";
    case cudaErrorLaunchFailure:
      return "unspecified launch failure";
    case cudaErrorNotSupported:
      return "operation not supported";
    default:
      return cudaGetErrorName(error);
  }
}

// Kernels complete inside the launch call and report failures there, so there is nothing to wait
// for and no asynchronous error to return.
cudaError_t cudaDeviceSynchronize() {
  return cudaSuccess;
}
cudaError_t cudaThreadSynchronize() {
  return cudaDeviceSynchronize();
}
cudaError_t cudaDeviceReset() {
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
  return device == 0 ? cudaSuccess : api_result(cudaErrorInvalidDevice);
}
cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  *count = 1;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* properties, int device) {
  if (properties == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  if (device != 0) {
    return api_result(cudaErrorInvalidDevice);
  }
  const memcarlo::host::RuntimeOptions& options = memcarlo::host::runtime_options();
  const memcarlo::host::DeviceLimits& limits = options.limits;
  std::memset(properties, 0, sizeof *properties);
  std::snprintf(properties->name, sizeof properties->name,
                "memcarlo host emulation (%u SMs, sm_%d%d)", limits.sm_count, options.compute_major,
                options.compute_minor);
  properties->totalGlobalMem = std::size_t{16} << 30;
  properties->sharedMemPerBlock = limits.shared_bytes_per_block;
  properties->sharedMemPerBlockOptin = limits.shared_bytes_per_block;
  properties->regsPerBlock = static_cast<int>(limits.registers_per_sm);
  properties->warpSize = 32;
  properties->memPitch = std::size_t{1} << 31;
  properties->maxThreadsPerBlock = static_cast<int>(limits.max_threads_per_block);
  properties->maxThreadsDim[0] = 1024;
  properties->maxThreadsDim[1] = 1024;
  properties->maxThreadsDim[2] = 64;
  properties->maxGridSize[0] = 2147483647;
  properties->maxGridSize[1] = 65535;
  properties->maxGridSize[2] = 65535;
  properties->clockRate = static_cast<int>(options.clock_khz);
  properties->totalConstMem = 65536;
  properties->major = options.compute_major;
  properties->minor = options.compute_minor;
  properties->textureAlignment = 512;
  properties->texturePitchAlignment = 32;
  properties->surfaceAlignment = 512;
  properties->deviceOverlap = 1;
  properties->computeMode = cudaComputeModeDefault;
  properties->hostRegisterSupported = 1;
  properties->concurrentManagedAccess = 1;
  properties->memoryPoolsSupported = 1;  // cudaMallocAsync and pools (runtime_memory_pools.cpp)
  properties->cooperativeLaunch = 1;     // cudaLaunchCooperativeKernel and grid.sync()
  properties->directManagedMemAccessFromHost = 1;
  properties->canUseHostPointerForRegisteredMem = 1;
  properties->multiProcessorCount = static_cast<int>(limits.sm_count);
  properties->canMapHostMemory = 1;
  properties->concurrentKernels = 1;
  properties->asyncEngineCount = 1;
  properties->unifiedAddressing = 1;
  properties->memoryClockRate = 1000000;
  properties->memoryBusWidth = 384;
  properties->l2CacheSize = static_cast<int>(options.l2_bytes);
  properties->maxThreadsPerMultiProcessor = static_cast<int>(limits.max_threads_per_sm);
  properties->sharedMemPerMultiprocessor = limits.shared_bytes_per_sm;
  properties->regsPerMultiprocessor = static_cast<int>(limits.registers_per_sm);
  properties->managedMemory = 1;
  properties->globalL1CacheSupported = 1;
  properties->localL1CacheSupported = 1;
  properties->maxBlocksPerMultiProcessor = static_cast<int>(limits.max_blocks_per_sm);
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attribute, int device) {
  cudaDeviceProp p{};
  if (value == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  if (const cudaError_t error = cudaGetDeviceProperties(&p, device); error != cudaSuccess) {
    return error;
  }
  switch (attribute) {
    case cudaDevAttrMaxThreadsPerBlock:
      *value = p.maxThreadsPerBlock;
      break;
    case cudaDevAttrMaxBlockDimX:
      *value = p.maxThreadsDim[0];
      break;
    case cudaDevAttrMaxBlockDimY:
      *value = p.maxThreadsDim[1];
      break;
    case cudaDevAttrMaxBlockDimZ:
      *value = p.maxThreadsDim[2];
      break;
    case cudaDevAttrMaxGridDimX:
      *value = p.maxGridSize[0];
      break;
    case cudaDevAttrMaxGridDimY:
      *value = p.maxGridSize[1];
      break;
    case cudaDevAttrMaxGridDimZ:
      *value = p.maxGridSize[2];
      break;
    case cudaDevAttrMaxSharedMemoryPerBlock:
      *value = static_cast<int>(p.sharedMemPerBlock);
      break;
    case cudaDevAttrTotalConstantMemory:
      *value = static_cast<int>(p.totalConstMem);
      break;
    case cudaDevAttrWarpSize:
      *value = p.warpSize;
      break;
    case cudaDevAttrMaxRegistersPerBlock:
      *value = p.regsPerBlock;
      break;
    case cudaDevAttrClockRate:
      *value = p.clockRate;
      break;
    case cudaDevAttrMultiProcessorCount:
      *value = p.multiProcessorCount;
      break;
    case cudaDevAttrConcurrentKernels:
      *value = p.concurrentKernels;
      break;
    case cudaDevAttrMemoryClockRate:
      *value = p.memoryClockRate;
      break;
    case cudaDevAttrGlobalMemoryBusWidth:
      *value = p.memoryBusWidth;
      break;
    case cudaDevAttrL2CacheSize:
      *value = p.l2CacheSize;
      break;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
      *value = p.maxThreadsPerMultiProcessor;
      break;
    case cudaDevAttrUnifiedAddressing:
      *value = p.unifiedAddressing;
      break;
    case cudaDevAttrComputeCapabilityMajor:
      *value = p.major;
      break;
    case cudaDevAttrComputeCapabilityMinor:
      *value = p.minor;
      break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
      *value = static_cast<int>(p.sharedMemPerMultiprocessor);
      break;
    case cudaDevAttrMaxRegistersPerMultiprocessor:
      *value = p.regsPerMultiprocessor;
      break;
    case cudaDevAttrManagedMemory:
      *value = p.managedMemory;
      break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
      *value = static_cast<int>(p.sharedMemPerBlockOptin);
      break;
    case cudaDevAttrMaxBlocksPerMultiprocessor:
      *value = p.maxBlocksPerMultiProcessor;
      break;
    case cudaDevAttrMaxPitch:
      *value = static_cast<int>(std::min<std::size_t>(p.memPitch, 2147483647));
      break;
    case cudaDevAttrTextureAlignment:
      *value = static_cast<int>(p.textureAlignment);
      break;
    case cudaDevAttrGpuOverlap:
      *value = p.deviceOverlap;
      break;
    case cudaDevAttrKernelExecTimeout:
      *value = p.kernelExecTimeoutEnabled;
      break;
    case cudaDevAttrIntegrated:
      *value = p.integrated;
      break;
    case cudaDevAttrCanMapHostMemory:
      *value = p.canMapHostMemory;
      break;
    case cudaDevAttrComputeMode:
      *value = p.computeMode;
      break;
    case cudaDevAttrSurfaceAlignment:
      *value = static_cast<int>(p.surfaceAlignment);
      break;
    case cudaDevAttrEccEnabled:
      *value = p.ECCEnabled;
      break;
    case cudaDevAttrPciBusId:
      *value = p.pciBusID;
      break;
    case cudaDevAttrPciDeviceId:
      *value = p.pciDeviceID;
      break;
    case cudaDevAttrPciDomainId:
      *value = p.pciDomainID;
      break;
    case cudaDevAttrTccDriver:
      *value = p.tccDriver;
      break;
    case cudaDevAttrAsyncEngineCount:
      *value = p.asyncEngineCount;
      break;
    case cudaDevAttrTexturePitchAlignment:
      *value = static_cast<int>(p.texturePitchAlignment);
      break;
    case cudaDevAttrStreamPrioritiesSupported:
      *value = p.streamPrioritiesSupported;
      break;
    case cudaDevAttrGlobalL1CacheSupported:
      *value = p.globalL1CacheSupported;
      break;
    case cudaDevAttrLocalL1CacheSupported:
      *value = p.localL1CacheSupported;
      break;
    case cudaDevAttrIsMultiGpuBoard:
      *value = p.isMultiGpuBoard;
      break;
    case cudaDevAttrMultiGpuBoardGroupID:
      *value = p.multiGpuBoardGroupID;
      break;
    case cudaDevAttrHostNativeAtomicSupported:
      *value = p.hostNativeAtomicSupported;
      break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio:
      *value = p.singleToDoublePrecisionPerfRatio;
      break;
    case cudaDevAttrPageableMemoryAccess:
      *value = p.pageableMemoryAccess;
      break;
    case cudaDevAttrConcurrentManagedAccess:
      *value = p.concurrentManagedAccess;
      break;
    case cudaDevAttrComputePreemptionSupported:
      *value = p.computePreemptionSupported;
      break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem:
      *value = p.canUseHostPointerForRegisteredMem;
      break;
    case cudaDevAttrCooperativeLaunch:
      *value = p.cooperativeLaunch;
      break;
    case cudaDevAttrCooperativeMultiDeviceLaunch:
      *value = p.cooperativeMultiDeviceLaunch;
      break;
    case cudaDevAttrCanFlushRemoteWrites:
      *value = 0;
      break;
    case cudaDevAttrHostRegisterSupported:
      *value = p.hostRegisterSupported;
      break;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
      *value = p.pageableMemoryAccessUsesHostPageTables;
      break;
    case cudaDevAttrDirectManagedMemAccessFromHost:
      *value = p.directManagedMemAccessFromHost;
      break;
    case cudaDevAttrMaxPersistingL2CacheSize:
      *value = p.persistingL2CacheMaxSize;
      break;
    case cudaDevAttrMaxAccessPolicyWindowSize:
      *value = p.accessPolicyMaxWindowSize;
      break;
    case cudaDevAttrReservedSharedMemoryPerBlock:
      *value = static_cast<int>(p.reservedSharedMemPerBlock);
      break;
    case cudaDevAttrMemoryPoolsSupported:
      *value = p.memoryPoolsSupported;
      break;
    default:
      return api_result(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* version) {
  if (version == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  *version = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* version) {
  return cudaDriverGetVersion(version);
}
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
  if (free_bytes == nullptr || total_bytes == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  *total_bytes = std::size_t{16} << 30;
  *free_bytes = *total_bytes;
  return cudaSuccess;
}
cudaError_t cudaProfilerStart() {
  return cudaSuccess;
}
cudaError_t cudaProfilerStop() {
  return cudaSuccess;
}

// ---- streams and events: serialized, so always complete ----------------------------------------

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  return cudaStreamCreateWithFlags(stream, 0);
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags) {
  if (stream == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  *stream = new CUstream_st{flags};
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned flags, int) {
  return cudaStreamCreateWithFlags(stream, flags);
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (stream == nullptr) {
    return api_result(cudaErrorInvalidResourceHandle);
  }
  delete stream;
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) {
  return cudaSuccess;
}
cudaError_t cudaStreamQuery(cudaStream_t) {
  return cudaSuccess;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t event, unsigned) {
  return event != nullptr ? cudaSuccess : api_result(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                  void* user_data, unsigned) {
  if (callback == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  callback(stream, cudaSuccess, user_data);
  return cudaSuccess;
}
cudaError_t cudaLaunchHostFunc(cudaStream_t, cudaHostFn_t function, void* user_data) {
  if (function == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  function(user_data);
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  return cudaEventCreateWithFlags(event, 0);
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags) {
  if (event == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  *event = new CUevent_st{{}, false, flags};
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  if (event == nullptr) {
    return api_result(cudaErrorInvalidResourceHandle);
  }
  delete event;
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  if (event == nullptr) {
    return api_result(cudaErrorInvalidResourceHandle);
  }
  event->time = std::chrono::steady_clock::now();
  event->recorded = true;
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return event != nullptr ? cudaSuccess : api_result(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaEventQuery(cudaEvent_t event) {
  return event != nullptr ? cudaSuccess : api_result(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaEventElapsedTime(float* milliseconds, cudaEvent_t start, cudaEvent_t end) {
  if (milliseconds == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  if (start == nullptr || end == nullptr || !start->recorded || !end->recorded ||
      ((start->flags | end->flags) & cudaEventDisableTiming) != 0) {
    return api_result(cudaErrorInvalidResourceHandle);
  }
  *milliseconds = std::chrono::duration<float, std::milli>(end->time - start->time).count();
  return cudaSuccess;
}
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
