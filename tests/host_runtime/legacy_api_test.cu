// What classic programs use that CUDA 12 and 13 removed or that only nvcc's headers provide: the
// driver API's types and result codes from <cuda.h>, the cudaThread* calls, device flags, the
// cudaDeviceProp fields CUDA 13 dropped, and CUDA's min/max overloads in host code.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "helper_cuda.h"
#include "host_test_util.h"

using namespace std;  // as classic host code does: min/max must still pick CUDA's overloads

// A program's own helper of the same name must not collide with CUDA's overloads.
template <class Value>
Value max(Value first, Value second, Value third) {
  return max(max(first, second), third);
}

TEST(HostLegacyApi, DriverResultCodesAndTypes) {
  static_assert(std::is_enum_v<CUresult>);
  EXPECT_EQ(static_cast<int>(CUDA_SUCCESS), 0);
  EXPECT_EQ(static_cast<int>(CUDA_ERROR_INVALID_VALUE), 1);
  EXPECT_EQ(static_cast<int>(CUDA_ERROR_NO_DEVICE), 100);
  EXPECT_EQ(static_cast<int>(CUDA_ERROR_LAUNCH_FAILED), 719);
  EXPECT_EQ(static_cast<int>(CUDA_ERROR_UNKNOWN), 999);
  // Kmeans-style: a runtime result compared with the driver's success code.
  EXPECT_EQ(static_cast<int>(cudaGetLastError()), static_cast<int>(CUDA_SUCCESS));
  const CUdevice device = 0;
  const CUdeviceptr pointer = 0;
  const CUcontext context = nullptr;
  const CUstream stream = cudaStream_t{};
  EXPECT_EQ(device, 0);
  EXPECT_EQ(pointer, 0u);
  EXPECT_EQ(context, nullptr);
  EXPECT_EQ(stream, nullptr);
  const char* name = nullptr;
  EXPECT_EQ(cuGetErrorName(CUDA_ERROR_OUT_OF_MEMORY, &name), CUDA_SUCCESS);
  EXPECT_STREQ(name, "CUDA_ERROR_OUT_OF_MEMORY");
  EXPECT_EQ(cuGetErrorString(static_cast<CUresult>(990), &name), CUDA_ERROR_INVALID_VALUE);
#ifndef __cuda_cuda_h__
  ADD_FAILURE() << "<cuda.h> defines its include guard, which helper_cuda.h tests";
#endif
}

TEST(HostLegacyApiDeathTest, HelperCudaNamesDriverResultsOnceCudaHIsIncluded) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(checkCudaErrors(CUDA_ERROR_NOT_INITIALIZED), ::testing::ExitedWithCode(EXIT_FAILURE),
              "code=3\\(CUDA_ERROR_NOT_INITIALIZED\\)");
}

TEST(HostLegacyApi, ThreadCallsAreTheirDeviceSuccessors) {
  EXPECT_CUDA(cudaThreadSynchronize());
  EXPECT_CUDA(cudaThreadSetCacheConfig(cudaFuncCachePreferL1));
  cudaFuncCache config = cudaFuncCachePreferNone;
  EXPECT_CUDA(cudaThreadGetCacheConfig(&config));
  EXPECT_EQ(config, cudaFuncCachePreferL1);
  EXPECT_CUDA(cudaDeviceGetCacheConfig(&config));
  EXPECT_EQ(config, cudaFuncCachePreferL1);
  EXPECT_CUDA(cudaDeviceSetCacheConfig(cudaFuncCachePreferNone));
  std::size_t stack = 0;
  EXPECT_CUDA(cudaThreadSetLimit(cudaLimitMallocHeapSize, 1 << 20));
  EXPECT_CUDA(cudaThreadGetLimit(&stack, cudaLimitStackSize));
  EXPECT_GT(stack, 0u);
  EXPECT_CUDA(cudaThreadExit());
  EXPECT_CUDA(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync | cudaDeviceMapHost));
  unsigned flags = 0;
  EXPECT_CUDA(cudaGetDeviceFlags(&flags));
  EXPECT_EQ(flags, static_cast<unsigned>(cudaDeviceScheduleBlockingSync | cudaDeviceMapHost));
  EXPECT_EQ(cudaSetDeviceFlags(0x100), cudaErrorInvalidValue);
  cudaGetLastError();
  cudaDeviceProp wanted;
  std::memset(&wanted, 0, sizeof wanted);
  wanted.major = 1;
  int device = -1;
  EXPECT_CUDA(cudaChooseDevice(&device, &wanted));
  EXPECT_EQ(device, 0);
  double value = 1.5;
  EXPECT_CUDA(cudaSetDoubleForDevice(&value));
  EXPECT_CUDA(cudaSetDoubleForHost(&value));
  EXPECT_EQ(value, 1.5);
}

TEST(HostLegacyApi, DevicePropertiesCuda13Removed) {
  cudaDeviceProp properties;
  ASSERT_CUDA(cudaGetDeviceProperties(&properties, 0));
  // Rodinia's gaussian prints these; they must be there, and not zero where a GPU has a value.
  EXPECT_GT(properties.clockRate, 0);
  EXPECT_EQ(properties.deviceOverlap, 1);
  EXPECT_GT(properties.memoryClockRate, 0);
  EXPECT_GT(properties.memoryBusWidth, 0);
  EXPECT_EQ(properties.kernelExecTimeoutEnabled, 0);
  EXPECT_EQ(properties.computeMode, cudaComputeModeDefault);
}

TEST(HostLegacyApi, HostCodeSeesCudasMinAndMax) {
  const float a = 1.5f;
  const float b = 2.5f;
  // The transpose sample's host code: max on floats, min on ints.
  EXPECT_EQ(max(a, b), 2.5f);
  EXPECT_EQ(min(3, 4), 3);
  static_assert(std::is_same_v<decltype(max(a, b)), float>);
  static_assert(std::is_same_v<decltype(max(1.0f, 2.0)), double>);
  // Mixed signedness converts to unsigned, as CUDA's overloads do.
  EXPECT_EQ(max(-1, 2u), 0xffffffffu);
  EXPECT_EQ(min(-1L, 2UL), 2UL);
  EXPECT_EQ(max(3L, 4UL), 4UL);
  EXPECT_EQ(min(5ULL, -1LL), 5ULL);
  // std:: stays std::, and a program's own overloads still work.
  EXPECT_EQ(std::max(a, b), 2.5f);
  EXPECT_EQ(max(1, 7, 3), 7);
}
