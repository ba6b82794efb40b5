// Problem sizes given on the command line, PolyBench style (-DM=64 -DN=64 -DNI=... -DTSTEPS=2):
// one-letter and all-uppercase macros that CUDA 13's cuda.h and Clang's CUDA wrappers use as
// names, so the toolkit setup cannot parse this file; the builtin setup, whose headers avoid
// such names, must.
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef M
#define M 16
#endif
#ifndef N
#define N 16
#endif
#ifndef TSTEPS
#define TSTEPS 1
#endif
#define DATA_TYPE float

__global__ void column_mean(const DATA_TYPE* data, DATA_TYPE* mean) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= M) return;
  DATA_TYPE sum = 0;
  for (int i = 0; i < N; i++) sum += data[i * M + j];
  mean[j] = sum / (DATA_TYPE)N;
}

int main() {
  DATA_TYPE* host = (DATA_TYPE*)malloc(sizeof(DATA_TYPE) * M * N);
  for (int i = 0; i < M * N; i++) host[i] = (DATA_TYPE)(i % M);
  DATA_TYPE *data, *mean;
  cudaMalloc((void**)&data, sizeof(DATA_TYPE) * M * N);
  cudaMalloc((void**)&mean, sizeof(DATA_TYPE) * M);
  cudaMemcpy(data, host, sizeof(DATA_TYPE) * M * N, cudaMemcpyHostToDevice);
  for (int t = 0; t < TSTEPS; t++) column_mean<<<(M + 31) / 32, 32>>>(data, mean);
  cudaMemcpy(host, mean, sizeof(DATA_TYPE) * M, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int j = 0; j < M; j++) wrong += host[j] != (DATA_TYPE)j;
  printf(wrong == 0 && M == 64 && N == 48 ? "size_macros: OK\n" : "size_macros: WRONG\n");
  cudaFree(data);
  cudaFree(mean);
  free(host);
  return 0;
}
// RUN-ARGS: -- -DM=64 -DN=48 -DNI=64 -DNJ=64 -DNK=64 -DNL=64 -DNX=64 -DNY=64 -DTSTEPS=2
// RUN-ARGS: -DT=float -DA=1 -DB=2 -DX=3 -DBLOCK_SIZE=32
// CHECK-HOST: for (int t = 0; t < TSTEPS; t++) memcarlo_launch("column_mean", column_mean, (M + 31) / 32, 32, 0, 0, data, mean);
// CHECK-LOAD: {"kind": "read", "base": "data", "expression": "data[i * M + j]"}
// CHECK-LOAD: {"kind": "write", "base": "mean", "expression": "mean[j]"}
// CHECK-SUMMARY: probed 2 accesses, skipped 0; 1 launches rewritten [parsed host: builtin, device: builtin]
