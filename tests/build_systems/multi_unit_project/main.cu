// Two translation units that share device helpers, one of them a unity build of a kernel file.
#include <stdio.h>

#include "stencil_kernel.cu"

void run_scale(const float* in, float* out, int n);

int main() {
  const int n = 256;
  float host[n];
  for (int i = 0; i < n; i++) host[i] = 1.0f;
  float *in, *out;
  cudaMalloc((void**)&in, n * sizeof(float));
  cudaMalloc((void**)&out, n * sizeof(float));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  stencil<<<n / 64, 64>>>(in, out, n);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  const bool stencil_ok = host[1] == 3.0f && host[n - 2] == 3.0f;
  run_scale(in, out, n);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf(stencil_ok && host[0] == 2.0f ? "multi_unit_project: OK\n" : "WRONG\n");
  return 0;
}
