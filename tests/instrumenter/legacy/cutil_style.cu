// Every runtime call wrapped in cutil-style checking macros from a helper header, launches
// followed by CUT_CHECK_ERROR.
#include "include/cutil_style.h"

__global__ void square(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * data[i];
}

int main(int argc, char** argv) {
  CUT_DEVICE_INIT(argc, argv);
  const int n = 512;
  int* d_data = NULL;
  CUDA_SAFE_CALL(cudaMalloc((void**)&d_data, n * sizeof(int)));
  cutilSafeCall(cudaMemset(d_data, 0, n * sizeof(int)));
  square<<<n / 128, 128>>>(d_data, n);
  CUT_CHECK_ERROR("square failed");
  checkCudaErrors(cudaDeviceSynchronize());
  CUDA_SAFE_CALL(cudaFree(d_data));
  printf("cutil_style: OK\n");
  return 0;
}
// CHECK-LOADS: 3
// CHECK-HOST: memcarlo_launch("square", square, n / 128, 128, 0, 0, d_data, n);
// CHECK-SUMMARY: probed 2 accesses, skipped 1 (redundant: 1); 1 launches rewritten
