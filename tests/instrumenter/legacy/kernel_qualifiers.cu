// How kernels are declared in real code: __launch_bounds__ (with a macro, with a minimum of
// blocks, on a template), extern "C" (one kernel and a block of them), and printf and assert in
// kernels.
#include <assert.h>
#include <stdio.h>
#define THREADS 64

__global__ void __launch_bounds__(THREADS, 4) scale(float* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= 2.0f;
}
template <int block>
__global__ void __launch_bounds__(block) shift(float* data) {
  data[blockIdx.x * block + threadIdx.x] += 1.0f;
}
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" {
__global__ void check(const float* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);
  if (data[i] != 3.0f) printf("element %d is %f\n", i, data[i]);
}
}

int main() {
  const int n = 128;
  float *x, *y;
  cudaMalloc((void**)&x, n * sizeof(float));
  cudaMalloc((void**)&y, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  cudaMemset(y, 0, n * sizeof(float));
  shift<THREADS><<<n / THREADS, THREADS>>>(y);
  scale<<<n / THREADS, THREADS>>>(y, n);
  shift<THREADS><<<n / THREADS, THREADS>>>(y);
  saxpy<<<n / THREADS, THREADS>>>(1.0f, x, y, n);
  check<<<n / THREADS, THREADS>>>(y, n);
  cudaDeviceSynchronize();
  printf("kernel_qualifiers: OK\n");
  return 0;
}
// CHECK-HOST: memcarlo_launch("shift<THREADS>", shift<THREADS>, n / THREADS, THREADS, 0, 0, y);
// CHECK-HOST: memcarlo_launch("scale", scale, n / THREADS, THREADS, 0, 0, y, n);
// CHECK-HOST: memcarlo_launch("saxpy", saxpy, n / THREADS, THREADS, 0, 0, 1.0f, x, y, n);
// CHECK-HOST: memcarlo_launch("check", check, n / THREADS, THREADS, 0, 0, y, n);
// CHECK-LOAD: {"kind": "rmw", "base": "data", "function": "scale"}
// CHECK-LOAD: {"kind": "read", "base": "x", "function": "saxpy"}
// CHECK-LOAD: {"kind": "read", "base": "data", "function": "check", "expression": "data[i]"}
// CHECK-SUMMARY: 5 launches rewritten
