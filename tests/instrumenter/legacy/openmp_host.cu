// Host code that times itself with OpenMP and gettimeofday and fills its input in an OpenMP loop
// (Rodinia's style), without -fopenmp: <omp.h> must be found even where Clang has no OpenMP
// runtime of its own, as nvcc's host compiler finds GCC's.
#include <omp.h>
#include <stdio.h>
#include <sys/time.h>

__global__ void double_all(float* values, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) values[i] *= 2.0f;
}

static double seconds() {
  struct timeval now;
  gettimeofday(&now, NULL);
  return now.tv_sec + now.tv_usec * 1e-6;
}

int main() {
  const int n = 1 << 12;
  static float host[1 << 12];
  const double start = omp_get_wtime();
#pragma omp parallel for num_threads(4)
  for (int i = 0; i < n; ++i) host[i] = (float)i;
  float* values;
  cudaMalloc((void**)&values, n * sizeof(float));
  cudaMemcpy(values, host, n * sizeof(float), cudaMemcpyHostToDevice);
  const double before = seconds();
  double_all<<<n / 256, 256>>>(values, n);
  cudaDeviceSynchronize();
  printf("%d threads, %.3f s, kernel %.3f s\n", omp_get_max_threads(), omp_get_wtime() - start,
         seconds() - before);
  return 0;
}
// CHECK-HOST: memcarlo_launch("double_all", double_all, n / 256, 256, 0, 0, values, n);
// CHECK-SUMMARY: probed 1 accesses, skipped 0; 1 launches rewritten
