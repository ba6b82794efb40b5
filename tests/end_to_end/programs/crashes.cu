// Launches a kernel, then dereferences a null host pointer: memcarlo run must say the program was
// killed by a signal and leave the trace of the launch that completed.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void fill(int* out) { out[threadIdx.x] = static_cast<int>(threadIdx.x); }

int main() {
  int* device = nullptr;
  cudaMalloc(&device, 32 * sizeof(int));
  fill<<<1, 32>>>(device);
  cudaDeviceSynchronize();
  std::printf("launched\n");
  std::fflush(stdout);
  volatile int* null = nullptr;
  *null = 1;
  return 0;
}
