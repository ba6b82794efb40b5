// A unity build: the .cu with main() #includes the .cu with the kernel, which is rewritten too.
#include <stdio.h>
#include <stdlib.h>
#include "include/unity_build_kernel.cu"

int main() {
  const int n = 256;
  float *a, *b;
  cudaMalloc((void**)&a, n * sizeof(float));
  cudaMalloc((void**)&b, n * sizeof(float));
  cudaMemset(a, 0, n * sizeof(float));
  for (int step = 0; step < 4; ++step) {
    relax<<<n / 64, 64>>>(step % 2 ? b : a, step % 2 ? a : b, n);
  }
  cudaThreadSynchronize();
  printf("unity_build: OK\n");
  return 0;
}
// CHECK-FILE: include/unity_build_kernel.cu: (*memcarlo_probe(memcarlo_tu, 0, &(out[i]))) = 0.5f * ((*memcarlo_probe(memcarlo_tu, 1, &(in[i - 1]))) + (*memcarlo_probe(memcarlo_tu, 2, &(in[i + 1]))));
// CHECK-HOST: memcarlo_launch("relax", relax, n / 64, 64, 0, 0, step % 2 ? b : a, step % 2 ? a : b, n);
// CHECK-SUMMARY: probed 3 accesses, skipped 0; 1 launches rewritten
