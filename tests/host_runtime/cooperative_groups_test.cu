// Cooperative groups beyond single-warp tiles: the type-erased thread_group (a block or a runtime
// tile passed by value), tiled_partition(parent, n), tiles of 64 to 512 threads with their
// barrier and collectives, block_tile_memory, and what CUDA rejects.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "host_test_util.h"

namespace cg = cooperative_groups;
using host_test::DeviceArray;

namespace {

// A tree reduction written against thread_group, as simpleCooperativeGroups-style code does: it
// must synchronize the group it was given, whichever that is.
__device__ int sum_over_group(cg::thread_group group, int* workspace, int value) {
  const auto rank = static_cast<unsigned>(group.thread_rank());
  for (auto half = static_cast<unsigned>(group.size()) / 2; half > 0; half /= 2) {
    workspace[rank] = value;
    group.sync();
    if (rank < half) {
      value += workspace[rank + half];
    }
    group.sync();
  }
  // Rank 0 holds the sum; hand it to every rank.
  if (rank == 0) {
    workspace[0] = value;
  }
  group.sync();
  value = workspace[0];
  group.sync();
  return value;
}

// out[4 * t]: the block's sum; then the 16-thread tile's sum, its rank and size and kind.
__global__ void groups_by_value(int* out) {
  __shared__ int workspace[64];
  cg::thread_block block = cg::this_thread_block();
  const int rank = static_cast<int>(block.thread_rank());
  const int block_sum = sum_over_group(block, workspace, rank);
  cg::thread_group tile = cg::tiled_partition(block, 16);
  const unsigned tile_offset = block.thread_rank() - static_cast<unsigned>(tile.thread_rank());
  const int tile_sum = sum_over_group(tile, workspace + tile_offset, rank);
  out[5 * rank] = block_sum;
  out[5 * rank + 1] = tile_sum;
  out[5 * rank + 2] = static_cast<int>(tile.thread_rank());
  out[5 * rank + 3] = static_cast<int>(tile.size());
  out[5 * rank + 4] = static_cast<int>(100 * block.get_type() + tile.get_type());
}

// A block of 40: the runtime tiles of 16 are 16, 16 and 8 threads; a tile of a tile of 32 is the
// block's tile of 8; a compile-time tile converts to a thread_group.
__global__ void runtime_tiles(unsigned* sizes, unsigned* ranks, unsigned* converted) {
  cg::thread_block block = cg::this_thread_block();
  const cg::thread_group tile = cg::tiled_partition(block, 16);
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const cg::thread_group eighth = cg::tiled_partition(warp, 8);
  const cg::thread_group as_group = warp;
  const unsigned t = block.thread_rank();
  sizes[t] = static_cast<unsigned>(tile.size());
  ranks[t] = static_cast<unsigned>(100 * eighth.thread_rank() + eighth.size());
  converted[t] = static_cast<unsigned>(100 * as_group.thread_rank() + as_group.size());
  tile.sync();
  eighth.sync();
}

// Odd lanes only: their coalesced group has 16 members, tiled by rank into four of 4.
__global__ void coalesced_tiles(unsigned* out) {
  const unsigned lane = threadIdx.x % 32;
  out[lane] = 0xdead;
  if (lane % 2 == 1) {
    cg::coalesced_group odd = cg::coalesced_threads();
    cg::coalesced_group quarter = cg::tiled_partition(odd, 4);
    const cg::thread_group generic = cg::tiled_partition(static_cast<cg::thread_group>(odd), 4);
    const int sum = cg::reduce(quarter, static_cast<int>(lane), cg::plus<int>());
    out[lane] = quarter.thread_rank() + 10 * quarter.size() + 1000 * static_cast<unsigned>(sum) +
                100000 * static_cast<unsigned>(generic.thread_rank());
  }
}

// Tiles of 128 in a block of 256: each thread publishes its value, the tile synchronizes, and it
// reads a value another warp of its tile published (rank + 64). Without the barrier the fibers'
// order would show: warp 0 runs to the read before warps 2 and 3 have written.
__global__ void wide_tile_exchange(int* out, int round_count) {
  __shared__ int published[256];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<128> tile = cg::tiled_partition<128>(block);
  const unsigned base = block.thread_rank() - tile.thread_rank();
  int value = static_cast<int>(block.thread_rank());
  for (int round = 0; round < round_count; ++round) {
    published[block.thread_rank()] = value;
    tile.sync();
    value = published[base + (tile.thread_rank() + 64) % 128] + 1000;
    tile.sync();
  }
  out[blockIdx.x * blockDim.x + block.thread_rank()] = value;
}

// Collectives of wide tiles in a block of 192 (three tiles of 64), with the block's scratch
// memory declared as CUDA 12 wants it on GPUs without reserved shared memory.
__global__ void wide_tile_collectives(int* sums, int* shuffled, int* votes, unsigned* meta,
                                      float* sub_sums) {
  __shared__ cg::block_tile_memory<192> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(block);
  const unsigned t = block.thread_rank();
  sums[t] = cg::reduce(tile, static_cast<int>(t), cg::plus<int>());
  shuffled[t] = tile.shfl(static_cast<int>(t) * 2, 40);
  votes[t] = tile.any(t == 70) + 2 * tile.all(t % 64 < 63) + 4 * tile.all(t < 1000);
  const cg::thread_block_tile<32> half = cg::tiled_partition<32>(tile);
  const cg::thread_group generic = tile;
  meta[t] = tile.meta_group_rank() + 10 * tile.meta_group_size() + 100 * half.meta_group_rank() +
            1000 * half.meta_group_size() + 10000 * static_cast<unsigned>(generic.size());
  generic.sync();
  // Each warp of a tile sums its lanes, then the tile sums the warps' sums.
  const float half_sum = cg::reduce(half, 1.0f, cg::plus<float>());
  sub_sums[t] = cg::reduce(tile, half.thread_rank() == 0 ? half_sum : 0.0f, cg::plus<float>());
}

// Threads that have exited no longer count at a wide tile's barrier, as at __syncthreads.
__global__ void wide_tile_after_exits(int* flags, int* out) {
  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(cg::this_thread_block());
  if (tile.thread_rank() >= 48) {
    return;
  }
  flags[threadIdx.x] = 1;
  tile.sync();
  out[threadIdx.x] = flags[(threadIdx.x + 16) % 48] + 1;
}

__global__ void bad_tile_size(int* out) {
  cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), 48);
  out[threadIdx.x] = static_cast<int>(tile.size());
}

