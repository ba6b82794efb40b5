// What the CUDA samples' Common headers need from the CUDA headers, on our stand-ins for them
// (samples_common/): the guard macros they test, cudaGetErrorName for checkCudaErrors, the device
// attributes and properties findCudaDevice and the samples read, cuda_profiler_api.h, and event
// timing; helper_math.h's host definitions of CUDA functions. Whole sample-style programs run in
// programs_test.cpp (they need the instrumenter).
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <string>

#include "helper_cuda.h"
#include "helper_functions.h"
#include "helper_math.h"
#include "host_test_util.h"

namespace {

__global__ void add_one(int* values) {
  values[threadIdx.x] += 1;
}

// helper_math.h's functions in device code, where they resolve as in host code.
__global__ void interpolate(float3* out, int* clamped) {
  const float t = static_cast<float>(threadIdx.x) / 4.0f;
  out[threadIdx.x] = lerp(make_float3(0.0f, 4.0f, 8.0f), make_float3(4.0f, 4.0f, 0.0f), t);
  clamped[threadIdx.x] = clamp(static_cast<int>(threadIdx.x) - 1, 0, 2);
}

const char* program_arguments[] = {"sample", "-device=0", "--wA=320"};

}  // namespace

// Without these, helper_cuda.h silently leaves out checkCudaErrors and findCudaDevice.
#if !defined(__DRIVER_TYPES_H__) || !defined(__CUDA_RUNTIME_H__) || \
    !defined(__CUDA_PROFILER_API_H__)
#error "the CUDA header guards the samples test are missing"
#endif

TEST(HostSamplesHelpers, DeviceSelectionReadsTheAttributesOfTheModeledDevice) {
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(findCudaDevice(1, program_arguments), 0);
  EXPECT_EQ(findCudaDevice(3, program_arguments), 0);
  const std::string printed = ::testing::internal::GetCapturedStdout();
  EXPECT_NE(printed.find("GPU Device 0: \"Volta\" with compute capability 7.0"), std::string::npos)
      << printed;
  EXPECT_NE(printed.find("gpuDeviceInit() CUDA Device [0]: \"Volta"), std::string::npos) << printed;
  EXPECT_EQ(getCmdLineArgumentInt(3, program_arguments, "wA="), 320);
  EXPECT_TRUE(checkCudaCapabilities(6, 0));
  EXPECT_FALSE(checkCudaCapabilities(9, 0));
  EXPECT_EQ(findIntegratedGPU(), -1);

  int mode = -1;
  ASSERT_CUDA(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0));
  EXPECT_EQ(mode, cudaComputeModeDefault);
  cudaDeviceProp properties{};
  ASSERT_CUDA(cudaGetDeviceProperties(&properties, 0));
  int sms = 0;
  ASSERT_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  EXPECT_EQ(sms, properties.multiProcessorCount);
  // transpose prints SMs x cores per SM.
  EXPECT_EQ(_ConvertSMVer2Cores(properties.major, properties.minor), 64);
  EXPECT_STREQ(_ConvertSMVer2ArchName(properties.major, properties.minor), "Volta");
  // Every attribute deviceQuery-style programs read answers.
  for (const cudaDeviceAttr attribute :
       {cudaDevAttrIntegrated, cudaDevAttrCanMapHostMemory, cudaDevAttrKernelExecTimeout,
        cudaDevAttrPciBusId, cudaDevAttrPciDeviceId, cudaDevAttrPciDomainId, cudaDevAttrEccEnabled,
        cudaDevAttrAsyncEngineCount, cudaDevAttrConcurrentManagedAccess,
        cudaDevAttrCooperativeLaunch, cudaDevAttrMaxPitch, cudaDevAttrTextureAlignment}) {
    int value = -1;
    EXPECT_CUDA(cudaDeviceGetAttribute(&value, attribute, 0));
    EXPECT_GE(value, 0) << attribute;
  }
}

