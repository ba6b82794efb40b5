// Device code included by multi_file.cu (a kernel in a header, as real projects do).
#pragma once
__global__ void scale_kernel(float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= SCALE;
}
