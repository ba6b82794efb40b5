// Rodinia-style program (after hotspot/kmeans): main.cu #includes the kernel file, legacy
// cudaThreadSynchronize, a texture reference bound with cudaBindTexture, host min/max on ints,
// and an error-checking macro from a helper header.
#include <stdio.h>
#include <stdlib.h>
#include <cuda.h>

#include "common.cuh"
#include "kernel.cu"

void run_hotspot(float* h_temp, float* h_power, float* h_result, int rows, int cols) {
  float *d_temp[2], *d_power;
  const size_t bytes = sizeof(float) * rows * cols;
  CUDA_SAFE_CALL(cudaMalloc((void**)&d_temp[0], bytes));
  CUDA_SAFE_CALL(cudaMalloc((void**)&d_temp[1], bytes));
  CUDA_SAFE_CALL(cudaMalloc((void**)&d_power, bytes));
  cudaMemcpy(d_temp[0], h_temp, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d_power, h_power, bytes, cudaMemcpyHostToDevice);
  cudaBindTexture(0, power_tex, d_power, bytes);

  dim3 threads(BLOCK_SIZE, BLOCK_SIZE);
  dim3 grid((cols + BLOCK_SIZE - 1) / BLOCK_SIZE, (rows + BLOCK_SIZE - 1) / BLOCK_SIZE);
  const int iterations = min(rows, MAX_ITERATIONS);
  int src = 0;
  for (int t = 0; t < iterations; ++t) {
    calculate_temp<<<grid, threads>>>(d_temp[src], d_temp[1 - src], rows, cols, STEP_RATIO);
    src = 1 - src;
  }
  cudaThreadSynchronize();
  cudaMemcpy(h_result, d_temp[src], bytes, cudaMemcpyDeviceToHost);
  cudaUnbindTexture(power_tex);
  cudaFree(d_temp[0]);
  cudaFree(d_temp[1]);
  cudaFree(d_power);
}

int main(int argc, char** argv) {
  const int rows = argc > 1 ? max(atoi(argv[1]), 16) : 64;
  const int cols = rows;
  float* temp = (float*)malloc(sizeof(float) * rows * cols);
  float* power = (float*)malloc(sizeof(float) * rows * cols);
  float* result = (float*)malloc(sizeof(float) * rows * cols);
  for (int i = 0; i < rows * cols; ++i) {
    temp[i] = 300.0f + (i % 7);
    power[i] = 0.001f * (i % 13);
  }
  run_hotspot(temp, power, result, rows, cols);
  printf("%f\n", result[0]);
  free(temp);
  free(power);
  free(result);
  return 0;
}
// CHECK-HOST: memcarlo_launch("calculate_temp", calculate_temp, grid, threads, 0, 0, d_temp[src], d_temp[1 - src], rows, cols, STEP_RATIO);
// CHECK-CUDA: (memcarlo_launch_begin("calculate_temp", grid, threads, 0, 0), memcarlo_launch_arguments(d_temp[src], d_temp[1 - src], rows, cols, STEP_RATIO), calculate_temp<<<grid, threads>>>(d_temp[src], d_temp[1 - src], rows, cols, STEP_RATIO), memcarlo_launch_end());
// CHECK-FILE: kernel.cu: const float center = (*memcarlo_probe(memcarlo_tu, 0, &(temp_src[IDX(row, col, cols)])));
// CHECK-FILE: kernel.cu: (*memcarlo_probe(memcarlo_tu, 1, &(temp_dst[IDX(row, col, cols)]))) =
// CHECK-LOAD: {"id": 0, "kind": "read", "base": "temp_src", "function": "calculate_temp", "index": {"kind": "affine"}}
// CHECK-LOAD: {"id": 1, "kind": "write", "base": "temp_dst", "index": {"expression": "16*blockIdx.y*cols + cols*threadIdx.y + 16*blockIdx.x + threadIdx.x"}}
// CHECK-LOAD: {"id": 2, "kind": "read", "index": {"kind": "non_affine"}}
// CHECK-LOADS: 6
// CHECK-SUMMARY: probed 6 accesses, skipped 0; 1 launches rewritten
