// The kernels and fixture of the snapshot and stop-after-trace tests (snapshot_test.cu,
// stop_after_trace_test.cu): probed kernels of one loads table, unit kSnapshotTu, which
// snapshot_test.cu registers (once for the test binary), and a test that traces into a
// temporary file and reads it back checked.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <string>

#include "host_test_util.h"
#include "memcarlo/tracebuf/reader.hpp"

inline constexpr unsigned kSnapshotTu = 0x3003u;

inline __global__ void touch(int* data) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  *memcarlo_probe(kSnapshotTu, 0u, &(data[i])) += 1;
}

// Touches its data only when n > 0: a launch with n == 0 makes no record.
inline __global__ void touch_if(int* data, int n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n > 0) {
    *memcarlo_probe(kSnapshotTu, 0u, &(data[i])) += n;
  }
}

template <int Scale>
inline __global__ void scaled(int* data) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  *memcarlo_probe(kSnapshotTu, 0u, &(data[i])) += Scale;
}

inline __global__ void other_kernel(int* data) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  *memcarlo_probe(kSnapshotTu, 0u, &(data[i])) += 2;
}

class HostSnapshot : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = host_test::temporary_trace_path(
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { std::remove(path_.c_str()); }
  /// Finishes the trace and opens it; every trace must pass `memcarlo trace check`'s invariants
  /// with all lane addresses inside listed allocations.
  memcarlo::tracebuf::TraceReader finish() {
    memcarlo::host::finish_trace();
    memcarlo::tracebuf::TraceReader reader = memcarlo::tracebuf::TraceReader::open(path_);
    const memcarlo::tracebuf::CheckReport report = memcarlo::tracebuf::check_invariants(reader);
    EXPECT_EQ(report.addresses_outside_allocations, 0u);
    EXPECT_TRUE(report.warnings.empty()) << report.warnings.front();
    return reader;
  }

  std::string path_;
  host_test::TracingOff tracing_off_;
};

