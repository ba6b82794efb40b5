// Races within a warp instruction (docs/host-runtime.md, "Races within a warp"): PolyBench's MVT
// has eight threads of a block update the same x1[i]. A GPU warp executes `x1[i] += ...` in
// lockstep, so those lanes read the same old value and one write wins; the host backend runs each
// CUDA thread's loop to completion, so every lane's additions land. The results differ, and a
// traced launch says so; race-free kernels, flags every lane sets, and atomics do not warn.
// Races between the warps of a block ("Races between warps"): MVT as PolyBench launches it puts
// those eight threads in eight warps, which the host runs one after another.
#include <cuda_runtime.h>

#include <cstdio>
#include <string>
#include <vector>

#include "host_test_util.h"

using host_test::DeviceArray;

namespace {

static constexpr unsigned memcarlo_tu = 0x7007u;
static const char memcarlo_loads_table_json[] = R"json([
  {"id": 0, "function": "mvt_like", "file": "mvt_like.cu", "line": 12, "column": 7,
   "expression": "x1[i]", "kind": "rmw", "element_size": 4},
  {"id": 1, "function": "mvt_like", "file": "mvt_like.cu", "line": 12, "column": 16,
   "expression": "a[i * n + j]", "kind": "read", "element_size": 4},
  {"id": 2, "function": "mvt_like", "file": "mvt_like.cu", "line": 12, "column": 31,
   "expression": "y[j]", "kind": "read", "element_size": 4},
  {"id": 3, "function": "load_then_store", "file": "split.cu", "line": 20, "column": 15,
   "expression": "acc[i]", "kind": "read", "element_size": 4},
  {"id": 4, "function": "load_then_store", "file": "split.cu", "line": 21, "column": 5,
   "expression": "acc[i]", "kind": "write", "element_size": 4},
  {"id": 5, "function": "set_flag", "file": "flag.cu", "line": 3, "column": 5,
   "expression": "flag[0]", "kind": "write", "element_size": 4},
  {"id": 6, "function": "atomic_sum", "file": "atomic.cu", "line": 4, "column": 15,
   "expression": "x[i]", "kind": "atomic", "element_size": 4},
  {"id": 7, "function": "publish_then_read", "file": "publish.cu", "line": 5, "column": 3,
   "expression": "buffer[t]", "kind": "write", "element_size": 4},
  {"id": 8, "function": "publish_then_read", "file": "publish.cu", "line": 9, "column": 10,
   "expression": "buffer[(t + 32) % n]", "kind": "read", "element_size": 4},
  {"id": 9, "function": "atomic_shared_by_warps", "file": "atomic.cu", "line": 9, "column": 13,
   "expression": "x[threadIdx.x % 32]", "kind": "atomic", "element_size": 4}
])json";
MEMCARLO_REGISTER_LOADS(memcarlo_tu, memcarlo_loads_table_json)
#define PROBE(id, expression) (*memcarlo_probe(memcarlo_tu, id, &(expression)))

// Blocks of (4, 8) threads, one warp: i comes from threadIdx.x alone, so the eight lanes with the
// same threadIdx.x share x1[i], as in the MVT launch configuration the issue describes.
__global__ void mvt_like(int n, const float* a, float* x1, const float* y) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) {
    for (int j = 0; j < n; j++) {
      PROBE(0, x1[i]) += PROBE(1, a[i * n + j]) * PROBE(2, y[j]);
    }
  }
}

// The same race spelled as a load and a store.
__global__ void load_then_store(float* acc) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const float value = PROBE(3, acc[i]);
  PROBE(4, acc[i]) = value + 1.0f;
}

__global__ void set_flag(int* flag) {
  PROBE(5, flag[0]) = 1;
}

__global__ void atomic_sum(float* x) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&PROBE(6, x[i]), 1.0f);
}

// Each thread publishes a value, then reads the one published by the thread 32 ranks on: a thread
// of another warp. Without the barrier that read races with the other warp's write.
__global__ void publish_then_read(bool barrier, unsigned n, float* buffer, float* out) {
  const unsigned t = threadIdx.x;
  PROBE(7, buffer[t]) = static_cast<float>(t);
  if (barrier) {
    __syncthreads();
  }
  out[t] = PROBE(8, buffer[(t + 32) % n]);
}

