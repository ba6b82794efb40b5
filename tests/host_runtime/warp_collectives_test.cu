// Warp votes, shuffles (with widths), matches and reductions in lockstep, including divergent
// code, partial warps, __activemask, legacy maskless forms and cooperative-groups tiles.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <vector>

#include "host_test_util.h"

namespace cg = cooperative_groups;
using host_test::DeviceArray;

namespace {

constexpr unsigned kFull = 0xffffffffu;

__global__ void shuffles(int* broadcast, int* up, int* down, int* xors, int* up8, int* down16) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int value = 100 * static_cast<int>(threadIdx.x / 32) + lane;
  broadcast[threadIdx.x] = __shfl_sync(kFull, value, 3);
  up[threadIdx.x] = __shfl_up_sync(kFull, value, 2);
  down[threadIdx.x] = __shfl_down_sync(kFull, value, 5);
  xors[threadIdx.x] = __shfl_xor_sync(kFull, value, 1);
  up8[threadIdx.x] = __shfl_up_sync(kFull, value, 1, 8);
  down16[threadIdx.x] = __shfl_down_sync(kFull, value, 4, 16);
}

__global__ void warp_reduce(const float* in, float* out) {
  float value = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_down_sync(kFull, value, static_cast<unsigned>(offset));
  }
  if (threadIdx.x % 32 == 0) {
    out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = value;
  }
}

__global__ void votes(unsigned* ballots, int* alls, int* anys, unsigned* divergent_masks) {
  const unsigned lane = threadIdx.x % 32;
  ballots[threadIdx.x] = __ballot_sync(kFull, lane % 3 == 0);
  alls[threadIdx.x] = __all_sync(kFull, lane < 40) + 2 * __all_sync(kFull, lane < 31);
  anys[threadIdx.x] = __any_sync(kFull, lane == 17) + 2 * __any_sync(kFull, lane > 40);
  if (lane % 4 == 1) {
    divergent_masks[threadIdx.x] = __activemask();
  } else {
    divergent_masks[threadIdx.x] = __ballot_sync(__activemask(), 1);
  }
}

// A block of 48 threads: warp 1 has 16 lanes; masks name all 32.
__global__ void partial_warp(unsigned* ballots, int* sums) {
  ballots[threadIdx.x] = __ballot_sync(kFull, 1);
  int value = static_cast<int>(threadIdx.x);
  for (int offset = 1; offset < 32; offset *= 2) {
    value += __shfl_xor_sync(kFull, value, offset);
  }
  sums[threadIdx.x] = value;
}

__global__ void divergent_shuffle(int* out) {
  const unsigned lane = threadIdx.x % 32;
  // Each half exchanges within itself under its own mask.
  if (lane < 16) {
    out[threadIdx.x] = __shfl_sync(0x0000ffffu, static_cast<int>(lane) * 10, 15);
  } else {
    out[threadIdx.x] = __shfl_sync(0xffff0000u, static_cast<int>(lane) * 10, 16);
  }
  __syncwarp();
}

__global__ void matches_and_reductions(unsigned* any_masks, unsigned* all_masks, int* all_preds,
                                       unsigned* sums, int* mins, unsigned* ors) {
  const unsigned lane = threadIdx.x % 32;
  any_masks[lane] = __match_any_sync(kFull, lane / 8);
  int predicate = 0;
  all_masks[lane] = __match_all_sync(kFull, 42.0, &predicate);
  all_preds[lane] = predicate;
  sums[lane] = __reduce_add_sync(kFull, lane);
  mins[lane] = __reduce_min_sync(kFull, static_cast<int>(lane) - 7);
  ors[lane] = __reduce_or_sync(kFull, 1u << lane);
}

__global__ void legacy_and_tiles(int* legacy, float* tile_sums, unsigned* tile_ranks) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  legacy[threadIdx.x] = __shfl_xor(lane, 31) + 100 * __any(lane == 3);
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
  const float sum = cg::reduce(tile, static_cast<float>(block.thread_rank()), cg::plus<float>());
  tile_sums[threadIdx.x] = sum;
  tile_ranks[threadIdx.x] = tile.thread_rank() + 100 * tile.meta_group_rank();
  block.sync();
}

}  // namespace

