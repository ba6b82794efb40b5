// A kernel that reads and writes only mapped host memory (zero copy, as the samples'
// simpleZeroCopy) and shared memory: it runs, and its trace holds no access. Written for these
// tests. Prints "Result = PASS".
#include <cuda_runtime.h>

#include <cstdio>

__global__ void add_neighbour(const float* in, float* out, int n) {
  __shared__ float staged[64];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  staged[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n) out[i] = staged[threadIdx.x] + staged[(threadIdx.x + 1) % blockDim.x];
}

int main() {
  const int n = 128;
  float* host_in;
  float* host_out;
  cudaHostAlloc(&host_in, n * sizeof(float), cudaHostAllocMapped);
  cudaHostAlloc(&host_out, n * sizeof(float), cudaHostAllocMapped);
  for (int i = 0; i < n; ++i) host_in[i] = static_cast<float>(i);
  float* in;
  float* out;
  cudaHostGetDevicePointer(reinterpret_cast<void**>(&in), host_in, 0);
  cudaHostGetDevicePointer(reinterpret_cast<void**>(&out), host_out, 0);
  add_neighbour<<<2, 64>>>(in, out, n);
  cudaDeviceSynchronize();
  int errors = 0;
  for (int i = 0; i < n; ++i) {
    const int next = i % 64 == 63 ? i - 63 : i + 1;
    errors += host_out[i] != static_cast<float>(i + next);
  }
  std::printf("%d mismatches\nResult = %s\n", errors, errors == 0 ? "PASS" : "FAIL");
  cudaFreeHost(host_in);
  cudaFreeHost(host_out);
  return errors == 0 ? 0 : 1;
}
