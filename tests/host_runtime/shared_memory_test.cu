// __shared__ is per block (many blocks run at once on several OS threads), __syncthreads and its
// predicate forms, barriers after early exits, and dynamic shared memory.
#include <cuda_runtime.h>

#include <numeric>
#include <vector>

#include "host_test_util.h"

using host_test::DeviceArray;

namespace {

constexpr unsigned kBlock = 256;

__global__ void block_sums(const int* in, int* out) {
  __shared__ int partial[kBlock];
  const unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * kBlock + t];
  __syncthreads();
  for (unsigned stride = kBlock / 2; stride > 0; stride /= 2) {
    if (t < stride) {
      partial[t] += partial[t + stride];
    }
    __syncthreads();
  }
  if (t == 0) {
    out[blockIdx.x] = partial[0];
  }
}

// Every thread of a block must see the value its block's thread 0 stored, never another
// block's, however the blocks interleave. `static __shared__` spells the same thing.
__global__ void shared_is_per_block(unsigned* mismatches) {
  static __shared__ unsigned owner;
  __shared__ unsigned echo[64];
  for (int round = 0; round < 20; ++round) {
    if (threadIdx.x == 0) {
      owner = blockIdx.x * 1000 + static_cast<unsigned>(round);
    }
    echo[threadIdx.x] = blockIdx.x;
    __syncthreads();
    if (owner != blockIdx.x * 1000 + static_cast<unsigned>(round) ||
        echo[(threadIdx.x + 1) % 64] != blockIdx.x) {
      atomicAdd(mismatches, 1u);
    }
    __syncthreads();
  }
}

__device__ float stage_through_shared(float value) {
  __shared__ float staging[64];
  staging[threadIdx.x] = value;
  __syncthreads();
  const float neighbour = staging[63 - threadIdx.x];
  __syncthreads();
  return neighbour;
}

__global__ void reverse_in_block(const float* in, float* out) {
  const unsigned i = blockIdx.x * 64 + threadIdx.x;
  out[i] = stage_through_shared(in[i]);
}

constexpr unsigned kTile = 16;

__global__ void transpose_tiled(const float* in, float* out, unsigned width, unsigned height) {
  __shared__ float tile[kTile][kTile + 1];
  unsigned x = blockIdx.x * kTile + threadIdx.x;
  unsigned y = blockIdx.y * kTile + threadIdx.y;
  if (x < width && y < height) {
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
  }
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  if (x < height && y < width) {
    out[y * height + x] = tile[threadIdx.x][threadIdx.y];
  }
}

__global__ void barrier_predicates(const int* flags, int* counts, int* ands, int* ors) {
  const int flag = flags[blockIdx.x * blockDim.x + threadIdx.x];
  const int count = __syncthreads_count(flag);
  const int all = __syncthreads_and(flag);
  const int any = __syncthreads_or(flag);
  if (threadIdx.x == 5) {
    counts[blockIdx.x] = count;
    ands[blockIdx.x] = all;
    ors[blockIdx.x] = any;
  }
}