TEST(HostWarpCollectives, ShufflesWithWidths) {
  const unsigned n = 64;
  DeviceArray<int> broadcast(n), up(n), down(n), xors(n), up8(n), down16(n);
  memcarlo_launch("shuffles", shuffles, 1, n, 0, 0, broadcast.get(), up.get(), down.get(),
                  xors.get(), up8.get(), down16.get());
  const auto b = broadcast.to_host(), u = up.to_host(), d = down.to_host(), x = xors.to_host(),
             u8 = up8.to_host(), d16 = down16.to_host();
  for (unsigned t = 0; t < n; ++t) {
    const int warp_base = 100 * static_cast<int>(t / 32);
    const int lane = static_cast<int>(t % 32);
    EXPECT_EQ(b[t], warp_base + 3);
    EXPECT_EQ(u[t], warp_base + (lane >= 2 ? lane - 2 : lane));
    EXPECT_EQ(d[t], warp_base + (lane + 5 < 32 ? lane + 5 : lane));
    EXPECT_EQ(x[t], warp_base + (lane ^ 1));
    EXPECT_EQ(u8[t], warp_base + (lane % 8 >= 1 ? lane - 1 : lane));
    EXPECT_EQ(d16[t], warp_base + (lane % 16 + 4 < 16 ? lane + 4 : lane));
  }
}

TEST(HostWarpCollectives, ShuffleReductionPerWarp) {
  const unsigned blocks = 20;
  const unsigned threads = 128;
  std::vector<float> input(blocks * threads);
  for (unsigned i = 0; i < input.size(); ++i) {
    input[i] = static_cast<float>(i % 97);
  }
  DeviceArray<float> in(input);
  DeviceArray<float> out(blocks * threads / 32);
  memcarlo_launch("warp_reduce", warp_reduce, blocks, threads, 0, 0, in.get(), out.get());
  const std::vector<float> sums = out.to_host();
  for (unsigned w = 0; w < sums.size(); ++w) {
    float expected = 0.0f;
    for (unsigned l = 0; l < 32; ++l) {
      expected += input[w * 32 + l];
    }
    EXPECT_EQ(sums[w], expected) << "warp " << w;
  }
}

TEST(HostWarpCollectives, VotesAndActiveMaskInDivergentCode) {
  const unsigned n = 64;
  DeviceArray<unsigned> ballots(n), masks(n);
  DeviceArray<int> alls(n), anys(n);
  memcarlo_launch("votes", votes, 1, n, 0, 0, ballots.get(), alls.get(), anys.get(), masks.get());
  const auto b = ballots.to_host(), m = masks.to_host();
  const auto a = alls.to_host(), y = anys.to_host();
  unsigned every_third = 0;
  for (unsigned l = 0; l < 32; l += 3) {
    every_third |= 1u << l;
  }
  for (unsigned t = 0; t < n; ++t) {
    EXPECT_EQ(b[t], every_third);
    EXPECT_EQ(a[t], 1);
    EXPECT_EQ(y[t], 1);
    // The lanes of each branch see the lanes that took the same branch.
    EXPECT_EQ(m[t], t % 4 == 1 ? 0x22222222u : 0xddddddddu) << "thread " << t;
  }
}

TEST(HostWarpCollectives, PartialWarpMasksCoverOnlyExistingLanes) {
  DeviceArray<unsigned> ballots(48);
  DeviceArray<int> sums(48);
  memcarlo_launch("partial_warp", partial_warp, 1, 48, 0, 0, ballots.get(), sums.get());
  const auto b = ballots.to_host();
  const auto s = sums.to_host();
  EXPECT_EQ(b[0], 0xffffffffu);
  EXPECT_EQ(b[40], 0x0000ffffu);
  EXPECT_EQ(s[0], 31 * 32 / 2);
  // A lane whose xor partner lies past the end of the partial warp reads 0, as on a GPU: lane 0
  // of warp 1 sums 32..47 over offsets 1, 2, 4, 8 and adds nothing at offset 16.
  int expected = 0;
  for (int t = 32; t < 48; ++t) {
    expected += t;
  }
  EXPECT_EQ(s[32], expected);
}

// The final pass of a reduction sample, in a block of 4 or 8 threads: full-warp shuffles whose
// source lanes past the block's last thread do not exist.
__global__ void tiny_block_shuffles(int* down, int* index, int* up, int* tile_down, int* sums,
                                    int* maxima) {
  const int value = static_cast<int>(threadIdx.x) + 1;
  int sum = value;
  for (int offset = 16; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(kFull, sum, static_cast<unsigned>(offset));
  }
  down[threadIdx.x] = sum;
  index[threadIdx.x] = __shfl_sync(kFull, value, 20);  // lane 20 does not exist
  up[threadIdx.x] = __shfl_up_sync(kFull, value, 1);   // lane 0: out of range, its own value
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cg::this_thread_block());
  int tile_sum = value;
  for (int offset = static_cast<int>(tile32.size()) / 2; offset > 0; offset /= 2) {
    tile_sum += tile32.shfl_down(tile_sum, static_cast<unsigned>(offset));
  }
  tile_down[threadIdx.x] = tile_sum;
  sums[threadIdx.x] = cg::reduce(tile32, value, cg::plus<int>());
  maxima[threadIdx.x] = cg::reduce(tile32, -value, cg::greater<int>());  // all negative
}

