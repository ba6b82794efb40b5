// Prints the device properties a program may size its work by, and launches one small kernel.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void fill(float* out) { out[threadIdx.x] = 1.0f; }

int main() {
  cudaDeviceProp properties{};
  cudaGetDeviceProperties(&properties, 0);
  std::printf("sms %d l2 %d clock %d\n", properties.multiProcessorCount, properties.l2CacheSize,
              properties.clockRate);
  float* device = nullptr;
  cudaMalloc(&device, 32 * sizeof(float));
  fill<<<1, 32>>>(device);
  cudaDeviceSynchronize();
  cudaFree(device);
  return 0;
}
