// Helpers for the host-runtime tests: device buffers, CUDA status checks and trace options.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <string>
#include <vector>

#include "memcarlo/host/control.hpp"

#define ASSERT_CUDA(call) ASSERT_EQ((call), cudaSuccess) << #call
#define EXPECT_CUDA(call) EXPECT_EQ((call), cudaSuccess) << #call

namespace host_test {

/// A device array with host-side copies in and out.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t count) : count_(count) {
    EXPECT_EQ(cudaMalloc(&data_, count * sizeof(T)), cudaSuccess);
  }
  explicit DeviceArray(const std::vector<T>& values) : DeviceArray(values.size()) {
    EXPECT_EQ(cudaMemcpy(data_, values.data(), values.size() * sizeof(T), cudaMemcpyHostToDevice),
              cudaSuccess);
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { cudaFree(data_); }

  T* get() const { return data_; }
  std::size_t size() const { return count_; }
  std::vector<T> to_host() const {
    std::vector<T> values(count_);
    EXPECT_EQ(cudaMemcpy(values.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost),
              cudaSuccess);
    return values;
  }
  void fill(const T& value) const { upload(std::vector<T>(count_, value)); }
  void upload(const std::vector<T>& values) const {
    EXPECT_EQ(cudaMemcpy(data_, values.data(), values.size() * sizeof(T), cudaMemcpyHostToDevice),
              cudaSuccess);
  }

 private:
  T* data_ = nullptr;
  std::size_t count_;
};

/// A trace file path unique to this test process. A death test's child (a re-executed copy of
/// the test binary) names the same file as its parent, so that the parent can read what it wrote.
inline std::string temporary_trace_path(const std::string& name) {
  const bool death_test_child = !GTEST_FLAG_GET(internal_run_death_test).empty();
  const int pid = death_test_child ? ::getppid() : ::getpid();
  return ::testing::TempDir() + "memcarlo_host_" + name + "_" + std::to_string(pid) + ".mct";
}

/// Tracing on `path` with the default snapshot rules, every kernel, launch 0 of each.
inline memcarlo::host::RuntimeOptions trace_options(const std::string& path) {
  memcarlo::host::RuntimeOptions options;
  options.trace_path = path;
  return options;
}

/// Restores tracing off after a test, finishing whatever trace it left open.
struct TracingOff {
  ~TracingOff() {
    memcarlo::host::finish_trace();
    memcarlo::host::set_runtime_options(memcarlo::host::RuntimeOptions{});
  }
};

}  // namespace host_test
