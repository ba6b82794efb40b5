// A program whose launches pass scalar arguments: built with memcarlo-cc, each traced launch must
// record its integer and pointer arguments by parameter name (the kernel_arguments annotation),
// for a plain kernel and for an instance of a kernel template.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void row_sums(const float* matrix, float* sums, int rows, int cols) {
  const int row = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (row < rows) {
    float total = 0.0f;
    for (int c = 0; c < cols; ++c) total += matrix[row * cols + c];
    sums[row] = total;
  }
}

template <int Factor>
__global__ void scale(float* data, long long count) {
  const long long i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) data[i] *= Factor;
}

int main() {
  const int rows = 96;
  const int cols = 40;
  float* matrix = nullptr;
  float* sums = nullptr;
  cudaMalloc(&matrix, rows * cols * sizeof(float));
  cudaMalloc(&sums, rows * sizeof(float));
  cudaMemset(matrix, 0, rows * cols * sizeof(float));
  row_sums<<<(rows + 31) / 32, 32>>>(matrix, sums, rows, cols);
  scale<3><<<3, 32>>>(sums, static_cast<long long>(rows));
  cudaDeviceSynchronize();
  std::printf("matrix %p sums %p\n", static_cast<void*>(matrix), static_cast<void*>(sums));
  cudaFree(matrix);
  cudaFree(sums);
  return 0;
}