// Half of each wide tile skips the barrier and waits at __syncthreads instead.
__global__ void wide_tile_deadlock(int* out) {
  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(cg::this_thread_block());
  if (tile.thread_rank() < 32) {
    tile.sync();
  }
  __syncthreads();
  out[threadIdx.x] = 1;
}

int sum_of_range(int first, int count) {
  return count * first + count * (count - 1) / 2;
}

class HostCooperativeGroupsDeathTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

}  // namespace

TEST(HostCooperativeGroups, ThreadGroupByValueSynchronizesTheGroupItWasMadeFrom) {
  DeviceArray<int> out(5 * 64);
  memcarlo_launch("groups_by_value", groups_by_value, 1, 64, 0, 0, out.get());
  const auto o = out.to_host();
  for (int t = 0; t < 64; ++t) {
    EXPECT_EQ(o[5 * t], sum_of_range(0, 64)) << "thread " << t;
    EXPECT_EQ(o[5 * t + 1], sum_of_range(t / 16 * 16, 16)) << "thread " << t;
    EXPECT_EQ(o[5 * t + 2], t % 16);
    EXPECT_EQ(o[5 * t + 3], 16);
    EXPECT_EQ(o[5 * t + 4], 100 * 4 + 1) << "CUDA's ids: thread_block 4, coalesced tile 1";
  }
}

TEST(HostCooperativeGroups, RuntimeTilesOfAPartialBlockAndOfTiles) {
  const unsigned n = 40;
  DeviceArray<unsigned> sizes(n), ranks(n), converted(n);
  memcarlo_launch("runtime_tiles", runtime_tiles, 1, n, 0, 0, sizes.get(), ranks.get(),
                  converted.get());
  const auto s = sizes.to_host();
  const auto r = ranks.to_host();
  const auto c = converted.to_host();
  for (unsigned t = 0; t < n; ++t) {
    EXPECT_EQ(s[t], t < 32 ? 16u : 8u) << "thread " << t;
    EXPECT_EQ(r[t], 100 * (t % 8) + 8) << "thread " << t;
    // A thread_block_tile<32> keeps its static size as a thread_group, in a partial warp too.
    EXPECT_EQ(c[t], 100 * (t % 32) + 32) << "thread " << t;
  }
}

