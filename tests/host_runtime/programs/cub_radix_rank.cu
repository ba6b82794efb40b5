// cub::BlockRadixRank and cub::BlockRadixRankMatch in kernels built for the host backend.
// BlockRadixRank (blocked keys): CUB's example, 2 threads with keys [16, 10], [9, 11] and 5-bit
// digits, ranks [3, 1], [0, 2]; and 4 threads with keys [3, 1], [2, 3], [0, 1], [3, 2] on 2-bit
// digits: ascending ranks [5, 1], [3, 6], [0, 2], [7, 4] with the digits' first ranks [0, 1, 3,
// 5] (thread t tracks digit t); descending [0, 5], [3, 1], [7, 6], [2, 4] with [7, 5, 3, 0].
// BlockRadixRankMatch (warp-striped keys, 2 warps of 2 keys a lane, 3-bit digits) against a
// stable sort of the tile in warp-striped order on the host, with the digits' counts from the
// callback and their first ranks. The program prints `Result = PASS` only if everything matches.
#include <algorithm>
#include <cstdio>
#include <cub/block/block_radix_rank.cuh>
#include <numeric>
#include <vector>

#include "checks.h"

namespace {

struct StoreCounts {  // the counts callback: thread t's digit counts to counts[t]
  int* counts;
  __device__ void operator()(int (&bins)[1]) const { counts[threadIdx.x] = bins[0]; }
};

}  // namespace

__global__ void cub_example(int* ranks_out) {
  using Rank = cub::BlockRadixRank<2, 5, false>;
  __shared__ typename Rank::TempStorage storage;
  const int t = static_cast<int>(threadIdx.x);
  int keys[2] = {t == 0 ? 16 : 9, t == 0 ? 10 : 11};
  int ranks[2];
  cub::BFEDigitExtractor<int> extractor(0, 5);
  Rank(storage).RankKeys(keys, ranks, extractor);
  ranks_out[2 * t] = ranks[0];
  ranks_out[2 * t + 1] = ranks[1];
}

// ranks_out: the ascending ranks (8), then the descending ones (8); prefixes_out likewise (4 + 4).
__global__ void blocked(int* ranks_out, int* prefixes_out) {
  using Up = cub::BlockRadixRank<4, 2, false>;
  using Down = cub::BlockRadixRank<4, 2, true>;
  __shared__ typename Up::TempStorage up_storage;
  __shared__ typename Down::TempStorage down_storage;
  const int t = static_cast<int>(threadIdx.x);
  const unsigned all[8] = {3, 1, 2, 3, 0, 1, 3, 2};
  unsigned keys[2] = {all[2 * t], all[2 * t + 1]};
  int ranks[2];
  int prefix[Up::BINS_TRACKED_PER_THREAD];
  Up(up_storage).RankKeys(keys, ranks, cub::ShiftDigitExtractor<unsigned>(0, 2), prefix);
  ranks_out[2 * t] = ranks[0];
  ranks_out[2 * t + 1] = ranks[1];
  prefixes_out[t] = prefix[0];
  Down(down_storage).RankKeys(keys, ranks, cub::ShiftDigitExtractor<unsigned>(0, 2), prefix);
  ranks_out[8 + 2 * t] = ranks[0];
  ranks_out[8 + 2 * t + 1] = ranks[1];
  prefixes_out[4 + t] = prefix[0];
}

constexpr int kThreads = 64;
constexpr int kKeys = 2;

// Key i of lane l in warp w is keys[w * 64 + i * 32 + l] (warp-striped); ranks_out likewise.
__global__ void match(const unsigned* keys_in, int* ranks_out, int* counts, int* prefixes) {
  using Rank = cub::BlockRadixRankMatch<kThreads, 3, false>;
  __shared__ typename Rank::TempStorage storage;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  unsigned keys[kKeys];
  for (int i = 0; i < kKeys; ++i) {
    keys[i] = keys_in[warp * 32 * kKeys + i * 32 + lane];
  }
  int ranks[kKeys];
  int prefix[Rank::BINS_TRACKED_PER_THREAD];
  Rank(storage).RankKeys(keys, ranks, cub::BFEDigitExtractor<unsigned>(0, 3), prefix,
                         StoreCounts{counts});
  for (int i = 0; i < kKeys; ++i) {
    ranks_out[warp * 32 * kKeys + i * 32 + lane] = ranks[i];
  }
  prefixes[threadIdx.x] = prefix[0];
}

int main() {
  int* example = device_copy(std::vector<int>(4, -1));
  cub_example<<<1, 2>>>(example);
  expect(host_copy(example, 4), {3, 1, 0, 2}, "BlockRadixRank (CUB's example)");

  int* ranks = device_copy(std::vector<int>(16, -1));
  int* prefixes = device_copy(std::vector<int>(8, -1));
  blocked<<<1, 4>>>(ranks, prefixes);
  const std::vector<int> got = host_copy(ranks, 16);
  const std::vector<int> got_prefixes = host_copy(prefixes, 8);
  expect(std::vector<int>(got.begin(), got.begin() + 8), {5, 1, 3, 6, 0, 2, 7, 4},
         "BlockRadixRank ascending");
  expect(std::vector<int>(got_prefixes.begin(), got_prefixes.begin() + 4), {0, 1, 3, 5},
         "BlockRadixRank ascending exclusive_digit_prefix");
  expect(std::vector<int>(got.begin() + 8, got.end()), {0, 5, 3, 1, 7, 6, 2, 4},
         "BlockRadixRank descending");
  expect(std::vector<int>(got_prefixes.begin() + 4, got_prefixes.end()), {7, 5, 3, 0},
         "BlockRadixRank descending exclusive_digit_prefix");

  // BlockRadixRankMatch: digits (p * 5 + p / 16) % 8 of the tile's 128 keys (p warp-striped), 8
  // added above the digit's bits so that equal digits differ as keys.
  const int total = kThreads * kKeys;
  std::vector<unsigned> keys(total);
  for (int p = 0; p < total; ++p) {
    keys[p] = static_cast<unsigned>((p * 5 + p / 16) % 8 + 8 * p);
  }
  unsigned* keys_in = nullptr;
  cudaMalloc(&keys_in, total * sizeof(unsigned));
  cudaMemcpy(keys_in, keys.data(), total * sizeof(unsigned), cudaMemcpyHostToDevice);
  int* match_ranks = device_copy(std::vector<int>(total, -1));
  int* counts = device_copy(std::vector<int>(kThreads, -1));
  int* match_prefixes = device_copy(std::vector<int>(kThreads, -1));
  match<<<1, kThreads>>>(keys_in, match_ranks, counts, match_prefixes);
  std::vector<int> order(total);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int l, int r) { return keys[l] % 8 < keys[r] % 8; });
  std::vector<int> want(total);
  std::vector<int> want_counts(8, 0);
  std::vector<int> want_prefixes(8, 0);
  for (int rank = 0; rank < total; ++rank) {
    want[order[rank]] = rank;
    ++want_counts[keys[order[rank]] % 8];
  }
  for (int digit = 1; digit < 8; ++digit) {
    want_prefixes[digit] = want_prefixes[digit - 1] + want_counts[digit - 1];
  }
  expect(host_copy(match_ranks, total), want, "BlockRadixRankMatch ranks");
  expect(host_copy(counts, 8), want_counts, "BlockRadixRankMatch counts callback");
  expect(host_copy(match_prefixes, 8), want_prefixes, "BlockRadixRankMatch exclusive_digit_prefix");
  std::printf("Result = %s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
