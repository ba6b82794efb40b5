// Kernels that declare their locals `register`, as CUDA code of the 2000s does; C++17 removed the
// keyword and nvcc still accepts it. Written for these tests. Prints "Result = PASS".
#include <cuda_runtime.h>

#include <cstdio>

__global__ void row_sums(const float* matrix, float* sums, int rows, int cols) {
  register int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  register float sum = 0.0f;
  for (register int j = 0; j < cols; ++j) sum += matrix[row * cols + j];
  sums[row] = sum;
}

int main() {
  const int rows = 100, cols = 32;
  float *matrix, *sums;
  cudaMallocManaged(&matrix, rows * cols * sizeof(float));
  cudaMallocManaged(&sums, rows * sizeof(float));
  for (int i = 0; i < rows * cols; ++i) matrix[i] = static_cast<float>(i % cols);
  row_sums<<<(rows + 31) / 32, 32>>>(matrix, sums, rows, cols);
  cudaDeviceSynchronize();
  int errors = 0;
  for (int r = 0; r < rows; ++r) errors += sums[r] != 496.0f;  // 0 + 1 + ... + 31
  std::printf("%d mismatches\nResult = %s\n", errors, errors == 0 ? "PASS" : "FAIL");
  return errors == 0 ? 0 : 1;
}
