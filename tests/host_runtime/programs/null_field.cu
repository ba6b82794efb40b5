// A kernel that writes through a device pointer the host never set (a field left null): not an
// out-of-bounds access of any allocation, so the crash handler must name the kernel, block and
// thread as the process ends with SIGSEGV.
#include <cstdio>

#include <cuda_runtime.h>

struct Buffers {
  float* input;
  float* output;  // never allocated
};

__global__ void scale(Buffers buffers, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) {
    buffers.output[i] = 2.0f * buffers.input[i];
  }
}

int main() {
  Buffers buffers{nullptr, nullptr};
  cudaMalloc(&buffers.input, 256 * sizeof(float));
  cudaMemset(buffers.input, 0, 256 * sizeof(float));
  scale<<<1, 256>>>(buffers, 256);
  cudaDeviceSynchronize();
  std::printf("unreachable\n");
  return 0;
}
