// A program of our own for the study tests: one kernel that reads a[i * stride] for each thread
// i and writes b[i]; the stride (argument 1) decides how many L1 lines a warp touches. Prints
// PASSED when b holds what the kernel should have written.
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void gather(const float* a, float* b, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    b[i] = 2.0f * a[(i * stride) % (n * 4)] + a[i % 64];
  }
}

int main(int argc, char** argv) {
  const int stride = argc > 1 ? std::atoi(argv[1]) : 1;
  const int n = 8192;
  std::vector<float> host(n * 4);
  for (int i = 0; i < n * 4; ++i) {
    host[i] = static_cast<float>(i % 7);
  }
  float* a = nullptr;
  float* b = nullptr;
  cudaMalloc(&a, host.size() * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMemcpy(a, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
  gather<<<n / 128, 128>>>(a, b, n, stride);
  std::vector<float> out(n);
  cudaMemcpy(out.data(), b, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    if (out[i] != 2.0f * host[(i * stride) % (n * 4)] + host[i % 64]) {
      std::printf("FAILED at %d\n", i);
      return 1;
    }
  }
  std::printf("PASSED stride %d\n", stride);
  return 0;
}
