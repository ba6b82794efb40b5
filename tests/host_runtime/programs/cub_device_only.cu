// A program whose only device work is a CUB device-wide call (as radixSortThrust's is Thrust's):
// the host backend runs it on the CPU, untraced, so the program launches no kernel of its own.
// Written for these tests. Prints the sum.
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <cstdio>

int main() {
  const int n = 100;
  int* in;
  int* sum;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&sum, sizeof(int));
  for (int i = 0; i < n; ++i) in[i] = i;
  std::size_t bytes = 0;
  cub::DeviceReduce::Sum(nullptr, bytes, in, sum, n);
  void* scratch;
  cudaMalloc(&scratch, bytes);
  cub::DeviceReduce::Sum(scratch, bytes, in, sum, n);
  cudaDeviceSynchronize();
  std::printf("sum = %d\n", *sum);
  return *sum == 4950 ? 0 : 1;
}
