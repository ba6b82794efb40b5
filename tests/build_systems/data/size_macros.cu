// A PolyBench-style program: the problem sizes are macros with defaults that the build overrides
// on the command line (-DNI=... -DNJ=... -DNK=... -DTSTEPS=...), and cuda.h is included.
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef NI
#define NI 32
#endif
#ifndef NJ
#define NJ 32
#endif
#ifndef NK
#define NK 32
#endif
#ifndef TSTEPS
#define TSTEPS 1
#endif
#define DATA_TYPE float
#define DIM_THREAD_BLOCK_X 32

__global__ void product(const DATA_TYPE* a, const DATA_TYPE* b, DATA_TYPE* c) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y;
  if (i >= NI || j >= NJ) return;
  DATA_TYPE sum = 0;
  for (int k = 0; k < NK; k++) sum += a[i * NK + k] * b[k * NJ + j];
  c[i * NJ + j] = sum;
}

int main() {
  DATA_TYPE* a = (DATA_TYPE*)malloc(sizeof(DATA_TYPE) * NI * NK);
  DATA_TYPE* b = (DATA_TYPE*)malloc(sizeof(DATA_TYPE) * NK * NJ);
  DATA_TYPE* c = (DATA_TYPE*)malloc(sizeof(DATA_TYPE) * NI * NJ);
  for (int i = 0; i < NI * NK; i++) a[i] = 1;
  for (int i = 0; i < NK * NJ; i++) b[i] = 2;
  DATA_TYPE *a_gpu, *b_gpu, *c_gpu;
  cudaMalloc((void**)&a_gpu, sizeof(DATA_TYPE) * NI * NK);
  cudaMalloc((void**)&b_gpu, sizeof(DATA_TYPE) * NK * NJ);
  cudaMalloc((void**)&c_gpu, sizeof(DATA_TYPE) * NI * NJ);
  cudaMemcpy(a_gpu, a, sizeof(DATA_TYPE) * NI * NK, cudaMemcpyHostToDevice);
  cudaMemcpy(b_gpu, b, sizeof(DATA_TYPE) * NK * NJ, cudaMemcpyHostToDevice);
  const dim3 block(DIM_THREAD_BLOCK_X, 1);
  const dim3 grid((NJ + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, NI);
  for (int t = 0; t < TSTEPS; t++) product<<<grid, block>>>(a_gpu, b_gpu, c_gpu);
  cudaMemcpy(c, c_gpu, sizeof(DATA_TYPE) * NI * NJ, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < NI * NJ; i++) wrong += c[i] != 2 * NK;
  printf("size_macros: %s %dx%dx%d\n", wrong == 0 ? "OK" : "WRONG", NI, NJ, NK);
  cudaFree(a_gpu);
  cudaFree(b_gpu);
  cudaFree(c_gpu);
  free(a);
  free(b);
  free(c);
  return 0;
}