TEST(HostSamplesHelpers, ChecksPassOnSuccessAndTimingUsesEvents) {
  host_test::DeviceArray<int> values(std::vector<int>(32, 1));
  cudaEvent_t start;
  cudaEvent_t stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaProfilerStart());
  checkCudaErrors(cudaEventRecord(start));
  memcarlo_launch("add_one", add_one, 1, 32, 0, 0, values.get());
  getLastCudaError("add_one");
  checkCudaErrors(cudaEventRecord(stop));
  checkCudaErrors(cudaEventSynchronize(stop));
  checkCudaErrors(cudaProfilerStop());
  float milliseconds = -1.0f;
  checkCudaErrors(cudaEventElapsedTime(&milliseconds, start, stop));
  EXPECT_GE(milliseconds, 0.0f);
  const std::vector<int> host = values.to_host();
  const std::vector<float> as_float(host.begin(), host.end());
  const std::vector<float> reference(32, 2.0f);
  EXPECT_TRUE(sdkCompareL2fe(reference.data(), as_float.data(), 32, 1e-6f));
  checkCudaErrors(cudaEventDestroy(start));
  checkCudaErrors(cudaEventDestroy(stop));
}

TEST(HostSamplesHelpersDeathTest, FailedCallsAreNamedByCudaGetErrorName) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      checkCudaErrors(cudaSetDevice(3)), ::testing::ExitedWithCode(EXIT_FAILURE),
      "CUDA error at .*samples_helpers_test\\.cu:[0-9]+ code=101\\(cudaErrorInvalidDevice\\) "
      "\"cudaSetDevice\\(3\\)\"");
  EXPECT_EXIT(
      {
        memcarlo_launch("add_one", add_one, 1, 2048, 0, 0, nullptr);
        getLastCudaError("oversized block");
      },
      ::testing::ExitedWithCode(EXIT_FAILURE),
      "getLastCudaError\\(\\) CUDA error : oversized block : \\(9\\) invalid configuration "
      "argument");
}

// helper_math.h defines min(int, int), max(int, int) and rsqrtf for host compilers, and a global
// lerp(float, float, float): none may clash with the emulation's own (CUDA's, visible to host
// code) nor with C++20's std::lerp, and the emulation's overloads still serve what it lacks.
TEST(HostSamplesHelpers, HelperMathHostDefinitionsCompileBesideTheEmulationsOwn) {
  EXPECT_EQ(max(2, 3), 3);
  EXPECT_EQ(min(2, 3), 2);
  EXPECT_FLOAT_EQ(rsqrtf(4.0f), 0.5f);
  EXPECT_FLOAT_EQ(fminf(1.0f, 2.0f), 1.0f);
  EXPECT_FLOAT_EQ(lerp(0.0f, 10.0f, 0.25f), 2.5f);
  EXPECT_DOUBLE_EQ(std::lerp(0.0, 10.0, 0.75), 7.5);
  // The emulation's mixed-signedness overload (CUDA converts to unsigned): 0xffffffff > 1.
  EXPECT_EQ(max(-1, 1u), 0xffffffffu);
  EXPECT_FLOAT_EQ(max(1.5f, 2.5f), 2.5f);

  host_test::DeviceArray<float3> out(5);
  host_test::DeviceArray<int> clamped(5);
  memcarlo_launch("interpolate", interpolate, 1, 5, 0, 0, out.get(), clamped.get());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<float3> values = out.to_host();
  const std::vector<int> clamps = clamped.to_host();
  for (int i = 0; i < 5; ++i) {
    const float t = static_cast<float>(i) / 4.0f;
    EXPECT_FLOAT_EQ(values[i].x, 4.0f * t) << i;
    EXPECT_FLOAT_EQ(values[i].y, 4.0f) << i;
    EXPECT_FLOAT_EQ(values[i].z, 8.0f - 8.0f * t) << i;
    EXPECT_EQ(clamps[i], std::min(std::max(i - 1, 0), 2)) << i;
  }
}
