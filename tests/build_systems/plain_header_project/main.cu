// The plain header comes first: were it read from its own folder, its include would put the
// original kernel header in, and the include guard would then keep the rewritten one out.
#include <stdio.h>

#include "wrapper.h"
#include "kernels.cuh"

int main() {
  const int n = 64;
  float host[n];
  for (int i = 0; i < n; i++) host[i] = static_cast<float>(i);
  float* data;
  cudaMalloc((void**)&data, n * sizeof(float));
  cudaMemcpy(data, host, sizeof host, cudaMemcpyHostToDevice);
  scale<<<blocks_for(n, 32), 32>>>(data, n);
  cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost);
  printf(host[5] == 10.0f ? "plain_header_project: OK\n" : "WRONG\n");
  return 0;
}
