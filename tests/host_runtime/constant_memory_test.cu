// __constant__ and __device__ variables with cudaMemcpyToSymbol / FromSymbol / GetSymbolAddress.
#include <cuda_runtime.h>

#include <vector>

#include "host_test_util.h"

using host_test::DeviceArray;

namespace {

__constant__ float coefficients[8];
__device__ int device_counter;
__device__ float device_table[4];

__global__ void weighted_sum(const float* in, float* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float sum = 0.0f;
    for (unsigned k = 0; k < 8; ++k) {
      sum += coefficients[k] * in[(i + k) % n];
    }
    out[i] = sum;
    atomicAdd(&device_counter, 1);
  }
}

__global__ void double_table() {
  device_table[threadIdx.x] *= 2.0f;
}

}  // namespace

TEST(HostConstantMemory, CopyToSymbolWithOffsetFeedsKernels) {
  const std::vector<float> first{1, 2, 3, 4};
  const std::vector<float> second{0.5f, 0.25f, 0.125f, 0.0625f};
  ASSERT_CUDA(cudaMemcpyToSymbol(coefficients, first.data(), 4 * sizeof(float)));
  ASSERT_CUDA(cudaMemcpyToSymbol(coefficients, second.data(), 4 * sizeof(float), 4 * sizeof(float),
                                 cudaMemcpyHostToDevice));
  const int zero = 0;
  ASSERT_CUDA(cudaMemcpyToSymbol(device_counter, &zero, sizeof zero));
  const unsigned n = 100;
  std::vector<float> input(n);
  for (unsigned i = 0; i < n; ++i) {
    input[i] = static_cast<float>(i % 7);
  }
  DeviceArray<float> in(input);
  DeviceArray<float> out(n);
  memcarlo_launch("weighted_sum", weighted_sum, 4, 32, 0, 0, in.get(), out.get(), n);
  const std::vector<float> result = out.to_host();
  const float weights[8] = {1, 2, 3, 4, 0.5f, 0.25f, 0.125f, 0.0625f};
  for (unsigned i = 0; i < n; ++i) {
    float expected = 0.0f;
    for (unsigned k = 0; k < 8; ++k) {
      expected += weights[k] * input[(i + k) % n];
    }
    EXPECT_FLOAT_EQ(result[i], expected);
  }
  int counter = 0;
  ASSERT_CUDA(cudaMemcpyFromSymbol(&counter, device_counter, sizeof counter));
  EXPECT_EQ(counter, 100);
  float back[2] = {};
  ASSERT_CUDA(cudaMemcpyFromSymbol(back, coefficients, sizeof back, 5 * sizeof(float)));
  EXPECT_EQ(back[0], 0.25f);
  EXPECT_EQ(back[1], 0.125f);
}

TEST(HostConstantMemory, OutOfRangeSymbolCopiesFail) {
  const std::vector<float> nine(9, 1.0f);
  EXPECT_EQ(cudaMemcpyToSymbol(coefficients, nine.data(), 9 * sizeof(float)),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpyToSymbol(coefficients, nine.data(), 2 * sizeof(float), 7 * sizeof(float)),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpyToSymbol(coefficients, nine.data(), 4, 0, cudaMemcpyDeviceToHost),
            cudaErrorInvalidMemcpyDirection);
  cudaGetLastError();
}

TEST(HostConstantMemory, SymbolAddressWorksWithCudaMemcpy) {
  void* address = nullptr;
  ASSERT_CUDA(cudaGetSymbolAddress(&address, device_table));
  std::size_t size = 0;
  ASSERT_CUDA(cudaGetSymbolSize(&size, device_table));
  EXPECT_EQ(size, 4 * sizeof(float));
  const float values[4] = {1, 2, 3, 4};
  ASSERT_CUDA(cudaMemcpy(address, values, sizeof values, cudaMemcpyHostToDevice));
  memcarlo_launch("double_table", double_table, 1, 4, 0, 0);
  float doubled[4] = {};
  ASSERT_CUDA(cudaMemcpy(doubled, address, sizeof doubled, cudaMemcpyDeviceToHost));
  EXPECT_EQ(doubled[3], 8.0f);
}
