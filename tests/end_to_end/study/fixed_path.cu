// A program of our own for the study tests: it opens its input at a fixed path relative to its
// current folder, as Rodinia's srad_v1 opens ../../../data/srad/image.pgm, then sums the values on
// the device. A study runs it in a folder under its work folder ("run_in") where that path
// reaches the file its inputs command wrote; it prints PASSED when the sum is the file's.
#include <cstdio>
#include <vector>

__global__ void total(const int* values, int count, int* sum) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < count) {
    atomicAdd(sum, values[i]);
  }
}

int main() {
  std::FILE* file = std::fopen("../../data/values.txt", "r");
  if (file == nullptr) {
    std::printf("cannot open ../../data/values.txt\n");
    return 1;
  }
  std::vector<int> host;
  int value = 0;
  long expected = 0;
  while (std::fscanf(file, "%d", &value) == 1) {
    host.push_back(value);
    expected += value;
  }
  std::fclose(file);
  const int count = static_cast<int>(host.size());
  int* values = nullptr;
  int* sum = nullptr;
  cudaMalloc(&values, host.size() * sizeof(int));
  cudaMalloc(&sum, sizeof(int));
  cudaMemset(sum, 0, sizeof(int));
  cudaMemcpy(values, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice);
  total<<<(count + 63) / 64, 64>>>(values, count, sum);
  int result = 0;
  cudaMemcpy(&result, sum, sizeof(int), cudaMemcpyDeviceToHost);
  if (count == 0 || result != expected) {
    std::printf("FAILED: %d values, sum %d, expected %ld\n", count, result, expected);
    return 1;
  }
  std::printf("PASSED: %d values\n", count);
  return 0;
}