TEST(HostWarpCollectives, ShufflesPastTheLastThreadOfAPartialWarpReadZeroAsOnTheGpu) {
  for (const int threads : {4, 8}) {
    DeviceArray<int> down(threads), index(threads), up(threads), tile_down(threads),
        sums(threads), maxima(threads);
    memcarlo_launch("tiny_block_shuffles", tiny_block_shuffles, 1, threads, 0, 0, down.get(),
                    index.get(), up.get(), tile_down.get(), sums.get(), maxima.get());
    const int total = threads * (threads + 1) / 2;
    const auto d = down.to_host();
    const auto i = index.to_host();
    const auto u = up.to_host();
    const auto t = tile_down.to_host();
    const auto s = sums.to_host();
    const auto m = maxima.to_host();
    EXPECT_EQ(d[0], total) << threads << " threads";  // was 2^5 x too much, one doubling a step
    EXPECT_EQ(t[0], total) << threads << " threads";
    for (int lane = 0; lane < threads; ++lane) {
      EXPECT_EQ(i[lane], 0) << "lane " << lane;
      EXPECT_EQ(u[lane], lane == 0 ? 1 : lane) << "lane " << lane;
      // cg::reduce over a cut-short tile: the threads it has, every one of them gets the result.
      EXPECT_EQ(s[lane], total) << "lane " << lane;
      EXPECT_EQ(m[lane], -1) << "lane " << lane;  // not the 0 of a missing lane
    }
  }
}

TEST(HostWarpCollectives, DivergentHalvesShuffleUnderTheirOwnMasks) {
  DeviceArray<int> out(32);
  memcarlo_launch("divergent_shuffle", divergent_shuffle, 1, 32, 0, 0, out.get());
  const auto o = out.to_host();
  EXPECT_EQ(o[0], 150);
  EXPECT_EQ(o[15], 150);
  EXPECT_EQ(o[16], 160);
  EXPECT_EQ(o[31], 160);
}

TEST(HostWarpCollectives, MatchesAndReductions) {
  DeviceArray<unsigned> any_masks(32), all_masks(32), sums(32), ors(32);
  DeviceArray<int> preds(32), mins(32);
  memcarlo_launch("matches_and_reductions", matches_and_reductions, 1, 32, 0, 0, any_masks.get(),
                  all_masks.get(), preds.get(), sums.get(), mins.get(), ors.get());
  const auto any = any_masks.to_host();
  EXPECT_EQ(any[0], 0x000000ffu);
  EXPECT_EQ(any[9], 0x0000ff00u);
  EXPECT_EQ(any[31], 0xff000000u);
  EXPECT_EQ(all_masks.to_host()[4], 0xffffffffu);
  EXPECT_EQ(preds.to_host()[4], 1);
  EXPECT_EQ(sums.to_host()[7], 31u * 32u / 2u);
  EXPECT_EQ(mins.to_host()[7], -7);
  EXPECT_EQ(ors.to_host()[0], 0xffffffffu);
}

TEST(HostWarpCollectives, LegacyMasklessFormsAndCooperativeGroupTiles) {
  const unsigned n = 64;
  DeviceArray<int> legacy(n);
  DeviceArray<float> tile_sums(n);
  DeviceArray<unsigned> ranks(n);
  memcarlo_launch("legacy_and_tiles", legacy_and_tiles, 1, n, 0, 0, legacy.get(), tile_sums.get(),
                  ranks.get());
  const auto l = legacy.to_host();
  const auto s = tile_sums.to_host();
  const auto r = ranks.to_host();
  for (unsigned t = 0; t < n; ++t) {
    EXPECT_EQ(l[t], static_cast<int>((t % 32) ^ 31) + 100);
    const unsigned first = t / 8 * 8;
    EXPECT_EQ(s[t], static_cast<float>(8 * first + 28)) << "thread " << t;
    EXPECT_EQ(r[t], t % 8 + 100 * (t / 8));
  }
}
