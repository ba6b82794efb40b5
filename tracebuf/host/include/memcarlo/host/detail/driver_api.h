// The driver API's types and result codes (<cuda.h>) for host-backend programs that include it
// without using the driver: classic code compares runtime results with CUDA_SUCCESS and declares
// CUdevice or CUresult variables. Declarations only, apart from cuGetErrorName and
// cuGetErrorString (which the CUDA samples' helper_cuda.h calls once <cuda.h> is included); the
// driver calls themselves (cuInit, cuCtxCreate, cuLaunchKernel, ...) are not emulated and not
// declared, so using one is a compile error that names it.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

#include "memcarlo/host/detail/runtime_api.h"

// <cuda.h>'s include guard: helper_cuda.h declares its CUresult helpers under it.
#define __cuda_cuda_h__

// The result codes as CUDA 13 numbers them, one entry(name, value) each.
// clang-format off
#define MEMCARLO_DRIVER_RESULTS(entry)                  \
  entry(CUDA_SUCCESS, 0)                                \
  entry(CUDA_ERROR_INVALID_VALUE, 1)                    \
  entry(CUDA_ERROR_OUT_OF_MEMORY, 2)                    \
  entry(CUDA_ERROR_NOT_INITIALIZED, 3)                  \
  entry(CUDA_ERROR_DEINITIALIZED, 4)                    \
  entry(CUDA_ERROR_PROFILER_DISABLED, 5)                \
  entry(CUDA_ERROR_PROFILER_NOT_INITIALIZED, 6)         \
  entry(CUDA_ERROR_PROFILER_ALREADY_STARTED, 7)         \
  entry(CUDA_ERROR_PROFILER_ALREADY_STOPPED, 8)         \
  entry(CUDA_ERROR_STUB_LIBRARY, 34)                    \
  entry(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER, 36)      \
  entry(CUDA_ERROR_DEVICE_UNAVAILABLE, 46)              \
  entry(CUDA_ERROR_NO_DEVICE, 100)                      \
  entry(CUDA_ERROR_INVALID_DEVICE, 101)                 \
  entry(CUDA_ERROR_DEVICE_NOT_LICENSED, 102)            \
  entry(CUDA_ERROR_INVALID_IMAGE, 200)                  \
  entry(CUDA_ERROR_INVALID_CONTEXT, 201)                \
  entry(CUDA_ERROR_CONTEXT_ALREADY_CURRENT, 202)        \
  entry(CUDA_ERROR_MAP_FAILED, 205)                     \
  entry(CUDA_ERROR_UNMAP_FAILED, 206)                   \
  entry(CUDA_ERROR_ARRAY_IS_MAPPED, 207)                \
  entry(CUDA_ERROR_ALREADY_MAPPED, 208)                 \
  entry(CUDA_ERROR_NO_BINARY_FOR_GPU, 209)              \
  entry(CUDA_ERROR_ALREADY_ACQUIRED, 210)               \
  entry(CUDA_ERROR_NOT_MAPPED, 211)                     \
  entry(CUDA_ERROR_NOT_MAPPED_AS_ARRAY, 212)            \
  entry(CUDA_ERROR_NOT_MAPPED_AS_POINTER, 213)          \
  entry(CUDA_ERROR_ECC_UNCORRECTABLE, 214)              \
  entry(CUDA_ERROR_UNSUPPORTED_LIMIT, 215)              \
  entry(CUDA_ERROR_CONTEXT_ALREADY_IN_USE, 216)         \
  entry(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, 217)        \
  entry(CUDA_ERROR_INVALID_PTX, 218)                    \
  entry(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT, 219)       \
  entry(CUDA_ERROR_NVLINK_UNCORRECTABLE, 220)           \
  entry(CUDA_ERROR_JIT_COMPILER_NOT_FOUND, 221)         \
  entry(CUDA_ERROR_UNSUPPORTED_PTX_VERSION, 222)        \
  entry(CUDA_ERROR_JIT_COMPILATION_DISABLED, 223)       \
  entry(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY, 224)      \
  entry(CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC, 225)       \
  entry(CUDA_ERROR_CONTAINED, 226)                      \
  entry(CUDA_ERROR_INVALID_SOURCE, 300)                 \
  entry(CUDA_ERROR_FILE_NOT_FOUND, 301)                 \
  entry(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND, 302) \
  entry(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, 303)      \
  entry(CUDA_ERROR_OPERATING_SYSTEM, 304)               \
  entry(CUDA_ERROR_INVALID_HANDLE, 400)                 \
  entry(CUDA_ERROR_ILLEGAL_STATE, 401)                  \
  entry(CUDA_ERROR_LOSSY_QUERY, 402)                    \
  entry(CUDA_ERROR_NOT_FOUND, 500)                      \
  entry(CUDA_ERROR_NOT_READY, 600)                      \
  entry(CUDA_ERROR_ILLEGAL_ADDRESS, 700)                \
  entry(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, 701)        \
  entry(CUDA_ERROR_LAUNCH_TIMEOUT, 702)                 \
  entry(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING, 703)  \
  entry(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, 704)    \
  entry(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, 705)        \
  entry(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE, 708)         \
  entry(CUDA_ERROR_CONTEXT_IS_DESTROYED, 709)           \
  entry(CUDA_ERROR_ASSERT, 710)                         \
  entry(CUDA_ERROR_TOO_MANY_PEERS, 711)                 \
  entry(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, 712) \
  entry(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, 713)     \
  entry(CUDA_ERROR_HARDWARE_STACK_ERROR, 714)           \
  entry(CUDA_ERROR_ILLEGAL_INSTRUCTION, 715)            \
  entry(CUDA_ERROR_MISALIGNED_ADDRESS, 716)             \
  entry(CUDA_ERROR_INVALID_ADDRESS_SPACE, 717)          \
  entry(CUDA_ERROR_INVALID_PC, 718)                     \
  entry(CUDA_ERROR_LAUNCH_FAILED, 719)                  \
  entry(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, 720)   \
  entry(CUDA_ERROR_TENSOR_MEMORY_LEAK, 721)             \
  entry(CUDA_ERROR_NOT_PERMITTED, 800)                  \
  entry(CUDA_ERROR_NOT_SUPPORTED, 801)                  \
  entry(CUDA_ERROR_SYSTEM_NOT_READY, 802)               \
  entry(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, 803)         \
  entry(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, 804) \
  entry(CUDA_ERROR_MPS_CONNECTION_FAILED, 805)          \
  entry(CUDA_ERROR_MPS_RPC_FAILURE, 806)                \
  entry(CUDA_ERROR_MPS_SERVER_NOT_READY, 807)           \
  entry(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED, 808)        \
  entry(CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED, 809)    \
  entry(CUDA_ERROR_MPS_CLIENT_TERMINATED, 810)          \
  entry(CUDA_ERROR_CDP_NOT_SUPPORTED, 811)              \
  entry(CUDA_ERROR_CDP_VERSION_MISMATCH, 812)           \
  entry(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, 900)     \
  entry(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, 901)     \
  entry(CUDA_ERROR_STREAM_CAPTURE_MERGE, 902)           \
  entry(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, 903)       \
  entry(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, 904)        \
  entry(CUDA_ERROR_STREAM_CAPTURE_ISOLATION, 905)       \
  entry(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, 906)        \
  entry(CUDA_ERROR_CAPTURED_EVENT, 907)                 \
  entry(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, 908)    \
  entry(CUDA_ERROR_TIMEOUT, 909)                        \
  entry(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, 910)      \
  entry(CUDA_ERROR_EXTERNAL_DEVICE, 911)                \
  entry(CUDA_ERROR_INVALID_CLUSTER_SIZE, 912)           \
  entry(CUDA_ERROR_FUNCTION_NOT_LOADED, 913)            \
  entry(CUDA_ERROR_INVALID_RESOURCE_TYPE, 914)          \
  entry(CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION, 915) \
  entry(CUDA_ERROR_KEY_ROTATION, 916)                   \
  entry(CUDA_ERROR_UNKNOWN, 999)
