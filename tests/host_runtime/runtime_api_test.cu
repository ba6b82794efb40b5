// The emulated runtime API: memory calls and their errors, pinned and managed memory, streams and
// events, device properties, occupancy queries and allocation names.
#include <cuda_runtime.h>

#include <cstring>
#include <vector>

#include "host_test_util.h"

using host_test::DeviceArray;

namespace {

__global__ void increment(int* values, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    values[i] += 1;
  }
}

}  // namespace

TEST(HostRuntimeApi, DeviceMemoryIsAlignedAndCopiesCheckTheirKind) {
  float* device = nullptr;
  ASSERT_CUDA(cudaMalloc(&device, 1000 * sizeof(float)));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(device) % 256, 0u);
  std::vector<float> host(1000, 2.5f);
  ASSERT_CUDA(cudaMemcpy(device, host.data(), 4000, cudaMemcpyHostToDevice));
  // A host pointer where a device pointer belongs fails as it would on a GPU.
  EXPECT_EQ(cudaMemcpy(host.data(), host.data(), 16, cudaMemcpyHostToDevice),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(device, host.data(), 4001, cudaMemcpyHostToDevice), cudaErrorInvalidValue)
      << "past the end of the allocation";
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  ASSERT_CUDA(cudaMemset(device, 0, 4000));
  std::vector<float> back(1000, 1.0f);
  ASSERT_CUDA(cudaMemcpy(back.data(), device, 4000, cudaMemcpyDeviceToHost));
  EXPECT_EQ(back[999], 0.0f);
  float* second = nullptr;
  ASSERT_CUDA(cudaMalloc(reinterpret_cast<void**>(&second), 4000));
  EXPECT_NE(second, device);
  ASSERT_CUDA(cudaMemcpy(second, device, 4000, cudaMemcpyDeviceToDevice));
  ASSERT_CUDA(cudaFree(device));
  EXPECT_EQ(cudaFree(device), cudaErrorInvalidValue) << "double free";
  EXPECT_EQ(cudaFree(host.data()), cudaErrorInvalidValue);
  ASSERT_CUDA(cudaFree(second));
  ASSERT_CUDA(cudaFree(nullptr));
  cudaGetLastError();
}

TEST(HostRuntimeApi, FreedDeviceAddressesAreNeverReused) {
  void* first = nullptr;
  void* second = nullptr;
  ASSERT_CUDA(cudaMalloc(&first, 1 << 16));
  ASSERT_CUDA(cudaFree(first));
  ASSERT_CUDA(cudaMalloc(&second, 1 << 16));
  EXPECT_NE(first, second);
  ASSERT_CUDA(cudaFree(second));
}

TEST(HostRuntimeApi, PinnedManagedAndPitchedMemory) {
  int* pinned = nullptr;
  ASSERT_CUDA(cudaMallocHost(&pinned, 64 * sizeof(int)));
  int* managed = nullptr;
  ASSERT_CUDA(cudaMallocManaged(&managed, 64 * sizeof(int)));
  for (int i = 0; i < 64; ++i) {
    pinned[i] = i;
    managed[i] = 10 * i;
  }
  memcarlo_launch("increment", increment, 1, 64, 0, 0, managed, 64u);
  EXPECT_EQ(managed[63], 631) << "managed memory is visible to host and kernels";
  EXPECT_EQ(cudaFree(pinned), cudaErrorInvalidValue) << "pinned memory needs cudaFreeHost";
  ASSERT_CUDA(cudaFreeHost(pinned));
  ASSERT_CUDA(cudaFree(managed));

  void* pitched = nullptr;
  std::size_t pitch = 0;
  ASSERT_CUDA(cudaMallocPitch(&pitched, &pitch, 100, 8));
  EXPECT_GE(pitch, 100u);
  EXPECT_EQ(pitch % 256, 0u);
  std::vector<char> rows(100 * 8);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rows[i] = static_cast<char>(i % 100);
  }
  ASSERT_CUDA(cudaMemcpy2D(pitched, pitch, rows.data(), 100, 100, 8, cudaMemcpyHostToDevice));
  std::vector<char> back(rows.size());
  ASSERT_CUDA(cudaMemcpy2D(back.data(), 100, pitched, pitch, 100, 8, cudaMemcpyDeviceToHost));
  EXPECT_EQ(back, rows);
  ASSERT_CUDA(cudaFree(pitched));
  cudaGetLastError();
}

