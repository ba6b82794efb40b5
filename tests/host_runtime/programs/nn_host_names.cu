// Rodinia nn's host code names its launch shape gridDim and blockDim. The instrumented program
// must compile for the host backend and the kernel must still see the built-ins.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void euclid(const float* latitude, const float* longitude, float* distance, int n,
                       float lat, float lng) {
  const int i = static_cast<int>(blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x);
  if (i < n) {
    const float dlat = lat - latitude[i];
    const float dlng = lng - longitude[i];
    distance[i] = dlat * dlat + dlng * dlng;
  }
}

int main() {
  const int n = 1000;
  float host[1000];
  for (int i = 0; i < n; ++i) {
    host[i] = static_cast<float>(i % 10);
  }
  float* latitude = nullptr;
  float* longitude = nullptr;
  float* distance = nullptr;
  cudaMalloc(&latitude, n * sizeof(float));
  cudaMalloc(&longitude, n * sizeof(float));
  cudaMalloc(&distance, n * sizeof(float));
  cudaMemcpy(latitude, host, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(longitude, host, n * sizeof(float), cudaMemcpyHostToDevice);
  dim3 blockDim(64);
  dim3 gridDim(8, 2);
  euclid<<<gridDim, blockDim>>>(latitude, longitude, distance, n, 1.0f, 2.0f);
  cudaMemcpy(host, distance, n * sizeof(float), cudaMemcpyDeviceToHost);
  bool correct = true;
  for (int i = 0; i < n; ++i) {
    const float dlat = 1.0f - static_cast<float>(i % 10);
    const float dlng = 2.0f - static_cast<float>(i % 10);
    correct = correct && host[i] == dlat * dlat + dlng * dlng;
  }
  std::printf("Result = %s\n", correct ? "PASS" : "FAIL");
  return correct ? 0 : 1;
}
