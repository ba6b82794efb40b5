// PolyBench/GPU-style GEMM (after gemm.cu): macro-defined sizes and element type, a typedef'd
// element, the legacy cudaThreadSynchronize, and a CPU reference with host-side loops.
#include <stdio.h>
#include <stdlib.h>
#include <cuda.h>

#include "polybench.h"

__global__ void gemm_kernel(DATA_TYPE* a, DATA_TYPE* b, DATA_TYPE* c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < NI) && (j < NJ)) {
    c[i * NJ + j] *= BETA;
    int k;
    for (k = 0; k < NK; k++) {
      c[i * NJ + j] += ALPHA * a[i * NK + k] * b[k * NJ + j];
    }
  }
}

void gemm_cpu(DATA_TYPE* A, DATA_TYPE* B, DATA_TYPE* C) {
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      C[i * NJ + j] *= BETA;
      for (int k = 0; k < NK; ++k) C[i * NJ + j] += ALPHA * A[i * NK + k] * B[k * NJ + j];
    }
}

void gemm_cuda(DATA_TYPE* A, DATA_TYPE* B, DATA_TYPE* C) {
  DATA_TYPE *A_gpu, *B_gpu, *C_gpu;
  cudaMalloc((void**)&A_gpu, sizeof(DATA_TYPE) * NI * NK);
  cudaMalloc((void**)&B_gpu, sizeof(DATA_TYPE) * NK * NJ);
  cudaMalloc((void**)&C_gpu, sizeof(DATA_TYPE) * NI * NJ);
  cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * NI * NK, cudaMemcpyHostToDevice);
  cudaMemcpy(B_gpu, B, sizeof(DATA_TYPE) * NK * NJ, cudaMemcpyHostToDevice);
  cudaMemcpy(C_gpu, C, sizeof(DATA_TYPE) * NI * NJ, cudaMemcpyHostToDevice);
  dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
  dim3 grid((size_t)(ceil(((float)NI) / ((float)block.x))),
            (size_t)(ceil(((float)NJ) / ((float)block.y))));
  gemm_kernel<<<grid, block>>>(A_gpu, B_gpu, C_gpu);
  cudaThreadSynchronize();
  cudaMemcpy(C, C_gpu, sizeof(DATA_TYPE) * NI * NJ, cudaMemcpyDeviceToHost);
  cudaFree(A_gpu);
  cudaFree(B_gpu);
  cudaFree(C_gpu);
}

int main() {
  DATA_TYPE* A = (DATA_TYPE*)malloc(NI * NK * sizeof(DATA_TYPE));
  DATA_TYPE* B = (DATA_TYPE*)malloc(NK * NJ * sizeof(DATA_TYPE));
  DATA_TYPE* C = (DATA_TYPE*)malloc(NI * NJ * sizeof(DATA_TYPE));
  for (int i = 0; i < NI * NK; i++) A[i] = ((DATA_TYPE)(i % NK)) / NI;
  for (int i = 0; i < NK * NJ; i++) B[i] = ((DATA_TYPE)(i % NJ)) / NJ;
  for (int i = 0; i < NI * NJ; i++) C[i] = 0;
  gemm_cuda(A, B, C);
  gemm_cpu(A, B, C);
  printf("%f\n", C[0]);
  free(A);
  free(B);
  free(C);
  return 0;
}
// CHECK-HOST: (*memcarlo_probe(memcarlo_tu, 0, &(c[i * NJ + j]))) *= BETA;
// CHECK-HOST: memcarlo_launch("gemm_kernel", gemm_kernel, grid, block, 0, 0, A_gpu, B_gpu, C_gpu);
// CHECK-NOT-HOST: &(C[i * NJ + j])
// CHECK-LOAD: {"id": 0, "kind": "rmw", "element_type": "DATA_TYPE", "element_size": 4, "loop_depth": 0, "index": {"kind": "affine", "expression": "blockDim.x*blockIdx.x + 128*blockDim.y*blockIdx.y + threadIdx.x + 128*threadIdx.y"}}
// CHECK-LOAD: {"kind": "read", "base": "b", "loop_depth": 1, "index": {"kind": "affine", "expression": "blockDim.x*blockIdx.x + 128*k + threadIdx.x"}}
// CHECK-SUMMARY: probed 4 accesses, skipped 0; 1 launches rewritten
