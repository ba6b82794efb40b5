// memcarlo's own CUDA declarations, force-included by the instrumenter's "builtin" parse setup
// (clang -nocudainc -nocudalib). Declarations only: enough API surface for Clang to parse classic
// CUDA programs (including APIs that CUDA 12/13 removed); nothing here is ever compiled into output.
#ifndef MEMCARLO_CUDA_DECLS_H
#define MEMCARLO_CUDA_DECLS_H

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
// Clang 15 and later know __noinline__ as a keyword (libstdc++ 12 spells
// __attribute__((__noinline__)), which a macro would break).
#if __clang_major__ < 15
#define __noinline__ __attribute__((noinline))
#endif
#define __align__(bytes) __attribute__((aligned(bytes)))
#define __builtin_align__(bytes) __attribute__((aligned(bytes)))
#define __device_builtin__
#define __cudart_builtin__
#define CUDART_CB
#define CUDARTAPI
#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#define CUDA_VERSION 11080
#define CUDART_VERSION 11080
#define __CUDACC_VER_MAJOR__ 11
#define __CUDACC_VER_MINOR__ 8
#define CUDART_PI_F 3.141592654f
#define CUDART_INF_F __builtin_huge_valf()
#define CUDART_NAN_F __builtin_nanf("")
#define CUDART_INF __builtin_huge_val()

// The C library functions device code may call (printf, malloc, memcpy, sqrtf, clock, ...)
// become __host__ __device__ for the parse, as nvcc's own headers declare them. Only the C
// headers: libstdc++'s <math.h> and <stdlib.h> are wrappers around <cmath> and <cstdlib>, which
// pull in <bits/stl_algobase.h>; had its functions become __host__ __device__ here, the host
// declarations that <vector>, <algorithm> or <tuple> add to the same names later would not
// parse ("__host__ function '__fill_a1' cannot overload __host__ __device__ function").
// _GLIBCXX_INCLUDE_NEXT_C_HEADERS makes those wrappers include the C library's header directly.
#pragma clang force_cuda_host_device begin
#pragma push_macro("_GLIBCXX_INCLUDE_NEXT_C_HEADERS")
#define _GLIBCXX_INCLUDE_NEXT_C_HEADERS 1
#include <assert.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#pragma pop_macro("_GLIBCXX_INCLUDE_NEXT_C_HEADERS")
#pragma clang force_cuda_host_device end
// What nvcc's cuda_runtime.h includes in C++ besides (<cmath> through math_functions.h, <cstdlib>,
// <utility>), as host code: their constexpr functions (std::sqrt(float), std::min, ...) are
// __host__ __device__ anyway (-fcuda-host-device-constexpr).
#ifdef __cplusplus
#include <cmath>
#include <cstdlib>
#include <utility>
#endif

#include "__clang_cuda_builtin_vars.h"

// ---- vector types --------------------------------------------------------------------------
#define MEMCARLO_VEC1(type, name) struct name##1 { type x; };
#define MEMCARLO_VEC2(type, name, align) \
  struct __attribute__((aligned(align))) name##2 { type x, y; };
#define MEMCARLO_VEC3(type, name) struct name##3 { type x, y, z; };
#define MEMCARLO_VEC4(type, name, align) \
  struct __attribute__((aligned(align))) name##4 { type x, y, z, w; };
#define MEMCARLO_VECS(type, name, align2, align4)                                       \
  MEMCARLO_VEC1(type, name) MEMCARLO_VEC2(type, name, align2) MEMCARLO_VEC3(type, name) \
  MEMCARLO_VEC4(type, name, align4)
