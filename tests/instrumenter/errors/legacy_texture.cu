// Classic-benchmark CUDA: texture references, cudaThreadSynchronize, clockRate, host min/max.
// CUDA 12/13 removed these APIs; both parse setups declare them.
#include <cstdio>
texture<float, 1, cudaReadModeElementType> texture_x;
__global__ void scale(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * tex1Dfetch(texture_x, i);
}
int main() {
  float* d = nullptr;
  cudaMalloc((void**)&d, 64 * sizeof(float));
  cudaBindTexture(0, texture_x, d, 64 * sizeof(float));
  scale<<<1, 64>>>(d, 64);
  cudaThreadSynchronize();
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  printf("%d %d\n", prop.clockRate, min(3, 4));
  return 0;
}
