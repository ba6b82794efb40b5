// Texture references passed to __device__ functions (by value and by a template parameter), as
// classic kernels share one fetch helper among several textures.
#include <stdio.h>

texture<float, 1, cudaReadModeElementType> left_input;
texture<float, 1, cudaReadModeElementType> right_input;

__device__ float fetch_pair(texture<float, 1, cudaReadModeElementType> input, int i) {
  return tex1Dfetch(input, i) + tex1Dfetch(input, i + 1);
}
template <class Texture>
__device__ float fetch_any(Texture input, int i) {
  return tex1Dfetch(input, i);
}

__global__ void combine(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 1) out[i] = fetch_pair(left_input, i) + fetch_any(right_input, i);
}

int main() {
  float *left, *right, *out;
  cudaMalloc((void**)&left, 64 * sizeof(float));
  cudaMalloc((void**)&right, 64 * sizeof(float));
  cudaMalloc((void**)&out, 64 * sizeof(float));
  cudaBindTexture(0, left_input, left, 64 * sizeof(float));
  cudaBindTexture(0, right_input, right, 64 * sizeof(float));
  combine<<<1, 64>>>(out, 64);
  printf("texture_parameters: OK\n");
  return 0;
}
// CHECK-LOADS: 1
// CHECK-LOAD: {"kind": "write", "base": "out", "function": "combine"}
// CHECK-HOST: memcarlo_launch("combine", combine, 1, 64, 0, 0, out, 64);
// CHECK-SUMMARY: probed 1 accesses, skipped 0; 1 launches rewritten
