// Our stand-in for the CUDA samples' Common/helper_cuda.h, written for these tests. It makes the
// same demands on the CUDA headers as the real one: its error checks exist only when
// __DRIVER_TYPES_H__ is defined, its device selection only when __CUDA_RUNTIME_H__ is and its
// driver result names only when __cuda_cuda_h__ is; it names errors with cudaGetErrorName and
// cuGetErrorName, reads the compute mode, capability, SM count and clock
// through cudaDeviceGetAttribute, and maps the capability to cores per SM and an architecture
// name, as findCudaDevice and friends do in the samples.
// NOLINTBEGIN(bugprone-reserved-identifier,readability-identifier-naming): the samples' names.
#ifndef MEMCARLO_TEST_HELPER_CUDA_H
#define MEMCARLO_TEST_HELPER_CUDA_H

#include <cstdio>
#include <cstdlib>

#include "helper_string.h"

#ifndef EXIT_WAIVED
#define EXIT_WAIVED 2
#endif

#ifdef __DRIVER_TYPES_H__
inline const char* _cudaGetErrorEnum(cudaError_t error) {
  return cudaGetErrorName(error);
}

template <typename Status>
void check(Status result, const char* call, const char* file, int line) {
  if (result) {
    std::fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line,
                 static_cast<int>(result), _cudaGetErrorEnum(result), call);
    std::exit(EXIT_FAILURE);
  }
}
#define checkCudaErrors(value) check((value), #value, __FILE__, __LINE__)

inline void memcarlo_test_last_error(const char* message, const char* file, int line) {
  const cudaError_t error = cudaGetLastError();
  if (error != cudaSuccess) {
    std::fprintf(stderr, "%s(%d) : getLastCudaError() CUDA error : %s : (%d) %s.\n", file, line,
                 message, static_cast<int>(error), cudaGetErrorString(error));
    std::exit(EXIT_FAILURE);
  }
}
#define getLastCudaError(message) memcarlo_test_last_error(message, __FILE__, __LINE__)
#endif

#ifdef __cuda_cuda_h__
// Driver API results, once the program included <cuda.h>: named by cuGetErrorName.
inline const char* _cudaGetErrorEnum(CUresult error) {
  const char* name = nullptr;
  cuGetErrorName(error, &name);
  return name != nullptr ? name : "<unknown>";
}
#endif

/// Cores per SM of an architecture (the samples size throughput estimates with it).
inline int _ConvertSMVer2Cores(int major, int minor) {
  const int version = (major << 4) + minor;
  switch (version) {
    case 0x30:
    case 0x32:
    case 0x35:
    case 0x37:
      return 192;
    case 0x50:
    case 0x52:
    case 0x53:
    case 0x61:
    case 0x62:
    case 0x86:
    case 0x87:
    case 0x89:
    case 0x90:
      return 128;
    case 0x60:
    case 0x70:
    case 0x72:
    case 0x75:
    case 0x80:
      return 64;
    default:
      std::printf("MapSMtoCores for SM %d.%d is undefined. Default to use 128 Cores/SM\n", major,
                  minor);
      return 128;
  }
}

inline const char* _ConvertSMVer2ArchName(int major, int minor) {
  switch (major) {
    case 3:
      return "Kepler";
    case 5:
      return "Maxwell";
    case 6:
      return "Pascal";
    case 7:
      return minor == 5 ? "Turing" : "Volta";
    case 8:
      return minor == 9 ? "Ada" : "Ampere";
    case 9:
      return "Hopper";
    default:
      return "Graphics Device";
  }
}

#ifdef __CUDA_RUNTIME_H__
inline int gpuDeviceInit(int device) {
  int count = 0;
  checkCudaErrors(cudaGetDeviceCount(&count));
  if (count == 0 || device < 0 || device >= count) {
    std::fprintf(stderr, "gpuDeviceInit: no device %d\n", device);
    return -1;
  }
  int mode = -1;
  int major = 0;
  int minor = 0;
  checkCudaErrors(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, device));
  checkCudaErrors(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  checkCudaErrors(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  if (mode == cudaComputeModeProhibited || major < 1) {
    return -1;
  }
  checkCudaErrors(cudaSetDevice(device));
  std::printf("gpuDeviceInit() CUDA Device [%d]: \"%s\n", device,
              _ConvertSMVer2ArchName(major, minor));
  return device;
}

/// The device with the most SMs x cores x clock.
inline int gpuGetMaxGflopsDeviceId() {
  int count = 0;
  checkCudaErrors(cudaGetDeviceCount(&count));
  int best = -1;
  unsigned long long best_performance = 0;
  for (int device = 0; device < count; ++device) {
    int mode = -1;
    int major = 0;
    int minor = 0;
    int sms = 0;
    int clock = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, device));
    checkCudaErrors(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    checkCudaErrors(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    checkCudaErrors(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    if (cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, device) != cudaSuccess) {
      clock = 1;
    }
    if (mode == cudaComputeModeProhibited) {
      continue;
    }
    const unsigned long long performance =
        static_cast<unsigned long long>(sms) *
        static_cast<unsigned long long>(_ConvertSMVer2Cores(major, minor)) *
        static_cast<unsigned long long>(clock);
    if (best < 0 || performance > best_performance) {
      best = device;
      best_performance = performance;
    }
  }
  if (best < 0) {
    std::fprintf(stderr, "gpuGetMaxGflopsDeviceId: all devices prohibited\n");
    std::exit(EXIT_FAILURE);
  }
  return best;
}

inline int findCudaDevice(int argc, const char** argv) {
  int device = 0;
  if (checkCmdLineFlag(argc, argv, "device")) {
    device = gpuDeviceInit(getCmdLineArgumentInt(argc, argv, "device="));
    if (device < 0) {
      std::printf("exiting...\n");
      std::exit(EXIT_FAILURE);
    }
  } else {
    device = gpuGetMaxGflopsDeviceId();
    checkCudaErrors(cudaSetDevice(device));
    int major = 0;
    int minor = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    checkCudaErrors(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    std::printf("GPU Device %d: \"%s\" with compute capability %d.%d\n\n", device,
                _ConvertSMVer2ArchName(major, minor), major, minor);
  }
  return device;
}

inline int findIntegratedGPU() {
  int count = 0;
  checkCudaErrors(cudaGetDeviceCount(&count));
  for (int device = 0; device < count; ++device) {
    int integrated = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&integrated, cudaDevAttrIntegrated, device));
    if (integrated != 0) {
      return device;
    }
  }
  return -1;
}

inline bool checkCudaCapabilities(int major_version, int minor_version) {
  int device = 0;
  int major = 0;
  int minor = 0;
  checkCudaErrors(cudaGetDevice(&device));
  checkCudaErrors(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  checkCudaErrors(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return major > major_version || (major == major_version && minor >= minor_version);
}
#endif

#endif  // MEMCARLO_TEST_HELPER_CUDA_H
// NOLINTEND(bugprone-reserved-identifier,readability-identifier-naming)
