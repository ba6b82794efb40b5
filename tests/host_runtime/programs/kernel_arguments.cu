// A program whose launches pass scalar arguments: built with memcarlo-cc, each traced launch must
// record its integer and pointer arguments by parameter name (the kernel_arguments annotation),
// for a plain kernel and for an instance of a kernel template. Its kernel template is launched
// with two instantiations, repeated, and from a host function template (instantiated twice, and
// one never instantiated): the instrumenter registers every launch name, so that
// --stop-after-trace stops after the last traced one.
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

/// The runtime names its launches `scale<Factor>` (as spelled), for every instance.
template <int Factor>
void scale_all(float* data, long long count) {
  scale<Factor><<<3, 32>>>(data, count);
}

/// Never instantiated: its launch can never run.
template <int Times>
void never_called(float* data) {
  scale<Times><<<1, 32>>>(data, 0);
}

int main() {
  const int rows = 96;
  const int cols = 40;
  float* matrix = nullptr;
  float* sums = nullptr;
  cudaMalloc(&matrix, rows * cols * sizeof(float));
  cudaMalloc(&sums, rows * sizeof(float));
  std::printf("matrix %p sums %p\n", static_cast<void*>(matrix), static_cast<void*>(sums));
  cudaMemset(matrix, 0, rows * cols * sizeof(float));
  row_sums<<<(rows + 31) / 32, 32>>>(matrix, sums, rows, cols);
  scale<3><<<3, 32>>>(sums, static_cast<long long>(rows));
  for (int repeat = 0; repeat < 2; ++repeat) {
    scale<2><<<3, 32>>>(sums, static_cast<long long>(rows));
  }
  scale_all<4>(sums, rows);
  scale_all<5>(sums, rows);
  cudaDeviceSynchronize();
  std::printf("done\n");
  cudaFree(matrix);
  cudaFree(sums);
  return 0;
}
