// The kernel, in a header that a plain header includes too.
#ifndef PLAIN_HEADER_PROJECT_KERNELS_CUH
#define PLAIN_HEADER_PROJECT_KERNELS_CUH

__global__ void scale(float* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= 2.0f;
}

#endif