// Threads past n return before the barrier; as on Volta and later GPUs, exited threads do not
// hold up __syncthreads for the others.
__global__ void sum_after_early_exit(const int* in, int* out, unsigned n) {
  __shared__ int values[128];
  __shared__ int total;
  if (threadIdx.x >= n) {
    return;
  }
  if (threadIdx.x == 0) {
    total = 0;
  }
  values[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  atomicAdd(&total, values[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) {
    *out = total;
  }
}

__global__ void dynamic_shared_rotate(const double* in, double* out, unsigned* misaligned) {
  MEMCARLO_DYNAMIC_SHARED(double, buffer);
  if (reinterpret_cast<std::uintptr_t>(buffer) % 16 != 0) {
    atomicAdd(misaligned, 1u);
  }
  const unsigned n = blockDim.x;
  buffer[threadIdx.x] = in[blockIdx.x * n + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * n + threadIdx.x] = buffer[(threadIdx.x + 1) % n];
}

}  // namespace

TEST(HostSharedMemory, BlockReductionsAreIndependentAcrossParallelBlocks) {
  const unsigned blocks = 300;
  std::vector<int> input(blocks * kBlock);
  std::iota(input.begin(), input.end(), -1000);
  DeviceArray<int> in(input);
  DeviceArray<int> out(blocks);
  memcarlo_launch("block_sums", block_sums, blocks, kBlock, 0, 0, in.get(), out.get());
  ASSERT_CUDA(cudaGetLastError());
  const std::vector<int> sums = out.to_host();
  for (unsigned b = 0; b < blocks; ++b) {
    const auto first = static_cast<std::ptrdiff_t>(b * kBlock);
    EXPECT_EQ(sums[b], std::accumulate(input.begin() + first, input.begin() + first + kBlock, 0))
        << "block " << b;
  }
}

TEST(HostSharedMemory, StaticAndPlainSharedVariablesAreOnePerBlock) {
  DeviceArray<unsigned> mismatches(1);
  mismatches.fill(0);
  memcarlo_launch("shared_is_per_block", shared_is_per_block, 400, 64, 0, 0, mismatches.get());
  EXPECT_EQ(mismatches.to_host()[0], 0u);
}

TEST(HostSharedMemory, SharedVariableInsideADeviceFunction) {
  std::vector<float> input(64 * 10);
  std::iota(input.begin(), input.end(), 0.0f);
  DeviceArray<float> in(input);
  DeviceArray<float> out(input.size());
  memcarlo_launch("reverse_in_block", reverse_in_block, 10, 64, 0, 0, in.get(), out.get());
  const std::vector<float> result = out.to_host();
  for (unsigned i = 0; i < result.size(); ++i) {
    EXPECT_EQ(result[i], input[i / 64 * 64 + 63 - i % 64]);
  }
}

TEST(HostSharedMemory, TwoDimensionalTiledTranspose) {
  const unsigned width = 70;
  const unsigned height = 45;
  std::vector<float> input(width * height);
  std::iota(input.begin(), input.end(), 0.5f);
  DeviceArray<float> in(input);
  DeviceArray<float> out(input.size());
  memcarlo_launch("transpose_tiled", transpose_tiled, dim3((width + 15) / 16, (height + 15) / 16),
                  dim3(16, 16), 0, 0, in.get(), out.get(), width, height);
  const std::vector<float> result = out.to_host();
  for (unsigned y = 0; y < height; ++y) {
    for (unsigned x = 0; x < width; ++x) {
      ASSERT_EQ(result[x * height + y], input[y * width + x]);
    }
  }
}

TEST(HostSharedMemory, SyncthreadsCountAndOr) {
  const unsigned blocks = 3;
  std::vector<int> flags(blocks * 96, 0);
  for (unsigned i = 0; i < 96; ++i) {
    flags[i] = 1;                  // block 0: all set
    flags[96 + i] = (i % 3 == 0);  // block 1: 32 set
  }                                // block 2: none set
  DeviceArray<int> in(flags);
  DeviceArray<int> counts(blocks), ands(blocks), ors(blocks);
  memcarlo_launch("barrier_predicates", barrier_predicates, blocks, 96, 0, 0, in.get(),
                  counts.get(), ands.get(), ors.get());
  EXPECT_EQ(counts.to_host(), (std::vector<int>{96, 32, 0}));
  EXPECT_EQ(ands.to_host(), (std::vector<int>{1, 0, 0}));
  EXPECT_EQ(ors.to_host(), (std::vector<int>{1, 1, 0}));
}

TEST(HostSharedMemory, ExitedThreadsDoNotBlockSyncthreads) {
  std::vector<int> input(128);
  std::iota(input.begin(), input.end(), 1);
  DeviceArray<int> in(input);
  DeviceArray<int> out(1);
  memcarlo_launch("sum_after_early_exit", sum_after_early_exit, 1, 128, 0, 0, in.get(), out.get(),
                  77u);
  EXPECT_EQ(out.to_host()[0], 77 * 78 / 2);
}

TEST(HostSharedMemory, DynamicSharedMemoryIsPerBlockAndAligned) {
  for (unsigned threads : {32u, 100u, 512u}) {
    const unsigned blocks = 50;
    std::vector<double> input(blocks * threads);
    std::iota(input.begin(), input.end(), 0.25);
    DeviceArray<double> in(input);
    DeviceArray<double> out(input.size());
    DeviceArray<unsigned> misaligned(1);
    misaligned.fill(0);
    memcarlo_launch("dynamic_shared_rotate", dynamic_shared_rotate, blocks, threads,
                    threads * sizeof(double), 0, in.get(), out.get(), misaligned.get());
    ASSERT_CUDA(cudaGetLastError());
    const std::vector<double> result = out.to_host();
    for (unsigned i = 0; i < result.size(); ++i) {
      ASSERT_EQ(result[i], input[i / threads * threads + (i % threads + 1) % threads]);
    }
    EXPECT_EQ(misaligned.to_host()[0], 0u);
  }
}
