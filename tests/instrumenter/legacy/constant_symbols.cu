// __constant__ and __device__ variables filled from the host by symbol, including the string
// names that CUDA before 5.0 accepted (cudaMemcpyToSymbol("name", ...)), which become the
// variable itself, as current runtimes expect.
#include <cstdio>

#define TAPS 8
__constant__ float taps[TAPS];
__constant__ int signal_length;
__device__ float partial_sums[64];

__global__ void filter(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + TAPS > signal_length) return;
  float sum = 0.0f;
  for (int t = 0; t < TAPS; ++t) sum += taps[t] * in[i + t];
  out[i] = sum;
  partial_sums[threadIdx.x] += sum;
}

int main() {
  const int n = 64;
  float h_taps[TAPS];
  for (int t = 0; t < TAPS; ++t) h_taps[t] = 1.0f / TAPS;
  cudaMemcpyToSymbol(taps, h_taps, sizeof(h_taps));
  cudaMemcpyToSymbol("signal_length", &n, sizeof(int), 0, cudaMemcpyHostToDevice);
  float *in, *out;
  cudaMalloc((void**)&in, n * sizeof(float));
  cudaMalloc((void**)&out, n * sizeof(float));
  filter<<<1, n>>>(in, out);
  float sums[64];
  cudaMemcpyFromSymbol(sums, partial_sums, sizeof(sums));
  void* address = 0;
  cudaGetSymbolAddress(&address, partial_sums);
  printf("constant_symbols: OK\n");
  return 0;
}
// CHECK-LOADS: 3
// CHECK-LOAD: {"kind": "read", "base": "in", "function": "filter"}
// CHECK-LOAD: {"kind": "rmw", "base": "partial_sums"}
// CHECK-HOST: cudaMemcpyToSymbol(signal_length, &n, sizeof(int), 0, cudaMemcpyHostToDevice);
// CHECK-CUDA: cudaMemcpyToSymbol(signal_length, &n, sizeof(int), 0, cudaMemcpyHostToDevice);
// CHECK-SUMMARY: probed 3 accesses, skipped 2 (constant: 2); 1 launches rewritten
// CHECK-SUMMARY: note: 1 symbol names given as strings (CUDA before 5.0) replaced by the variables they name
