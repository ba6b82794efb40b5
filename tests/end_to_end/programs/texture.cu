// Reads through a texture object, which the host backend does not emulate.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void read_texture(cudaTextureObject_t texture, float* out) {
  out[threadIdx.x] = tex1Dfetch<float>(texture, threadIdx.x);
}

int main() {
  float* device = nullptr;
  cudaMalloc(&device, 32 * sizeof(float));
  cudaTextureObject_t texture = 0;
  read_texture<<<1, 32>>>(texture, device);
  cudaDeviceSynchronize();
  std::printf("unreachable\n");
  return 0;
}
