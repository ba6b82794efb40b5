// Host code that uses OpenMP beside a kernel, built the way many Makefiles build it: one
// compile-and-link line with -Xcompiler -fopenmp, which nvcc hands to the host link as well.
#include <omp.h>
#include <stdio.h>

__global__ void fill(int* out, int value) { out[blockIdx.x * blockDim.x + threadIdx.x] = value; }

int main() {
  int threads = 0;
#pragma omp parallel
  {
#pragma omp single
    threads = omp_get_num_threads();
  }
  int* out = nullptr;
  cudaMalloc(&out, 64 * sizeof(int));
  fill<<<2, 32>>>(out, threads);
  int host[64];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(out);
  const bool ok = threads >= 1 && host[63] == threads;
  printf("openmp_host: %s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
