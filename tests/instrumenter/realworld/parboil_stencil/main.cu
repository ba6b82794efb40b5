// Parboil-style driver: ping-pongs two grids through the stencil kernel #included from kernel.cu,
// with the kernel's constants uploaded by cudaMemcpyToSymbol and errors checked by a macro.
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#include "kernel.cu"

static int read_dimensions(int argc, char** argv, int* nx, int* ny, int* nz) {
  *nx = argc > 3 ? atoi(argv[1]) : 32;
  *ny = argc > 3 ? atoi(argv[2]) : 32;
  *nz = argc > 3 ? atoi(argv[3]) : 16;
  return *nx > 2 && *ny > 2 && *nz > 2;
}

int main(int argc, char** argv) {
  int nx, ny, nz;
  if (!read_dimensions(argc, argv, &nx, &ny, &nz)) return 1;
  const int size = nx * ny * nz;
  float* h_A0 = (float*)malloc(sizeof(float) * size);
  for (int i = 0; i < size; i++) h_A0[i] = (float)(i % 10);
  const float h_coefficients[2] = {1.0f / 6.0f, 1.0f};
  float *d_A0, *d_Anext;
  cudaMalloc((void**)&d_A0, size * sizeof(float));
  cudaMalloc((void**)&d_Anext, size * sizeof(float));
  CUERR
  cudaMemcpy(d_A0, h_A0, size * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_Anext, d_A0, size * sizeof(float), cudaMemcpyDeviceToDevice);
  cudaMemcpyToSymbol(coefficients, h_coefficients, sizeof(h_coefficients));
  dim3 block(16, 8, 1);
  dim3 grid((nx - 2 + block.x - 1) / block.x, (ny - 2 + block.y - 1) / block.y, 1);
  for (int t = 0; t < 4; t++) {
    naive_kernel<<<grid, block, 0, 0>>>(d_A0, d_Anext, nx, ny, nz);
    float* swap = d_A0;
    d_A0 = d_Anext;
    d_Anext = swap;
  }
  cudaDeviceSynchronize();
  CUERR
  cudaMemcpy(h_A0, d_A0, size * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%f\n", h_A0[Index3D(nx, ny, 1, 1, 1)]);
  cudaFree(d_A0);
  cudaFree(d_Anext);
  free(h_A0);
  return 0;
}
// CHECK-HOST: memcarlo_launch("naive_kernel", naive_kernel, grid, block, 0, 0, d_A0, d_Anext, nx, ny, nz);
// CHECK-FILE: kernel.cu: (*memcarlo_probe(memcarlo_tu, 0, &(Anext[Index3D(nx, ny, i, j, k)]))) =
// CHECK-LOAD: {"id": 0, "kind": "write", "base": "Anext", "loop_depth": 1, "index": {"kind": "affine", "expression": "blockDim.y*blockIdx.y*nx + k*nx*ny + blockDim.x*blockIdx.x + nx*threadIdx.y + nx + threadIdx.x + 1"}}
// CHECK-LOAD: {"kind": "read", "base": "A0", "expression": "A0[Index3D(nx, ny, i, j, k + 1)]"}
// CHECK-SUMMARY: probed 8 accesses, skipped 2 (constant: 2)
// CHECK-LOADS: 8
