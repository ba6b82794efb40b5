// A kernel that launches another (dynamic parallelism), which the host backend does not emulate.
#include <stdio.h>

__global__ void child(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}

__global__ void parent(int* data, int n) {
  if (threadIdx.x == 0) {
    child<<<(n + 31) / 32, 32>>>(data, n);
    cudaDeviceSynchronize();
  }
}

int main() {
  int* data;
  cudaMalloc((void**)&data, 64 * sizeof(int));
  parent<<<1, 32>>>(data, 64);
  cudaDeviceSynchronize();
  printf("dynamic_parallelism: not reached\n");
  return 0;
}
