// Rodinia srad_v2's first block, reduced: each pixel reads its north neighbour before checking for
// the first row, so the first row reads a row before the image, the first allocation, and then
// replaces the value. The bounds check stops the run; with it off the row below the first
// allocation reads as zeros (as mapped device memory does on a GPU) and the program finishes.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void north(const float* image, float* difference, int rows, int cols) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < rows * cols) {
    float above = image[i - cols];
    if (i < cols) {
      above = image[i];
    }
    difference[i] = image[i] - above;
  }
}

int main() {
  const int rows = 16;
  const int cols = 64;
  float* image = nullptr;
  float* difference = nullptr;
  cudaMalloc(&image, rows * cols * sizeof(float));
  cudaMalloc(&difference, rows * cols * sizeof(float));
  cudaMemset(image, 0, rows * cols * sizeof(float));
  north<<<(rows * cols + 255) / 256, 256>>>(image, difference, rows, cols);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("failed\n");
    return 1;
  }
  std::printf("done\n");
  return 0;
}
