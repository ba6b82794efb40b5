// cudaLaunchKernel with the kernel cast to an untyped pointer, as the runtime API declares it,
// and the C++ form without shared memory and stream. The host emulation unpacks `args` by the
// kernel's parameter types, so the host backend passes the kernel itself, with its name for the
// launch; the cuda backend keeps the call as written.
#include <stdio.h>

__global__ void fill(int* data, int value, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = value;
}

int main() {
  int* data;
  int value = 7, n = 64;
  cudaMalloc((void**)&data, n * sizeof(int));
  void* args[] = {&data, &value, &n};
  cudaLaunchKernel((void*)fill, dim3(2), dim3(32), args, 0, 0);
  value = 9;
  cudaLaunchKernel((const void*)&fill, 2, 32, args);
  cudaLaunchKernel(reinterpret_cast<void*>(fill), dim3(2), dim3(32), args, 0, nullptr);
  int host[64];
  cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost);
  printf(host[0] == 9 && host[63] == 9 ? "launch_kernel_api: OK\n" : "WRONG\n");
  return 0;
}
// CHECK-HOST: cudaLaunchKernel(memcarlo_named_kernel("fill", fill), dim3(2), dim3(32), args, 0, 0);
// CHECK-HOST: cudaLaunchKernel(memcarlo_named_kernel("fill", &fill), 2, 32, args);
// CHECK-HOST: cudaLaunchKernel(memcarlo_named_kernel("fill", fill), dim3(2), dim3(32), args, 0, nullptr);
// CHECK-CUDA: cudaLaunchKernel((void*)fill, dim3(2), dim3(32), args, 0, 0);
// CHECK-LOAD: {"kind": "write", "base": "data", "function": "fill"}
// CHECK-SUMMARY: cudaLaunchKernel: 3 casts of a kernel to an untyped pointer removed
