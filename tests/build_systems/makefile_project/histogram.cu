// A histogram kernel with shared-memory bins and the host function that runs it.
#include <cuda_runtime.h>

#include "histogram.h"
#include "launch_config.h"

__global__ void histogram_kernel(const int* values, int count, int* counts, int bins) {
  extern __shared__ int local[];
  for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    atomicAdd(&local[values[i]], 1);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += blockDim.x) atomicAdd(&counts[b], local[b]);
}

bool gpu_histogram(const int* values, int count, int* counts, int bins) {
  int* d_values = 0;
  int* d_counts = 0;
  cudaMalloc((void**)&d_values, count * sizeof(int));
  cudaMalloc((void**)&d_counts, bins * sizeof(int));
  cudaMemcpy(d_values, values, count * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_counts, 0, bins * sizeof(int));
  histogram_kernel<<<HISTOGRAM_BLOCKS, HISTOGRAM_THREADS, bins * sizeof(int)>>>(d_values, count,
                                                                             d_counts, bins);
  cudaMemcpy(counts, d_counts, bins * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d_values);
  cudaFree(d_counts);
  return cudaGetLastError() == cudaSuccess;
}
