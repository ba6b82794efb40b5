// cub::BlockRadixRank and cub::BlockRadixRankMatch for memcarlo's host backend (see
// cub/detail/memcarlo_cub.cuh): a key's rank is its place in a stable sort of the block's keys
// by digit (the extractor's Digit; high digits first when IS_DESCENDING). The order among equal
// digits is the keys' order in the tile: blocked for BlockRadixRank (thread t's keys are
// t * KEYS_PER_THREAD ...), warp-striped for BlockRadixRankMatch (warp w's key i of lane l comes
// after all of warp w - 1's, and after key i - 1 of every lane of its warp), as CUB requires
// them. The threads count digits in their group (a thread, or a warp, whose lanes exchange one key
// at a time through the TempStorage between barriers), thread 0 turns the groups' counts into
// each digit's starting rank per group after a barrier, and after another each thread adds its
// keys' places in its group. exclusive_digit_prefix (the rank of the first key of each of the
// thread's BINS_TRACKED_PER_THREAD digits) and BlockRadixRankMatch's counts callback (each such
// digit's count) are CUB's. BlockRadixRankMatchEarlyCounts is a compile error naming it.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "../detail/memcarlo_cub.cuh"
#include "block_scan.cuh"
#include "radix_rank_sort_operations.cuh"

namespace cub {

enum RadixRankAlgorithm {
  RADIX_RANK_BASIC,
  RADIX_RANK_MEMOIZE,
  RADIX_RANK_MATCH,
  RADIX_RANK_MATCH_EARLY_COUNTS_ANY,
  RADIX_RANK_MATCH_EARLY_COUNTS_ATOMIC_OR
};

enum WarpMatchAlgorithm { WARP_MATCH_ANY, WARP_MATCH_ATOMIC_OR };

template <int BINS_PER_THREAD>
struct BlockRadixRankEmptyCallback {
  void operator()(int (&)[BINS_PER_THREAD]) {}
};

namespace memcarlo_detail {

/// The ranking both classes share: keys ordered by (group, key index, lane in the group), groups
/// of group_width consecutive threads (1: blocked keys; 32: warp-striped ones).
template <int block_threads, int radix_bits, bool descending, int group_width>
class RadixRanking {
  static constexpr int digits = 1 << radix_bits;
  static constexpr int groups = (block_threads + group_width - 1) / group_width;

 public:
  static constexpr int bins_tracked_per_thread = (digits + block_threads - 1) / block_threads > 1
                                                     ? (digits + block_threads - 1) / block_threads
                                                     : 1;

  struct Storage {
    std::uint32_t exchanged[block_threads];  // one key's digit per thread (groups of a warp)
    int group_starts[groups][digits];        // counts per group, then where each group starts
    int digit_starts[digits];                // in ranking order (high digits first if descending)
    int digit_counts[digits];
  };

  template <class UnsignedBits, int keys_per_thread, class DigitExtractorT>
  static void rank(Storage& storage, UnsignedBits (&keys)[keys_per_thread],
                   int (&ranks)[keys_per_thread], DigitExtractorT& digit_extractor) {
    const int thread = block_rank();
    const bool member = thread < block_threads;
    const int group = thread / group_width;
    const int lane = thread % group_width;
    const int first = group * group_width;
    const int lanes = block_threads - first < group_width ? block_threads - first : group_width;
    std::uint32_t ordered[keys_per_thread];
    std::vector<int> counts(digits, 0);  // the group's keys so far, per ordered digit
    for (int i = 0; i < keys_per_thread; ++i) {
      ordered[i] = order(static_cast<std::uint32_t>(digit_extractor.Digit(keys[i])));
      if constexpr (group_width == 1) {
        ranks[i] = counts[ordered[i]]++;
      } else {
        if (member) {
          storage.exchanged[thread] = ordered[i];
        }
        __syncthreads();
        if (member) {
          ranks[i] = counts[ordered[i]];
          for (int other = 0; other < lanes; ++other) {
            const std::uint32_t digit = storage.exchanged[first + other];
            ranks[i] += other < lane && digit == ordered[i] ? 1 : 0;
            ++counts[digit];
          }
        }
        __syncthreads();
      }
    }
    if (member && lane == 0) {
      for (int digit = 0; digit < digits; ++digit) {
        storage.group_starts[group][digit] = counts[digit];
      }
    }
    __syncthreads();
    if (thread == 0) {
      int running = 0;
      for (int digit = 0; digit < digits; ++digit) {
        storage.digit_starts[digit] = running;
        for (auto& starts : storage.group_starts) {
          const int count = starts[digit];
          starts[digit] = running;
          running += count;
        }
        storage.digit_counts[digit] = running - storage.digit_starts[digit];
      }
    }
    __syncthreads();
    if (member) {
      for (int i = 0; i < keys_per_thread; ++i) {
        ranks[i] += storage.group_starts[group][ordered[i]];
      }
    }
  }

  /// The calling thread's digits thread * bins_tracked_per_thread + track: where their keys
  /// start (`starts`) or how many there are.
  static void tracked(Storage& storage, int (&bins)[bins_tracked_per_thread], bool starts) {
    for (int track = 0; track < bins_tracked_per_thread; ++track) {
      const int digit = block_rank() * bins_tracked_per_thread + track;
      if (digit < digits) {
        const std::uint32_t at = order(static_cast<std::uint32_t>(digit));
        bins[track] = starts ? storage.digit_starts[at] : storage.digit_counts[at];
      }
    }
  }

