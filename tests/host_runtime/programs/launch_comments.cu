// Launches with `//` comments inside their configuration and argument lists, one of them in a
// host template whose kernel is deduced differently per instantiation (the rewrite then copies the
// arguments into an expression of its own, on one line). Written for these tests. Prints
// "Result = PASS".
#include <cuda_runtime.h>

#include <cstdio>

template <typename T>
__global__ void fill(T* data, T value, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = value;
}

template <typename T>
void fill_all(T* data, T value, int n) {
  fill<<<(n + 63) / 64, 64, //1024,
         0>>>(data, // the output
              value, n);
}

__global__ void add_one(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}

int main() {
  const int n = 100;
  int* ints;
  float* floats;
  cudaMallocManaged(&ints, n * sizeof(int));
  cudaMallocManaged(&floats, n * sizeof(float));
  fill_all(ints, 41, n);
  fill_all(floats, 2.5f, n);
  add_one<<<(n + 63) / 64, 64, // 128,
            0>>>(ints, /* count */ n // all of them
                 );
  cudaDeviceSynchronize();
  int errors = 0;
  for (int i = 0; i < n; ++i) errors += (ints[i] != 42) + (floats[i] != 2.5f);
  std::printf("%d mismatches\nResult = %s\n", errors, errors == 0 ? "PASS" : "FAIL");
  return errors == 0 ? 0 : 1;
}
