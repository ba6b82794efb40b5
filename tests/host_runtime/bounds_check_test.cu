// Bounds checks of probed accesses and the crash handler: an out-of-bounds global access is
// reported with the kernel, block, thread, the access as the loads table describes it and where
// the address lies relative to the allocations; memory a kernel may legitimately reach outside
// device allocations (shared, local, __device__, pinned host memory) is not judged; a fault in a
// kernel names the kernel, block and thread, and the process still ends with the signal.
#include <cuda_runtime.h>
#include <sys/mman.h>

#include <csignal>
#include <string>

#include "host_test_util.h"

using host_test::DeviceArray;

namespace {

static constexpr unsigned memcarlo_tu = 0x6006u;
// The probes below stand in for the instrumenter's; their table entries give the places the
// reports must name.
static const char memcarlo_loads_table_json[] = R"json([
  {"id": 0, "function": "read_shifted", "file": "srad_like.cu", "line": 41, "column": 17,
   "expression": "J[i + shift]", "kind": "read", "element_size": 4},
  {"id": 1, "function": "write_shifted", "file": "srad_like.cu", "line": 52, "column": 5,
   "expression": "out[i + shift]", "kind": "write", "element_size": 4},
  {"id": 2, "function": "read_vector", "file": "vector.cu", "line": 7, "column": 20,
   "expression": "data4[i]", "kind": "read", "element_size": 16},
  {"id": 3, "function": "legitimate", "file": "legitimate.cu", "line": 1, "column": 1,
   "expression": "anything", "kind": "rmw", "element_size": 4}
])json";
MEMCARLO_REGISTER_LOADS(memcarlo_tu, memcarlo_loads_table_json)
#define PROBE(id, expression) (*memcarlo_probe(memcarlo_tu, id, &(expression)))

__global__ void read_shifted(const float* J, float* out, int shift) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  out[i] = PROBE(0, J[i + shift]);
}

__global__ void write_shifted(float* out, int shift) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  PROBE(1, out[i + shift]) = 1.0f;
}

__global__ void read_vector(const float4* data4, float* out, int first) {
  const int i = first + static_cast<int>(threadIdx.x);
  out[threadIdx.x] = PROBE(2, data4[i]).x;
}

__device__ int device_counter[4];

// Every kind of memory a probe may see besides device allocations: none is out of bounds.
__global__ void legitimate(int* device, int* mapped_host) {
  __shared__ int tile[32];
  MEMCARLO_DYNAMIC_SHARED(int, dynamic);
  int local[8] = {};
  const unsigned t = threadIdx.x;
  PROBE(3, tile[t]) = 1;
  PROBE(3, dynamic[t]) = 2;
  PROBE(3, local[t % 8]) += 3;
  PROBE(3, device_counter[t % 4]) += 0;
  PROBE(3, mapped_host[t]) += local[t % 8];
  PROBE(3, device[t]) += tile[t] + dynamic[t];
}

__global__ void write_through(int* pointer) {
  if (blockIdx.x == 1 && threadIdx.x == 3) {
    *pointer = 7;
  }
}

// Deep enough to overflow a 64 KiB stack; the volatile frame keeps the recursion real.
__device__ int recurse(int depth) {
  volatile char frame[512];
  frame[depth % 512] = static_cast<char>(depth);
  return depth == 0 ? frame[0] : recurse(depth - 1) + frame[depth % 512];
}

__global__ void overflows(int* out) {
  out[threadIdx.x] = recurse(100000);
}

class HostBoundsCheckDeathTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

void set_bounds_check(bool on) {
  memcarlo::host::RuntimeOptions options = memcarlo::host::runtime_options();
  options.bounds_check = on;
  memcarlo::host::set_runtime_options(options);
}

/// One page of memory that faults on every access.
void* inaccessible_page() {
  void* page = ::mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  EXPECT_NE(page, MAP_FAILED);
  return page;
}

}  // namespace

TEST_F(HostBoundsCheckDeathTest, ReadPastTheEndNamesKernelThreadAccessAndAllocation) {
  float* J = nullptr;
  ASSERT_CUDA(cudaMalloc(&J, 1000 * sizeof(float)));
  DeviceArray<float> out(1024);
  // Thread 1000 of the grid (block 7, thread 104) reads J[1000], the first float past the end.
  EXPECT_EXIT(memcarlo_launch("read_shifted", read_shifted, 8, 128, 0, 0, J, out.get(), 0),
              ::testing::ExitedWithCode(70),
              "memcarlo host runtime: out-of-bounds global memory read in kernel "
              "'read_shifted', block \\(7,0,0\\), thread \\(104,0,0\\): J\\[i \\+ shift\\] "
              "\\(srad_like\\.cu:41:17\\) reads 4 bytes at 0x[0-9a-f]+, which begins 0 bytes "
              "after the end of allocation 'J' \\(4000 bytes at 0x[0-9a-f]+\\)");
  cudaFree(J);
}

TEST_F(HostBoundsCheckDeathTest, UseAfterFreeNamesTheFreedAllocation) {
  DeviceArray<float> first(64);
  float* freed = nullptr;
  ASSERT_CUDA(cudaMalloc(&freed, 64 * sizeof(float)));
  ASSERT_CUDA(cudaFree(freed));
  // Nothing is allocated after `freed`: writing into it is a use after free.
  EXPECT_EXIT(memcarlo_launch("write_shifted", write_shifted, 1, 32, 0, 0, freed, 0),
              ::testing::ExitedWithCode(70),
              "out-of-bounds global memory write in kernel 'write_shifted', block \\(0,0,0\\), "
              "thread \\(0,0,0\\): out\\[i \\+ shift\\] \\(srad_like\\.cu:52:5\\) writes 4 bytes "
              "at 0x[0-9a-f]+, which lies in allocation 'freed' \\(256 bytes at 0x[0-9a-f]+\\), "
              "which cudaFree released");
}