 private:
  static std::uint32_t order(std::uint32_t digit) {
    return descending ? static_cast<std::uint32_t>(digits - 1) - digit : digit;
  }
};

}  // namespace memcarlo_detail

template <int BLOCK_DIM_X, int RADIX_BITS, bool IS_DESCENDING, bool MEMOIZE_OUTER_SCAN = true,
          BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          cudaSharedMemConfig SMEM_CONFIG = cudaSharedMemBankSizeFourByte, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockRadixRank {
  using Ranking = memcarlo_detail::RadixRanking<BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, RADIX_BITS,
                                                IS_DESCENDING, 1>;

 public:
  enum { BINS_TRACKED_PER_THREAD = Ranking::bins_tracked_per_thread };

  struct TempStorage {
    typename Ranking::Storage storage;
  };

  BlockRadixRank() : storage_(private_storage()) {}
  explicit BlockRadixRank(TempStorage& storage) : storage_(storage) {}

  template <class UnsignedBits, int KEYS_PER_THREAD, class DigitExtractorT>
  void RankKeys(UnsignedBits (&keys)[KEYS_PER_THREAD], int (&ranks)[KEYS_PER_THREAD],
                DigitExtractorT digit_extractor) {
    Ranking::rank(storage_.storage, keys, ranks, digit_extractor);
  }
  template <class UnsignedBits, int KEYS_PER_THREAD, class DigitExtractorT>
  void RankKeys(UnsignedBits (&keys)[KEYS_PER_THREAD], int (&ranks)[KEYS_PER_THREAD],
                DigitExtractorT digit_extractor,
                int (&exclusive_digit_prefix)[BINS_TRACKED_PER_THREAD]) {
    RankKeys(keys, ranks, digit_extractor);
    Ranking::tracked(storage_.storage, exclusive_digit_prefix, true);
  }

 private:
  static TempStorage& private_storage() {
    thread_local TempStorage storage;  // per OS thread = per running block
    return storage;
  }

  TempStorage& storage_;
};

template <int BLOCK_DIM_X, int RADIX_BITS, bool IS_DESCENDING,
          BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockRadixRankMatch {
  using Ranking = memcarlo_detail::RadixRanking<BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, RADIX_BITS,
                                                IS_DESCENDING, 32>;

 public:
  enum { BINS_TRACKED_PER_THREAD = Ranking::bins_tracked_per_thread };

  struct TempStorage {
    typename Ranking::Storage storage;
  };

  explicit BlockRadixRankMatch(TempStorage& storage) : storage_(storage) {}

  template <class UnsignedBits, int KEYS_PER_THREAD, class DigitExtractorT, class CountsCallback>
  void RankKeys(UnsignedBits (&keys)[KEYS_PER_THREAD], int (&ranks)[KEYS_PER_THREAD],
                DigitExtractorT digit_extractor, CountsCallback callback) {
    Ranking::rank(storage_.storage, keys, ranks, digit_extractor);
    if constexpr (!std::is_same_v<CountsCallback,
                                  BlockRadixRankEmptyCallback<BINS_TRACKED_PER_THREAD>>) {
      int bins[BINS_TRACKED_PER_THREAD];
      Ranking::tracked(storage_.storage, bins, false);
      callback(bins);
    }
  }
  template <class UnsignedBits, int KEYS_PER_THREAD, class DigitExtractorT>
  void RankKeys(UnsignedBits (&keys)[KEYS_PER_THREAD], int (&ranks)[KEYS_PER_THREAD],
                DigitExtractorT digit_extractor) {
    RankKeys(keys, ranks, digit_extractor, BlockRadixRankEmptyCallback<BINS_TRACKED_PER_THREAD>());
  }
  template <class UnsignedBits, int KEYS_PER_THREAD, class DigitExtractorT, class CountsCallback>
  void RankKeys(UnsignedBits (&keys)[KEYS_PER_THREAD], int (&ranks)[KEYS_PER_THREAD],
                DigitExtractorT digit_extractor,
                int (&exclusive_digit_prefix)[BINS_TRACKED_PER_THREAD], CountsCallback callback) {
    RankKeys(keys, ranks, digit_extractor, callback);
    Ranking::tracked(storage_.storage, exclusive_digit_prefix, true);
  }
  template <class UnsignedBits, int KEYS_PER_THREAD, class DigitExtractorT>
  void RankKeys(UnsignedBits (&keys)[KEYS_PER_THREAD], int (&ranks)[KEYS_PER_THREAD],
                DigitExtractorT digit_extractor,
                int (&exclusive_digit_prefix)[BINS_TRACKED_PER_THREAD]) {
    RankKeys(keys, ranks, digit_extractor, exclusive_digit_prefix,
             BlockRadixRankEmptyCallback<BINS_TRACKED_PER_THREAD>());
  }

 private:
  TempStorage& storage_;
};

template <int BLOCK_DIM_X, int RADIX_BITS, bool IS_DESCENDING,
          BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          WarpMatchAlgorithm MATCH_ALGORITHM = WARP_MATCH_ANY, int NUM_PARTS = 1>
struct BlockRadixRankMatchEarlyCounts {
  static_assert(BLOCK_DIM_X < 0,
                "memcarlo host backend: cub::BlockRadixRankMatchEarlyCounts is not part of the "
                "emulation's CUB; build this program with --backend cuda");
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
