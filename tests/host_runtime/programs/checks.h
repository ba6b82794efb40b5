// What the CUB test programs share: a failure count, a comparison that prints what it got, and
// copies to and from device memory. A program prints `Result = PASS` when `failures` is 0.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <vector>

namespace {

int failures = 0;

/// Counts a failure and prints `FAILED: what:` and the values got when they differ from `want`.
template <class T>
void expect(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
  if (got != want) {
    ++failures;
    std::printf("FAILED: %s:", what);
    for (const T v : got) std::printf(" %d", static_cast<int>(v));
    std::printf("\n");
  }
}

template <class T>
T* device_copy(const std::vector<T>& host) {
  T* device = nullptr;
  cudaMalloc(&device, host.size() * sizeof(T));
  cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return device;
}

/// For a braced list of ints (`device_copy({3, 1, 2})`), which deduces no T.
int* device_copy(const std::vector<int>& host) {
  return device_copy<int>(host);
}

template <class T>
std::vector<T> host_copy(const T* device, int count) {
  std::vector<T> host(static_cast<std::size_t>(count));
  cudaMemcpy(host.data(), device, host.size() * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

}  // namespace
