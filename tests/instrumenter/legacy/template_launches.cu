// Template kernels as the CUDA samples launch them: explicit arguments picked in a switch over
// the block size, a deduced kernel, and a host template whose one launch line deduces a
// different kernel in each instantiation (one edit: the host backend calls the kernel through a
// function of the arguments' types).
#include <cstdio>

template <unsigned int kBlock, typename T>
__global__ void block_sum(const T* in, T* out, int n) {
  const unsigned i = blockIdx.x * kBlock + threadIdx.x;
  if (i < n) atomicAdd(&out[blockIdx.x], in[i]);
}

template <typename T>
__global__ void fill(T* data, T value, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = value;
}

template <typename T>
void fill_all(T* data, int n) {
  fill<<<(n + 63) / 64, 64>>>(data, T(1), n);
}

void sum(int threads, const int* in, int* out, int n) {
  switch (threads) {
    case 256: block_sum<256, int><<<n / 256, 256>>>(in, out, n); break;
    case 128: block_sum<128><<<n / 128, 128>>>(in, out, n); break;
    default: block_sum<64, int><<<n / 64, 64>>>(in, out, n); break;
  }
}

int main() {
  const int n = 1024;
  int *in, *out;
  float* values;
  cudaMalloc((void**)&in, n * sizeof(int));
  cudaMalloc((void**)&out, n * sizeof(int));
  cudaMalloc((void**)&values, n * sizeof(float));
  fill_all(in, n);
  fill_all(values, n);
  fill<<<1, 32>>>(out, 0, 32);
  sum(128, in, out, n);
  int first = 0;
  cudaMemcpy(&first, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf(first == 128 ? "template_launches: OK\n" : "template_launches: %d\n", first);
  return 0;
}
// CHECK-HOST: memcarlo_launch("block_sum<256, int>", block_sum<256, int>, n / 256, 256, 0, 0, in, out, n);
// CHECK-HOST: memcarlo_launch("block_sum<128, int>", block_sum<128, int>, n / 128, 128, 0, 0, in, out, n);
// CHECK-HOST: memcarlo_launch("fill", decltype(memcarlo_kernel_signature(data, T(1), n))::thunk([](auto... memcarlo_arguments) { fill(memcarlo_arguments...); }), (n + 63) / 64, 64, 0, 0, data, T(1), n);
// CHECK-HOST: memcarlo_launch("fill<int>", fill<int>, 1, 32, 0, 0, out, 0, 32);
// CHECK-CUDA: (memcarlo_launch_begin("fill", (n + 63) / 64, 64, 0, 0), memcarlo_launch_arguments(data, T(1), n), fill<<<(n + 63) / 64, 64>>>(data, T(1), n), memcarlo_launch_end());
// CHECK-LOAD: {"id": 0, "kind": "atomic", "base": "out", "function": "block_sum"}
// CHECK-SUMMARY: probed 3 accesses, skipped 0; 5 launches rewritten
