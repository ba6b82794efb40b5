// A three-point stencil and its launch.
#include "stencil.h"

__global__ void smooth_kernel(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
}

void smooth(const float* in, float* out, int n) {
  smooth_kernel<<<(n + 127) / 128, 128>>>(in, out, n);
}