// clang-format on

enum cudaError_enum {
#define MEMCARLO_DRIVER_RESULT(name, value) name = (value),
  MEMCARLO_DRIVER_RESULTS(MEMCARLO_DRIVER_RESULT)
#undef MEMCARLO_DRIVER_RESULT
};
typedef enum cudaError_enum CUresult;

typedef int CUdevice;
typedef int CUdevice_v1;
typedef unsigned long long CUdeviceptr;
typedef unsigned long long CUdeviceptr_v2;
struct CUctx_st;
typedef CUctx_st* CUcontext;
struct CUmod_st;
typedef CUmod_st* CUmodule;
struct CUfunc_st;
typedef CUfunc_st* CUfunction;
struct CUarray_st;
typedef CUarray_st* CUarray;
struct CUtexref_st;
typedef CUtexref_st* CUtexref;
typedef CUstream_st* CUstream;
typedef CUevent_st* CUevent;
typedef unsigned long long CUtexObject;
typedef unsigned long long CUsurfObject;

/// The enumerator's name ("CUDA_ERROR_INVALID_VALUE"); CUDA_ERROR_INVALID_VALUE for an unknown
/// code.
CUresult cuGetErrorName(CUresult error, const char** name);
/// The same name: the emulation has no driver messages.
CUresult cuGetErrorString(CUresult error, const char** text);
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
