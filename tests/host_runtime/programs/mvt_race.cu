// PolyBench MVT's first kernel with a launch shape whose threads share rows: blocks of (4, 8)
// threads and a row index from threadIdx.x alone, so eight lanes of each warp update the same
// x1[i]. A traced run must warn that such code computes other numbers than on a GPU.
#include <cstdio>

#include <cuda_runtime.h>

#define N 64

__global__ void mvt_kernel1(const float* a, float* x1, const float* y_1) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < N) {
    for (int j = 0; j < N; j++) {
      x1[i] += a[i * N + j] * y_1[j];
    }
  }
}

int main() {
  float* a = nullptr;
  float* x1 = nullptr;
  float* y_1 = nullptr;
  cudaMalloc(&a, N * N * sizeof(float));
  cudaMalloc(&x1, N * sizeof(float));
  cudaMalloc(&y_1, N * sizeof(float));
  cudaMemset(a, 0, N * N * sizeof(float));
  cudaMemset(x1, 0, N * sizeof(float));
  cudaMemset(y_1, 0, N * sizeof(float));
  mvt_kernel1<<<N / 4, dim3(4, 8)>>>(a, x1, y_1);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