TEST_F(HostBoundsCheckDeathTest, AccessThatOverrunsTheEndByPartOfAnElement) {
  DeviceArray<float> out(32);
  float4* data4 = nullptr;
  ASSERT_CUDA(cudaMalloc(&data4, 10 * sizeof(float4) - 8));  // the last float4 lacks 8 bytes
  EXPECT_EXIT(memcarlo_launch("read_vector", read_vector, 1, 1, 0, 0, data4, out.get(), 9),
              ::testing::ExitedWithCode(70),
              "data4\\[i\\] \\(vector\\.cu:7:20\\) reads 16 bytes at 0x[0-9a-f]+, which overruns "
              "the end of allocation 'data4' \\(152 bytes at 0x[0-9a-f]+\\) by 8 bytes");
  cudaFree(data4);
}

TEST(HostBoundsCheck, AccessesOutsideDeviceAllocationsThatKernelsMayMakeAreNotJudged) {
  DeviceArray<int> device(32);
  device.fill(0);
  int* mapped_host = nullptr;
  ASSERT_CUDA(cudaHostAlloc(&mapped_host, 32 * sizeof(int), cudaHostAllocMapped));
  for (int i = 0; i < 32; ++i) {
    mapped_host[i] = 10;
  }
  memcarlo_launch("legitimate", legitimate, 1, 32, 32 * sizeof(int), 0, device.get(), mapped_host);
  ASSERT_CUDA(cudaGetLastError());
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(mapped_host[i], 13) << i;
  }
  for (const int value : device.to_host()) {
    EXPECT_EQ(value, 3);
  }
  cudaFreeHost(mapped_host);
}

TEST(HostBoundsCheck, OffLetsAnAccessIntoTheAllocationsPaddingThrough) {
  // 1000 bytes take a whole page: reading byte 1000 does not fault, and with the check off nothing
  // else stops it (what MEMCARLO_BOUNDS_CHECK=0 and memcarlo run --no-bounds-check buy).
  float* J = nullptr;
  ASSERT_CUDA(cudaMalloc(&J, 250 * sizeof(float)));
  DeviceArray<float> out(256);
  set_bounds_check(false);
  memcarlo_launch("read_shifted", read_shifted, 2, 128, 0, 0, J, out.get(), 0);
  set_bounds_check(true);
  EXPECT_CUDA(cudaGetLastError());
  cudaFree(J);
}

TEST_F(HostBoundsCheckDeathTest, FaultInAKernelNamesKernelBlockAndThread) {
  int* pointer = static_cast<int*>(inaccessible_page());
  EXPECT_EXIT(memcarlo_launch("write_through", write_through, 2, 32, 0, 0, pointer),
              ::testing::KilledBySignal(SIGSEGV),
              "memcarlo host runtime: kernel 'write_through' crashed with SIGSEGV in block "
              "\\(1,0,0\\), thread \\(3,0,0\\): address 0x[0-9a-f]+ is not device memory");
}

TEST_F(HostBoundsCheckDeathTest, NullPointerAndUnprobedDeviceAccessAreTold) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "the sanitizer build's UndefinedBehaviorSanitizer reports the null store itself";
#endif
  EXPECT_EXIT(memcarlo_launch("write_through", write_through, 2, 32, 0, 0, nullptr),
              ::testing::KilledBySignal(SIGSEGV),
              "kernel 'write_through' crashed with SIGSEGV in block \\(1,0,0\\), thread "
              "\\(3,0,0\\): a null pointer was dereferenced");
  // Far past the last allocation, in device address space that is reserved and never mapped.
  EXPECT_EXIT(
      {
        int* base = nullptr;
        cudaMalloc(&base, 256);
        memcarlo_launch("write_through", write_through, 2, 32, 0, 0, base + (1 << 28));
      },
      ::testing::KilledBySignal(SIGSEGV),
      "is device address space outside every live allocation; the nearest allocation is "
      "'base' \\(256 bytes at 0x[0-9a-f]+\\), which the address follows by 1073741568 bytes");
}

TEST_F(HostBoundsCheckDeathTest, StackOverflowOfACudaThreadIsNamed) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer moves frames to its fake stack";
#endif
  memcarlo::host::RuntimeOptions options = memcarlo::host::runtime_options();
  options.fiber_stack_bytes = 64 * 1024;
  EXPECT_EXIT(
      {
        memcarlo::host::set_runtime_options(options);
        int* out = nullptr;
        cudaMalloc(&out, 32 * sizeof(int));
        memcarlo_launch("overflows", overflows, 1, 1, 0, 0, out);
      },
      ::testing::KilledBySignal(SIGSEGV),
      "kernel 'overflows' crashed with SIGSEGV in block \\(0,0,0\\), thread \\(0,0,0\\): the "
      "CUDA thread overflowed its 64 KiB stack");
}

TEST_F(HostBoundsCheckDeathTest, FaultOutsideKernelsStillEndsWithTheSignalAlone) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  GTEST_SKIP() << "AddressSanitizer and ThreadSanitizer report host faults themselves and exit";
#endif
  DeviceArray<int> out(32);
  memcarlo_launch("write_through", write_through, 1, 32, 0, 0, out.get());  // handler installed
  EXPECT_EXIT(
      {
        volatile int* null = nullptr;
        *null = 1;
      },
      ::testing::KilledBySignal(SIGSEGV), "^$");
}
