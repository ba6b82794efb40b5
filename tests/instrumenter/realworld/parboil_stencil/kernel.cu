// Parboil-style 7-point stencil: each thread walks the z column; coefficients in __constant__.
#include "common.h"

__constant__ float coefficients[2];

__global__ void naive_kernel(const float* A0, float* Anext, int nx, int ny, int nz) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  const int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
  if (i >= nx - 1 || j >= ny - 1) return;
  for (int k = 1; k < nz - 1; k++) {
    Anext[Index3D(nx, ny, i, j, k)] =
        (A0[Index3D(nx, ny, i, j, k + 1)] + A0[Index3D(nx, ny, i, j, k - 1)] +
         A0[Index3D(nx, ny, i, j + 1, k)] + A0[Index3D(nx, ny, i, j - 1, k)] +
         A0[Index3D(nx, ny, i + 1, j, k)] + A0[Index3D(nx, ny, i - 1, j, k)]) *
            coefficients[1] -
        A0[Index3D(nx, ny, i, j, k)] * coefficients[0];
  }
}
