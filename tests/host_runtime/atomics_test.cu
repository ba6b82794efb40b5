// Every atomic operation on 32/64-bit integers, float and double under contention: many blocks
// on several OS threads and many fibers of one block hit the same words.
#include <cuda_runtime.h>

#include <vector>

#include "host_test_util.h"

using host_test::DeviceArray;

namespace {

constexpr unsigned kBlocks = 64;
constexpr unsigned kThreads = 256;
constexpr unsigned kTotal = kBlocks * kThreads;

struct Counters {
  int add_int;
  unsigned add_unsigned;
  unsigned long long add_ull;
  float add_float;
  double add_double;
  int sub_int;
  int min_int;
  int max_int;
  unsigned min_unsigned;
  unsigned long long max_ull;
  unsigned inc_wrapping;
  unsigned dec_wrapping;
  unsigned and_bits;
  unsigned or_bits;
  unsigned long long xor_bits;
  unsigned long long exchanged;
  int cas_counter;
};

__global__ void contend(Counters* c) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const int signed_i = static_cast<int>(i);
  atomicAdd(&c->add_int, 2);
  atomicAdd(&c->add_unsigned, i);
  atomicAdd(&c->add_ull, 1ull << 33);
  atomicAdd(&c->add_float, 0.5f);
  atomicAdd(&c->add_double, 0.25);
  atomicSub(&c->sub_int, 3);
  atomicMin(&c->min_int, signed_i - 5000);
  atomicMax(&c->max_int, -signed_i);
  atomicMin(&c->min_unsigned, i + 17);
  atomicMax(&c->max_ull, static_cast<unsigned long long>(i) * 3);
  atomicInc(&c->inc_wrapping, 999u);
  atomicDec(&c->dec_wrapping, 999u);
  atomicAnd(&c->and_bits, ~(1u << (i % 32)) | (i < 16 ? 0u : 0xffff0000u));
  atomicOr(&c->or_bits, 1u << (i % 20));
  atomicXor(&c->xor_bits, 1ull << (i % 64));
  atomicExch(&c->exchanged, 7ull);
  // A CAS loop increment: every thread retries until its own update lands.
  int seen = atomicAdd(&c->cas_counter, 0);
  while (true) {
    const int previous = atomicCAS(&c->cas_counter, seen, seen + 1);
    if (previous == seen) {
      break;
    }
    seen = previous;
  }
}

// A spin lock taken by the fibers of one block in turn: only works if a spinning fiber yields.
__global__ void locked_increments(int* lock, int* plain_counter) {
  for (int k = 0; k < 3; ++k) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    const int before = *plain_counter;  // protected by the lock, not atomic itself
    __nanosleep(100);                   // lets other fibers of the block spin on the lock
    *plain_counter = before + 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}

__global__ void shared_histogram(const unsigned char* values, unsigned* bins, unsigned n) {
  __shared__ unsigned local[16];
  if (threadIdx.x < 16) {
    local[threadIdx.x] = 0;
  }
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&local[values[i] % 16], 1u);
  }
  __syncthreads();
  if (threadIdx.x < 16) {
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
  }
}

}  // namespace

TEST(HostAtomics, EveryOperationUnderContention) {
  Counters initial{};
  initial.min_int = 1 << 30;
  initial.max_int = -(1 << 30);
  initial.min_unsigned = 0xffffffffu;
  initial.and_bits = 0xffffffffu;
  DeviceArray<Counters> counters(std::vector<Counters>{initial});
  memcarlo_launch("contend", contend, kBlocks, kThreads, 0, 0, counters.get());
  ASSERT_CUDA(cudaGetLastError());
  const Counters c = counters.to_host()[0];
  EXPECT_EQ(c.add_int, 2 * static_cast<int>(kTotal));
  EXPECT_EQ(c.add_unsigned, kTotal * (kTotal - 1) / 2);
  EXPECT_EQ(c.add_ull, static_cast<unsigned long long>(kTotal) << 33);
  EXPECT_EQ(c.add_float, 0.5f * kTotal);  // exact: small multiples of 1/2
  EXPECT_EQ(c.add_double, 0.25 * kTotal);
  EXPECT_EQ(c.sub_int, -3 * static_cast<int>(kTotal));
  EXPECT_EQ(c.min_int, -5000);
  EXPECT_EQ(c.max_int, 0);
  EXPECT_EQ(c.min_unsigned, 17u);
  EXPECT_EQ(c.max_ull, static_cast<unsigned long long>(kTotal - 1) * 3);
  EXPECT_EQ(c.inc_wrapping, kTotal % 1000);
  // Dec from 0 wraps to the limit (999), then counts down: 16384 steps land on 999 - 16383 % 1000.
  EXPECT_EQ(c.dec_wrapping, 999u - (kTotal - 1) % 1000);
  EXPECT_EQ(c.and_bits, 0xffff0000u);
  EXPECT_EQ(c.or_bits, (1u << 20) - 1);
  EXPECT_EQ(c.xor_bits, 0ull) << "each bit flipped an even number of times";
  EXPECT_EQ(c.exchanged, 7ull);
  EXPECT_EQ(c.cas_counter, static_cast<int>(kTotal));
}

TEST(HostAtomics, SpinLockAmongThreadsOfOneBlockMakesProgress) {
  DeviceArray<int> lock(1);
  DeviceArray<int> counter(1);
  lock.fill(0);
  counter.fill(0);
  memcarlo_launch("locked_increments", locked_increments, 8, 128, 0, 0, lock.get(), counter.get());
  EXPECT_EQ(counter.to_host()[0], 8 * 128 * 3);
}

TEST(HostAtomics, SharedMemoryHistogram) {
  const unsigned n = 100000;
  std::vector<unsigned char> values(n);
  std::vector<unsigned> expected(16, 0);
  for (unsigned i = 0; i < n; ++i) {
    values[i] = static_cast<unsigned char>((i * 2654435761u) >> 24);
    ++expected[values[i] % 16];
  }
  DeviceArray<unsigned char> in(values);
  DeviceArray<unsigned> bins(16);
  bins.fill(0);
  memcarlo_launch("shared_histogram", shared_histogram, 40, 128, 0, 0, in.get(), bins.get(), n);
  EXPECT_EQ(bins.to_host(), expected);
}
