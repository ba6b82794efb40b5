// Dynamic parallelism (CUDA 5 and later): a kernel launches another and calls the device
// runtime (cudaDeviceSynchronize, cudaGetLastError, cudaMalloc, cudaFree, which CUDA declares
// for host and device code). The host backend rewrites the device-side launch like a host
// launch, with a warning: the emulation stops the program there, naming the kernel and the line.
// The cuda backend leaves it as written.
#include <stdio.h>

__global__ void add_one(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}

__global__ void parent(int* data, int n, int* status) {
  if (threadIdx.x != 0) return;
  int* scratch = 0;
  if (cudaMalloc((void**)&scratch, sizeof(int)) == cudaSuccess) cudaFree(scratch);
  add_one<<<(n + 31) / 32, 32>>>(data, n);
  cudaDeviceSynchronize();
  status[0] = (int)cudaGetLastError();
}

int main() {
  int *data, *status;
  cudaMalloc((void**)&data, 64 * sizeof(int));
  cudaMalloc((void**)&status, sizeof(int));
  parent<<<1, 32>>>(data, 64, status);
  cudaDeviceSynchronize();
  printf("dynamic_parallelism: done\n");
  return 0;
}
// RUN-ARGS: -- -rdc=true
// CHECK-NOT-HOST: add_one<<<
// CHECK-HOST: memcarlo_launch("add_one", add_one, (n + 31) / 32, 32, 0, 0, data, n);
// CHECK-CUDA: add_one<<<(n + 31) / 32, 32>>>(data, n);
// CHECK-NOT-CUDA: memcarlo_launch_begin("add_one"
// CHECK-LOAD: {"kind": "rmw", "base": "data", "function": "add_one"}
// CHECK-LOAD: {"kind": "write", "base": "status", "function": "parent"}
// CHECK-SUMMARY: 2 launches rewritten
// CHECK-SUMMARY: memcarlo-instrument: warning:
// CHECK-SUMMARY: dynamic_parallelism.cu:17:3: the kernel launch `add_one<<<(n + 31) / 32, 32>>>(data, n)` in device code (parent) is dynamic parallelism, which the host backend does not emulate: the program stops with an error when it runs
