// Allocates device memory but never launches its kernel.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void never_called(float* out) { out[threadIdx.x] = 1.0f; }

int main(int argc, char**) {
  float* device = nullptr;
  cudaMalloc(&device, 32 * sizeof(float));
  if (argc > 5) {  // never true in the test
    never_called<<<1, 32>>>(device);
  }
  cudaFree(device);
  std::printf("no launch\n");
  return 0;
}
