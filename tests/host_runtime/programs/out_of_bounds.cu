// The bug behind Rodinia srad_v2's crash, reduced: each pixel reads its south neighbour without
// checking for the last row, so the last row reads past the end of J. Built with memcarlo-cc, the
// run must name the access, the thread and the allocation it missed; with --no-bounds-check the
// reads land in J's allocation padding and the program finishes.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void srad_like(const float* J, float* dN, int rows, int cols) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < rows * cols) {
    dN[i] = J[i + cols] - J[i];
  }
}

int main() {
  const int rows = 40;
  const int cols = 25;
  float* J = nullptr;
  float* dN = nullptr;
  cudaMalloc(&J, rows * cols * sizeof(float));
  cudaMalloc(&dN, rows * cols * sizeof(float));
  cudaMemset(J, 0, rows * cols * sizeof(float));
  srad_like<<<(rows * cols + 255) / 256, 256>>>(J, dN, rows, cols);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
