// y = a x + y on 4096 elements; prints "saxpy: OK" when the result is right.
#include <cstdio>

__global__ void saxpy(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 4096;
  static float x[n], y[n];
  for (int i = 0; i < n; ++i) {
    x[i] = 1.0f;
    y[i] = static_cast<float>(i);
  }
  float *d_x, *d_y;
  cudaMalloc((void**)&d_x, sizeof(x));
  cudaMalloc((void**)&d_y, sizeof(y));
  cudaMemcpy(d_x, x, sizeof(x), cudaMemcpyHostToDevice);
  cudaMemcpy(d_y, y, sizeof(y), cudaMemcpyHostToDevice);
  saxpy<<<n / 256, 256>>>(2.0f, d_x, d_y, n);
  cudaMemcpy(y, d_y, sizeof(y), cudaMemcpyDeviceToHost);
  std::printf(y[100] == 102.0f ? "saxpy: OK\n" : "saxpy: wrong\n");
  return 0;
}
