// Kernels launched through function pointers (a variable, a table, a dereference): which kernel
// runs is known only then, so the launch's name for the trace is chosen at run time among the
// kernels of the pointer's type (the spelling when none matches).
#include <stdio.h>

__global__ void add_one(int* data, int n) {
  const int i = threadIdx.x;
  if (i < n) data[i] += 1;
}
__global__ void add_two(int* data, int n) {
  const int i = threadIdx.x;
  if (i < n) data[i] += 2;
}
__global__ void clear(float* data) { data[threadIdx.x] = 0.0f; }

typedef void (*int_kernel)(int*, int);

int main() {
  int* data;
  cudaMalloc((void**)&data, 32 * sizeof(int));
  cudaMemset(data, 0, 32 * sizeof(int));
  void (*kernel)(int*, int) = add_one;
  kernel<<<1, 32>>>(data, 32);
  int_kernel table[2] = {add_one, add_two};
  for (int pass = 0; pass < 2; ++pass) table[pass]<<<1, 32>>>(data, 32);
  (*kernel)<<<1, 32>>>(data, 32);
  int host[32];
  cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost);
  printf(host[0] == 5 && host[31] == 5 ? "function_pointer_launch: OK\n" : "WRONG\n");
  return 0;
}
// CHECK-HOST: memcarlo_launch((kernel == add_one ? "add_one" : kernel == add_two ? "add_two" : "kernel"), kernel, 1, 32, 0, 0, data, 32);
// CHECK-HOST: memcarlo_launch(((table[pass]) == add_one ? "add_one" : (table[pass]) == add_two ? "add_two" : "table[pass]"), table[pass], 1, 32, 0, 0, data, 32);
// CHECK-HOST: memcarlo_launch((((*kernel)) == add_one ? "add_one" : ((*kernel)) == add_two ? "add_two" : "(*kernel)"), (*kernel), 1, 32, 0, 0, data, 32);
// CHECK-CUDA: (memcarlo_launch_begin((kernel == add_one ? "add_one" : kernel == add_two ? "add_two" : "kernel"), 1, 32, 0, 0), memcarlo_launch_arguments(data, 32), kernel<<<1, 32>>>(data, 32), memcarlo_launch_end());
// CHECK-SUMMARY: 3 launches rewritten