TEST(HostRuntimeApi, StreamsAndEventsAreSerialized) {
  cudaStream_t stream = nullptr;
  ASSERT_CUDA(cudaStreamCreate(&stream));
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  ASSERT_CUDA(cudaEventCreate(&start));
  ASSERT_CUDA(cudaEventCreate(&stop));
  DeviceArray<int> values(4096);
  values.fill(1);
  ASSERT_CUDA(cudaEventRecord(start, stream));
  std::vector<int> host(4096, 5);
  ASSERT_CUDA(cudaMemcpyAsync(values.get(), host.data(), 4096 * sizeof(int), cudaMemcpyHostToDevice,
                              stream));
  memcarlo_launch("increment", increment, 16, 256, 0, stream, values.get(), 4096u);
  ASSERT_CUDA(cudaEventRecord(stop, stream));
  EXPECT_EQ(cudaStreamQuery(stream), cudaSuccess);
  ASSERT_CUDA(cudaStreamSynchronize(stream));
  ASSERT_CUDA(cudaEventSynchronize(stop));
  float milliseconds = -1.0f;
  ASSERT_CUDA(cudaEventElapsedTime(&milliseconds, start, stop));
  EXPECT_GE(milliseconds, 0.0f);
  EXPECT_EQ(values.to_host()[4095], 6);
  cudaEvent_t unrecorded = nullptr;
  ASSERT_CUDA(cudaEventCreateWithFlags(&unrecorded, cudaEventDisableTiming));
  EXPECT_EQ(cudaEventElapsedTime(&milliseconds, start, unrecorded), cudaErrorInvalidResourceHandle);
  ASSERT_CUDA(cudaEventDestroy(unrecorded));
  ASSERT_CUDA(cudaEventDestroy(start));
  ASSERT_CUDA(cudaEventDestroy(stop));
  ASSERT_CUDA(cudaStreamDestroy(stream));
  cudaGetLastError();
}

TEST(HostRuntimeApi, DevicePropertiesFollowTheConfiguredLimits) {
  int count = 0;
  ASSERT_CUDA(cudaGetDeviceCount(&count));
  EXPECT_EQ(count, 1);
  ASSERT_CUDA(cudaSetDevice(0));
  EXPECT_EQ(cudaSetDevice(1), cudaErrorInvalidDevice);
  cudaGetLastError();
  cudaDeviceProp properties{};
  ASSERT_CUDA(cudaGetDeviceProperties(&properties, 0));
  const memcarlo::host::DeviceLimits& limits = memcarlo::host::runtime_options().limits;
  EXPECT_EQ(properties.multiProcessorCount, static_cast<int>(limits.sm_count));
  EXPECT_EQ(properties.maxThreadsPerMultiProcessor, static_cast<int>(limits.max_threads_per_sm));
  EXPECT_EQ(properties.warpSize, 32);
  EXPECT_EQ(properties.l2CacheSize,
            static_cast<int>(memcarlo::host::runtime_options().l2_bytes));
  EXPECT_EQ(properties.clockRate, static_cast<int>(memcarlo::host::runtime_options().clock_khz));
  int l2 = 0;
  ASSERT_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  EXPECT_EQ(l2, properties.l2CacheSize);
  int sms = 0;
  ASSERT_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  EXPECT_EQ(sms, properties.multiProcessorCount);
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument");
  EXPECT_STREQ(cudaGetErrorName(cudaErrorMemoryAllocation), "cudaErrorMemoryAllocation");
}

TEST(HostRuntimeApi, OccupancyQueriesUseTheConfiguredLimits) {
  // Default limits are the Tesla C2050's: 256 threads at 32 registers -> 4 blocks per SM.
  int blocks = 0;
  ASSERT_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, increment, 256, 0));
  EXPECT_EQ(blocks, 4);
  int min_grid = 0;
  int block_size = 0;
  ASSERT_CUDA(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block_size, increment));
  EXPECT_EQ(block_size % 32, 0);
  EXPECT_GT(min_grid, 0);
}
