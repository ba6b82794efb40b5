// Launch chevrons split by white space, as Rodinia's particle filter writes them: nvcc accepts
// `kernel << < grid, block >> > (args)`, Clang lexes `<<<` only as one token. The parse reads the
// file with the chevrons rejoined in place (same length), so every line:column after them stays
// where it was; chevrons in comments and strings, and operator<< with explicit template
// arguments, are left alone.
#include <stdio.h>

#include <sstream>
#include <string>

__global__ void scale(float* data, float factor, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

template <typename T>
__global__ void add(T* data, T value) { data[threadIdx.x] += value; }

// Defined below the split launches: the loads table gives its access this file's line:column.
__global__ void offset(float* data, int shift);

int main() {
  const int n = 64;
  float* data;
  cudaMalloc((void**)&data, n * sizeof(float));
  cudaMemset(data, 0, n * sizeof(float));
  add<float> << < 1, n >> > (data, 3.0f);  // a comment with << < 1, n >> > (x) in it
  scale << < (n >> 4), 16 >> > (data, 2.0f, n);
  offset <<
      < 1, n >>
      > (data, 1);
  cudaDeviceSynchronize();
  float host[n];
  cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost);
  std::ostringstream text;
  text << "k << < 1, 2 >> > (x)";
  operator<< <std::char_traits<char>>(text, "!");
  bool ok = text.str() == "k << < 1, 2 >> > (x)!";
  for (int i = 0; i < n; ++i) ok = ok && host[i] == 7.0f;
  printf(ok ? "split_chevrons: OK\n" : "split_chevrons: WRONG\n");
  cudaFree(data);
  return 0;
}

__global__ void offset(float* data, int shift) { data[threadIdx.x] += shift; }
// CHECK-HOST: memcarlo_launch("add<float>", add<float>, 1, n , 0, 0, data, 3.0f); // a comment with << < 1, n >> > (x) in it
// CHECK-HOST: memcarlo_launch("scale", scale, (n >> 4), 16 , 0, 0, data, 2.0f, n);
// CHECK-HOST: text << "k << < 1, 2 >> > (x)";
// CHECK-HOST: operator<< <std::char_traits<char>>(text, "!");
// CHECK-LOAD: {"expression": "data[threadIdx.x]", "function": "offset", "line": 45, "column": 50}
// CHECK-LOAD: {"expression": "data[i]", "function": "scale", "line": 13, "column": 14}
// CHECK-SUMMARY: 3 launches rewritten
