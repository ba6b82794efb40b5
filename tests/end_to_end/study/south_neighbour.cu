// A program of our own for the study tests: each thread reads its south neighbour without checking
// for the last row, as Rodinia's srad_v2 does, so the last row reads past the end of its array. The
// host runtime's bounds check stops the run unless the study's entry says "bounds_check": false;
// then the reads land in the allocation's padding and the program prints PASSED (it checks only
// the rows whose neighbour exists).
#include <cstdio>
#include <vector>

__global__ void south(const float* image, float* difference, int rows, int cols) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < rows * cols) {
    difference[i] = image[i + cols] - image[i];
  }
}

int main() {
  // 4000 bytes: the first read past the end lands in the allocation's padding, not in the next
  // allocation.
  const int rows = 40;
  const int cols = 25;
  std::vector<float> host(rows * cols);
  for (int i = 0; i < rows * cols; ++i) {
    host[i] = static_cast<float>(i / cols);
  }
  float* image = nullptr;
  float* difference = nullptr;
  cudaMalloc(&image, host.size() * sizeof(float));
  cudaMalloc(&difference, host.size() * sizeof(float));
  cudaMemcpy(image, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
  south<<<(rows * cols + 127) / 128, 128>>>(image, difference, rows, cols);
  std::vector<float> out(host.size());
  cudaMemcpy(out.data(), difference, out.size() * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < (rows - 1) * cols; ++i) {
    if (out[i] != 1.0f) {
      std::printf("FAILED at %d\n", i);
      return 1;
    }
  }
  std::printf("PASSED\n");
  return 0;
}
