// A program whose host code leans on the C++ standard library (containers, algorithms, streams)
// and whose device code calls the C and C++ math and runtime functions nvcc allows there.
#include <algorithm>
#include <cassert>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>
using namespace std;

__device__ float clamp_unit(float v) { return fminf(fmaxf(v, 0.0f), 1.0f); }

__global__ void normalize(float* values, const int* counts, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(n > 0);
  if (i >= n) return;
  float v = values[i] / (float)max(counts[i], 1);
  if (isnan(v) || isinf(v)) v = 0.0f;
  v = sqrtf(fabsf(v)) + std::sqrt(v) + std::abs(v) + expf(-v) + powf(v, 2.0f) + floorf(v) + FLT_EPSILON;
  if (i == n) printf("never %f\n", v);
  values[i] = clamp_unit(v) + (float)(clock() & 1);
}

int main() {
  vector<float> values(256);
  iota(values.begin(), values.end(), 0.0f);
  sort(values.begin(), values.end(), greater<float>());
  map<string, int> histogram;
  set<int> seen;
  for (float v : values) {
    histogram[to_string((int)v % 4)]++;
    seen.insert((int)v);
  }
  auto owned = make_unique<vector<int>>(values.size(), 1);
  tuple<int, float> pair_of = make_tuple(1, 2.0f);
  ostringstream text;
  text << setw(4) << get<0>(pair_of) << accumulate(owned->begin(), owned->end(), 0);
  float* d_values;
  int* d_counts;
  cudaMalloc((void**)&d_values, values.size() * sizeof(float));
  cudaMalloc((void**)&d_counts, owned->size() * sizeof(int));
  cudaMemcpy(d_values, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_counts, owned->data(), owned->size() * sizeof(int), cudaMemcpyHostToDevice);
  normalize<<<(int)values.size() / 64, 64>>>(d_values, d_counts, (int)values.size());
  cudaDeviceSynchronize();
  cout << "standard_library: OK" << endl;
  return text.str().empty() || histogram.size() != 4 || seen.size() != 256;
}
// CHECK-LOADS: 3
// CHECK-LOAD: {"kind": "read", "base": "values", "function": "normalize"}
// CHECK-LOAD: {"kind": "read", "base": "counts", "function": "normalize"}
// CHECK-LOAD: {"kind": "write", "base": "values", "function": "normalize"}
// CHECK-HOST: memcarlo_launch("normalize", normalize, (int)values.size() / 64, 64, 0, 0, d_values, d_counts, (int)values.size());
// CHECK-SUMMARY: probed 3 accesses, skipped 0; 1 launches rewritten