MEMCARLO_VECS(char, char, 2, 4)
MEMCARLO_VECS(unsigned char, uchar, 2, 4)
MEMCARLO_VECS(short, short, 4, 8)
MEMCARLO_VECS(unsigned short, ushort, 4, 8)
MEMCARLO_VECS(int, int, 8, 16)
MEMCARLO_VECS(unsigned int, uint, 8, 16)
MEMCARLO_VECS(long, long, 16, 16)
MEMCARLO_VECS(unsigned long, ulong, 16, 16)
MEMCARLO_VECS(long long, longlong, 16, 16)
MEMCARLO_VECS(unsigned long long, ulonglong, 16, 16)
MEMCARLO_VECS(float, float, 8, 16)
MEMCARLO_VECS(double, double, 16, 16)
#undef MEMCARLO_VECS
#undef MEMCARLO_VEC1
#undef MEMCARLO_VEC2
#undef MEMCARLO_VEC3
#undef MEMCARLO_VEC4

#define MEMCARLO_MAKE(type, name)                                                            \
  static inline __host__ __device__ name##1 make_##name##1(type x) { return name##1{x}; }    \
  static inline __host__ __device__ name##2 make_##name##2(type x, type y) {                 \
    return name##2{x, y};                                                                    \
  }                                                                                          \
  static inline __host__ __device__ name##3 make_##name##3(type x, type y, type z) {         \
    return name##3{x, y, z};                                                                 \
  }                                                                                          \
  static inline __host__ __device__ name##4 make_##name##4(type x, type y, type z, type w) { \
    return name##4{x, y, z, w};                                                              \
  }
MEMCARLO_MAKE(char, char)
MEMCARLO_MAKE(unsigned char, uchar)
MEMCARLO_MAKE(short, short)
MEMCARLO_MAKE(unsigned short, ushort)
MEMCARLO_MAKE(int, int)
MEMCARLO_MAKE(unsigned int, uint)
MEMCARLO_MAKE(long, long)
MEMCARLO_MAKE(unsigned long, ulong)
MEMCARLO_MAKE(long long, longlong)
MEMCARLO_MAKE(unsigned long long, ulonglong)
MEMCARLO_MAKE(float, float)
MEMCARLO_MAKE(double, double)
#undef MEMCARLO_MAKE

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 vector) : x(vector.x), y(vector.y), z(vector.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};

__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const { return {x, y, z}; }
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const { return dim3(x, y, z); }
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const { return {x, y, z}; }

// ---- runtime API types ---------------------------------------------------------------------
enum cudaError { cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,
                 cudaErrorInitializationError = 3, cudaErrorLaunchFailure = 4,
                 cudaErrorInvalidConfiguration = 9, cudaErrorInvalidDevice = 10,
                 cudaErrorNotReady = 600, cudaErrorNoDevice = 100, cudaErrorUnknown = 999 };
typedef enum cudaError cudaError_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1,
                      cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3,
                      cudaMemcpyDefault = 4 };
enum cudaFuncCache { cudaFuncCachePreferNone = 0, cudaFuncCachePreferShared = 1,
                     cudaFuncCachePreferL1 = 2, cudaFuncCachePreferEqual = 3 };
enum cudaSharedMemConfig { cudaSharedMemBankSizeDefault = 0, cudaSharedMemBankSizeFourByte = 1,
                           cudaSharedMemBankSizeEightByte = 2 };
enum cudaComputeMode { cudaComputeModeDefault = 0, cudaComputeModeExclusive = 1,
                       cudaComputeModeProhibited = 2, cudaComputeModeExclusiveProcess = 3 };
enum cudaChannelFormatKind { cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1,
                             cudaChannelFormatKindFloat = 2, cudaChannelFormatKindNone = 3 };
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
enum cudaTextureAddressMode { cudaAddressModeWrap = 0, cudaAddressModeClamp = 1,
                              cudaAddressModeMirror = 2, cudaAddressModeBorder = 3 };
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaResourceType { cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1,
                        cudaResourceTypeLinear = 2, cudaResourceTypePitch2D = 3 };
enum cudaMemoryType { cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1,
                      cudaMemoryTypeDevice = 2, cudaMemoryTypeManaged = 3 };
enum cudaDeviceAttr { cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMultiProcessorCount = 16,
                      cudaDevAttrClockRate = 13, cudaDevAttrMemoryClockRate = 36,
                      cudaDevAttrComputeCapabilityMajor = 75,
                      cudaDevAttrComputeCapabilityMinor = 76 };
enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2 };
enum cudaMemAttachFlags { cudaMemAttachGlobal = 1, cudaMemAttachHost = 2, cudaMemAttachSingle = 4 };
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterMapped 0x02
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01

struct CUstream_st;
struct CUevent_st;
struct cudaArray;
struct cudaMipmappedArray;
struct cudaGraphicsResource;
typedef struct CUstream_st* cudaStream_t;
typedef struct CUevent_st* cudaEvent_t;
typedef struct cudaArray* cudaArray_t;
typedef const struct cudaArray* cudaArray_const_t;
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
typedef void (*cudaStreamCallback_t)(cudaStream_t, cudaError_t, void*);
typedef void (*cudaHostFn_t)(void*);

struct cudaChannelFormatDesc { int x, y, z, w; enum cudaChannelFormatKind f; };
struct cudaExtent { size_t width, height, depth; };
struct cudaPos { size_t x, y, z; };
struct cudaPitchedPtr { void* ptr; size_t pitch, xsize, ysize; };
struct cudaMemcpy3DParms {
  cudaArray_t srcArray; struct cudaPos srcPos; struct cudaPitchedPtr srcPtr;
  cudaArray_t dstArray; struct cudaPos dstPos; struct cudaPitchedPtr dstPtr;
  struct cudaExtent extent; enum cudaMemcpyKind kind;
};
struct cudaFuncAttributes {
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA,
      maxDynamicSharedSizeBytes, preferredShmemCarveout;
};
struct cudaPointerAttributes { enum cudaMemoryType type; int device; void* devicePointer;
                               void* hostPointer; };
struct cudaDeviceProp {
  char name[256];
  char uuid[16];
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize;
  size_t memPitch;
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate;
  size_t totalConstMem;
  int major, minor;
  size_t textureAlignment, texturePitchAlignment;
  int deviceOverlap, multiProcessorCount, kernelExecTimeoutEnabled, integrated, canMapHostMemory,
      computeMode, maxTexture1D, maxTexture1DLinear, maxTexture2D[2], maxTexture3D[3],
      concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver,
      asyncEngineCount, unifiedAddressing, memoryClockRate, memoryBusWidth, l2CacheSize,
      persistingL2CacheMaxSize, maxThreadsPerMultiProcessor, streamPrioritiesSupported,
      globalL1CacheSupported, localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID,
      singleToDoublePrecisionPerfRatio, pageableMemoryAccess, concurrentManagedAccess,
      computePreemptionSupported, canUseHostPointerForRegisteredMem, cooperativeLaunch,
      cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor, accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
};
struct cudaResourceDesc {
  enum cudaResourceType resType;
  union {
    struct { cudaArray_t array; } array;
    struct { void* devPtr; struct cudaChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct { void* devPtr; struct cudaChannelFormatDesc desc; size_t width, height, pitchInBytes; }
        pitch2D;
  } res;
};
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
};

// Texture and surface references, cudaThreadSynchronize, ...: what CUDA 12/13 removed.
#include "memcarlo_cuda_legacy.h"

// Fetches through texture objects.
template <class Value> __device__ Value tex1Dfetch(cudaTextureObject_t, int);
template <class Value> __device__ Value tex1D(cudaTextureObject_t, float);
template <class Value> __device__ Value tex2D(cudaTextureObject_t, float, float);
template <class Value> __device__ Value tex3D(cudaTextureObject_t, float, float, float);

// ---- launch configuration: what `<<<...>>>` lowers to --------------------------------------
extern "C" __host__ __device__ cudaError_t cudaConfigureCall(dim3 grid, dim3 block,
                                                             size_t shared_mem = 0,
                                                             cudaStream_t stream = 0);
extern "C" __host__ __device__ unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block,
                                                                    size_t shared_mem = 0,
                                                                    void* stream = 0);

#include "memcarlo_cuda_runtime_api.h"
#include "memcarlo_cuda_device_functions.h"

#endif  // MEMCARLO_CUDA_DECLS_H
