// The C++ part: makes the data, checks the GPU's counts against its own.
#include <cstdio>
#include <vector>

#include "histogram.h"

int main() {
  const int bins = 16;
  std::vector<int> values(5000);
  std::vector<int> expected(bins, 0);
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = static_cast<int>((i * 7919) % bins);
    ++expected[values[i]];
  }
  std::vector<int> counts(bins, -1);
  if (!gpu_histogram(values.data(), static_cast<int>(values.size()), counts.data(), bins) ||
      counts != expected) {
    std::printf("makefile_project: wrong counts\n");
    return 1;
  }
  std::printf("makefile_project: OK\n");
  return 0;
}
