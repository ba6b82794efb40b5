// A unity build that includes its kernel file with angle brackets through -I. (as Rodinia's srad
// does): the rewritten kernel file, not the original, must be the one compiled.
#include <stdio.h>

#include <copy_kernel.cu>

int main() {
  const int n = 128;
  float host[n];
  for (int i = 0; i < n; i++) host[i] = static_cast<float>(i);
  float *in, *out;
  cudaMalloc((void**)&in, n * sizeof(float));
  cudaMalloc((void**)&out, n * sizeof(float));
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
  copy_twice<<<n / 32, 32>>>(in, out, n);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf(host[5] == 10.0f ? "angle_include_project: OK\n" : "WRONG\n");
  return 0;
}