__global__ void atomic_shared_by_warps(float* x) {
  atomicAdd(&PROBE(9, x[threadIdx.x % 32]), 1.0f);
}

/// Runs `launch` with every block traced and returns what the runtime printed on stderr.
template <class Launch>
std::string traced_stderr(const std::string& name, Launch&& launch) {
  const std::string path = host_test::temporary_trace_path("lane_sharing_" + name);
  host_test::TracingOff tracing_off;
  memcarlo::host::RuntimeOptions options = host_test::trace_options(path);
  options.snapshot_blocks = 1u << 20;
  memcarlo::host::set_runtime_options(options);
  ::testing::internal::CaptureStderr();
  launch();
  const std::string printed = ::testing::internal::GetCapturedStderr();
  memcarlo::host::finish_trace();
  std::remove(path.c_str());
  return printed;
}

}  // namespace

TEST(HostLaneSharing, MvtLikeUpdatesOfOneAddressByEightLanesWarnAndAccumulateEveryLane) {
  const int n = 16;
  std::vector<float> a(n * n);
  std::vector<float> y(n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = static_cast<float>(i % 5);
  }
  for (int j = 0; j < n; ++j) {
    y[j] = 0.5f * static_cast<float>(j % 3);
  }
  DeviceArray<float> a_device(a), y_device(y), x1(n);
  x1.fill(0.0f);
  const std::string printed = traced_stderr("mvt", [&] {
    memcarlo_launch("mvt_like", mvt_like, n / 4, dim3(4, 8), 0, 0, n, a_device.get(), x1.get(),
                    y_device.get());
  });
  EXPECT_NE(printed.find("warning: kernel 'mvt_like': up to 8 lanes of one warp instruction "
                         "update the same address through x1[i] (mvt_like.cu:12:7), in " +
                         std::to_string(n / 4 * n) + " warp instructions"),
            std::string::npos)
      << printed;
  EXPECT_EQ(printed.find("a[i * n + j]"), std::string::npos) << printed;
  // The caveat itself: every one of the eight lanes added its whole row, where a GPU warp's
  // lockstep update keeps one lane's sum.
  const std::vector<float> result = x1.to_host();
  for (int i = 0; i < n; ++i) {
    float row = 0.0f;
    for (int j = 0; j < n; ++j) {
      row += a[i * n + j] * y[j];
    }
    EXPECT_FLOAT_EQ(result[i], 8.0f * row) << i;
  }
}

TEST(HostLaneSharing, LoadThenStoreOfOneAddressWarns) {
  DeviceArray<float> acc(8);
  acc.fill(0.0f);
  const std::string printed = traced_stderr("split", [&] {
    memcarlo_launch("load_then_store", load_then_store, 2, dim3(4, 8), 0, 0, acc.get());
  });
  EXPECT_NE(printed.find("kernel 'load_then_store': up to 8 lanes of one warp instruction read "
                         "and then write the same address through acc[i] (split.cu:21:5), in 2 "
                         "warp instructions"),
            std::string::npos)
      << printed;
}

TEST(HostLaneSharing, RaceFreeKernelsFlagsAndAtomicsDoNotWarn) {
  const int n = 64;
  DeviceArray<float> a(n * n), y(n), x1(n), x(128);
  a.fill(1.0f);
  y.fill(1.0f);
  x1.fill(0.0f);
  x.fill(0.0f);
  DeviceArray<int> flag(1);
  const std::string printed = traced_stderr("quiet", [&] {
    // One thread per row: lanes never share x1[i].
    memcarlo_launch("mvt_like", mvt_like, n / 32, 32, 0, 0, n, a.get(), x1.get(), y.get());
    // One block: blocks run on several OS threads, and two writing flag[0] would race there.
    memcarlo_launch("set_flag", set_flag, 1, 64, 0, 0, flag.get());
    memcarlo_launch("atomic_sum", atomic_sum, 4, 32, 0, 0, x.get());
  });
  EXPECT_EQ(printed.find("warning"), std::string::npos) << printed;
  for (const float value : x1.to_host()) {
    EXPECT_FLOAT_EQ(value, static_cast<float>(n));
  }
}