TEST(HostCooperativeGroups, TilesOfACoalescedGroupFollowItsRanks) {
  DeviceArray<unsigned> out(32);
  memcarlo_launch("coalesced_tiles", coalesced_tiles, 1, 32, 0, 0, out.get());
  const auto o = out.to_host();
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (lane % 2 == 0) {
      EXPECT_EQ(o[lane], 0xdeadu);
      continue;
    }
    const unsigned rank = lane / 2;           // among the odd lanes
    const unsigned first = rank / 4 * 8 + 1;  // the quarter's first lane
    const unsigned sum = 4 * first + 12;      // lanes first, first + 2, first + 4, first + 6
    EXPECT_EQ(o[lane], rank % 4 + 40 + 1000 * sum + 100000 * (rank % 4)) << "lane " << lane;
  }
}

TEST(HostCooperativeGroups, WideTileBarrierOrdersTheTilesWarps) {
  DeviceArray<int> out(512);
  memcarlo_launch("wide_tile_exchange", wide_tile_exchange, 2, 256, 0, 0, out.get(), 3);
  const auto o = out.to_host();
  for (int i = 0; i < 512; ++i) {
    // Three rounds of "take the value 64 ranks on in my tile": tile rank r ends with the block
    // rank of tile rank (r + 3 * 64) mod 128, plus 1000 per round.
    const int t = i % 256;
    const int base = t / 128 * 128;
    EXPECT_EQ(o[i], base + (t - base + 192) % 128 + 3000)
        << "block " << i / 256 << ", thread " << t;
  }
}

TEST(HostCooperativeGroups, WideTileCollectivesAndMetaGroups) {
  const unsigned n = 192;
  DeviceArray<int> sums(n), shuffled(n), votes(n);
  DeviceArray<unsigned> meta(n);
  DeviceArray<float> sub_sums(n);
  memcarlo_launch("wide_tile_collectives", wide_tile_collectives, 1, n, 0, 0, sums.get(),
                  shuffled.get(), votes.get(), meta.get(), sub_sums.get());
  const auto s = sums.to_host();
  const auto sh = shuffled.to_host();
  const auto v = votes.to_host();
  const auto m = meta.to_host();
  const auto ss = sub_sums.to_host();
  for (unsigned t = 0; t < n; ++t) {
    const unsigned tile = t / 64;
    EXPECT_EQ(s[t], sum_of_range(static_cast<int>(tile * 64), 64)) << "thread " << t;
    EXPECT_EQ(sh[t], static_cast<int>(2 * (tile * 64 + 40))) << "thread " << t;
    EXPECT_EQ(v[t], (tile == 1 ? 1 : 0) + 0 + 4) << "thread " << t;
    EXPECT_EQ(m[t], tile + 30 + 100 * (t % 64 / 32) + 2000 + 640000) << "thread " << t;
    EXPECT_EQ(ss[t], 64.0f) << "thread " << t;
  }
}

TEST(HostCooperativeGroups, ExitedThreadsNoLongerCountAtAWideTileBarrier) {
  DeviceArray<int> flags(64), out(64);
  flags.fill(0);
  out.fill(0);
  memcarlo_launch("wide_tile_after_exits", wide_tile_after_exits, 1, 64, 0, 0, flags.get(),
                  out.get());
  const auto o = out.to_host();
  for (unsigned t = 0; t < 64; ++t) {
    EXPECT_EQ(o[t], t < 48 ? 2 : 0) << "thread " << t;
  }
}

TEST_F(HostCooperativeGroupsDeathTest, RuntimeTileSizeMustBeAPowerOfTwoUpTo32) {
  DeviceArray<int> out(64);
  EXPECT_EXIT(memcarlo_launch("bad_tile_size", bad_tile_size, 1, 64, 0, 0, out.get()),
              ::testing::ExitedWithCode(70),
              "memcarlo host runtime: cooperative groups tiled_partition\\(parent, size\\) takes a "
              "size of 1, 2, 4, 8, 16 or 32 .*cooperative_groups_test\\.cu:[0-9]+\\)");
}

TEST_F(HostCooperativeGroupsDeathTest, WideTileBarrierThatHalfTheTileSkipsIsADeadlock) {
  DeviceArray<int> out(128);
  EXPECT_EXIT(memcarlo_launch("wide_tile_deadlock", wide_tile_deadlock, 1, 128, 0, 0, out.get()),
              ::testing::ExitedWithCode(70),
              "deadlock in kernel 'wide_tile_deadlock'.*64 thread\\(s\\) wait in "
              "__syncthreads.*64 thread\\(s\\) wait in thread_block_tile::sync "
              "\\(.*cooperative_groups_test\\.cu:[0-9]+\\)");
}
