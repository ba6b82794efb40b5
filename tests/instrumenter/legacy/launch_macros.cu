// Launches written in macros: a launch macro used for two kernels (one edit in the #define, the
// kernel named by stringizing the parameter), a macro whose argument is a whole launch and is
// expanded twice, an object-like macro holding a fixed launch, and a macro whose one launch
// deduces a different kernel template in each use (one edit that calls the kernel through a
// function of the arguments' types).
#include <cstdio>
#define LAUNCH(kernel, blocks, threads, ...) kernel<<<blocks, threads>>>(__VA_ARGS__)
#define TWICE(...) __VA_ARGS__; __VA_ARGS__
#define RESET_COUNTS reset<<<1, 32>>>(counts)
#define FILL(data, value) fill<<<1, 32>>>(data, value)

__global__ void reset(int* counts) { counts[threadIdx.x] = 0; }
__global__ void count(int* counts, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&counts[i % 32], 1);
}
template <typename T>
__global__ void fill(T* data, T value) { data[threadIdx.x] = value; }

int main() {
  const int n = 256;
  int* counts;
  float* weights;
  cudaMalloc((void**)&counts, 32 * sizeof(int));
  cudaMalloc((void**)&weights, 32 * sizeof(float));
  LAUNCH(reset, 1, 32, counts);
  LAUNCH(count, n / 64, 64, counts, n);
  TWICE(count<<<n / 64, 64>>>(counts, n));
  RESET_COUNTS;
  LAUNCH(count, 1, 64, counts, 64);
  FILL(weights, 0.5f);
  FILL(counts, counts[0] * 0 + 2);
  int first = 0;
  cudaMemcpy(&first, counts, sizeof(int), cudaMemcpyDeviceToHost);
  printf(first == 2 ? "launch_macros: OK\n" : "launch_macros: %d\n", first);
  return 0;
}
// CHECK-HOST: #define LAUNCH(kernel, blocks, threads, ...) memcarlo_launch(#kernel, kernel, blocks, threads, 0, 0, __VA_ARGS__)
// CHECK-HOST: #define RESET_COUNTS memcarlo_launch("reset", reset, 1, 32, 0, 0, counts)
// CHECK-HOST: #define FILL(data, value) memcarlo_launch("fill", decltype(memcarlo_kernel_signature(data, value))::thunk([](auto... memcarlo_arguments) { fill(memcarlo_arguments...); }), 1, 32, 0, 0, data, value)
// CHECK-HOST: TWICE(memcarlo_launch("count", count, n / 64, 64, 0, 0, counts, n));
// CHECK-CUDA: #define LAUNCH(kernel, blocks, threads, ...) (memcarlo_launch_begin(#kernel, blocks, threads, 0, 0), memcarlo_launch_arguments(__VA_ARGS__), kernel<<<blocks, threads>>>(__VA_ARGS__), memcarlo_launch_end())
// CHECK-CUDA: #define FILL(data, value) (memcarlo_launch_begin("fill", 1, 32, 0, 0), memcarlo_launch_arguments(data, value), fill<<<1, 32>>>(data, value), memcarlo_launch_end())
// CHECK-SUMMARY: probed 3 accesses, skipped 0; 4 launches rewritten