TEST(HostWarpConflicts, MvtAsPolybenchLaunchesItWarnsOnceForTheUpdateSharedByEightWarps) {
  // Blocks of 32 x 8 threads: the eight threads that share x1[i] are in eight warps.
  const int n = 64;
  std::vector<float> a(n * n);
  std::vector<float> y(n);
  for (int i = 0; i < n * n; ++i) {
    a[i] = static_cast<float>(i % 7);
  }
  for (int j = 0; j < n; ++j) {
    y[j] = 0.25f * static_cast<float>(j % 4);
  }
  DeviceArray<float> a_device(a), y_device(y), x1(n);
  x1.fill(0.0f);
  const std::string printed = traced_stderr("warps_mvt", [&] {
    memcarlo_launch("mvt_like", mvt_like, n / 32, dim3(32, 8), 0, 0, n, a_device.get(), x1.get(),
                    y_device.get());
  });
  // Two blocks, one barrier interval each (no __syncthreads).
  EXPECT_NE(printed.find("warning: kernel 'mvt_like': several warps of one block update the same "
                         "address through x1[i] (mvt_like.cu:12:7) with no __syncthreads between "
                         "them, in 2 barrier intervals"),
            std::string::npos)
      << printed;
  EXPECT_EQ(printed.find("lanes of one warp instruction"), std::string::npos) << printed;
  EXPECT_EQ(printed.find("a[i * n + j]"), std::string::npos) << printed;
  // What the warning is about: each warp added its row on top of the previous warps' sums.
  const std::vector<float> result = x1.to_host();
  for (int i = 0; i < n; ++i) {
    float row = 0.0f;
    for (int j = 0; j < n; ++j) {
      row += a[i * n + j] * y[j];
    }
    EXPECT_FLOAT_EQ(result[i], 8.0f * row) << i;
  }
}

TEST(HostWarpConflicts, ReadOfAnotherWarpsWriteWarnsUnlessABarrierSeparatesThem) {
  const unsigned n = 96;  // three warps
  DeviceArray<float> buffer(n), out(n);
  const std::string racy = traced_stderr("warps_publish", [&] {
    memcarlo_launch("publish_then_read", publish_then_read, 1, n, 0, 0, false, n, buffer.get(),
                    out.get());
  });
  EXPECT_NE(racy.find("kernel 'publish_then_read': buffer[(t + 32) % n] (publish.cu:9:10) reads "
                      "an address that another warp of the same block writes through buffer[t] "
                      "(publish.cu:5:3) with no __syncthreads between them, in 1 barrier "
                      "intervals"),
            std::string::npos)
      << racy;
  const std::string synchronized = traced_stderr("warps_publish_synced", [&] {
    memcarlo_launch("publish_then_read", publish_then_read, 1, n, 0, 0, true, n, buffer.get(),
                    out.get());
  });
  EXPECT_EQ(synchronized.find("warning"), std::string::npos) << synchronized;
  const std::vector<float> result = out.to_host();
  for (unsigned t = 0; t < n; ++t) {
    EXPECT_FLOAT_EQ(result[t], static_cast<float>((t + 32) % n)) << t;
  }
}

TEST(HostWarpConflicts, OwnAddressesFlagsAndAtomicsAcrossWarpsDoNotWarn) {
  const int n = 64;
  DeviceArray<float> a(n * n), y(n), x1(n), x(32);
  a.fill(1.0f);
  y.fill(1.0f);
  x1.fill(0.0f);
  x.fill(0.0f);
  DeviceArray<int> flag(1);
  const std::string printed = traced_stderr("warps_quiet", [&] {
    // Two warps, each its own rows.
    memcarlo_launch("mvt_like", mvt_like, 1, 64, 0, 0, n, a.get(), x1.get(), y.get());
    // Four warps store to one flag and nobody reads it.
    memcarlo_launch("set_flag", set_flag, 1, 128, 0, 0, flag.get());
    // Four warps add into the same 32 addresses with atomics.
    memcarlo_launch("atomic_shared_by_warps", atomic_shared_by_warps, 1, 128, 0, 0, x.get());
  });
  EXPECT_EQ(printed.find("warning"), std::string::npos) << printed;
  for (const float value : x.to_host()) {
    EXPECT_FLOAT_EQ(value, 4.0f);
  }
}
