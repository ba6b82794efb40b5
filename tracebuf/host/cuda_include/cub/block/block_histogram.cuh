// cub::BlockHistogram for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): InitHistogram
// zeroes the bins striped across the threads, Composite adds one to histogram[item] for each of
// the thread's items (atomically, so that blocks may share a histogram in global memory as with
// BLOCK_HISTO_ATOMIC), and Histogram is the two with a barrier between them, as in CUB. Like CUB's
// BLOCK_HISTO_SORT, that algorithm's Composite first meets the block at a barrier, and the lanes of
// a warp meet at the end of InitHistogram (they run its stores together on a GPU). Items are bin
// indices (0 <= item < BINS). The histogram's updates are not traced (it is in shared memory in
// the programs CUB's documentation shows).
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <type_traits>

#include "../detail/memcarlo_cub.cuh"

namespace cub {

enum BlockHistogramAlgorithm {
  BLOCK_HISTO_SORT,
  BLOCK_HISTO_ATOMIC,
};

template <class T, int dim_x, int items_per_thread, int bins,
          BlockHistogramAlgorithm algorithm = BLOCK_HISTO_SORT, int dim_y = 1, int dim_z = 1,
          int legacy_arch = 0>
class BlockHistogram {
  static constexpr int block_threads = dim_x * dim_y * dim_z;

 public:
  /// Nothing is exchanged through it here; it exists to be declared and shared in unions.
  struct TempStorage {
    unsigned char unused;
  };

  BlockHistogram() = default;
  explicit BlockHistogram(TempStorage&) {}

  template <class CounterT>
  void InitHistogram(CounterT histogram[bins]) {
    const int rank = memcarlo_detail::linear_tid<dim_x, dim_y, dim_z>();
    for (int bin = rank; bin < bins && rank < block_threads; bin += block_threads) {
      histogram[bin] = 0;
    }
    // The lanes of a warp run the zeroing stores together on a GPU, so a program that composites
    // right after it without a barrier (warp-synchronous: right within one warp) finds its warp's
    // bins zeroed; the emulation's threads run one after another until they meet.
    __syncwarp(memcarlo_detail::warp_lanes());
  }
  template <class CounterT>
  void Histogram(T (&items)[items_per_thread], CounterT histogram[bins]) {
    InitHistogram(histogram);
    __syncthreads();
    Composite(items, histogram);
  }
  template <class CounterT>
  void Composite(T (&items)[items_per_thread], CounterT histogram[bins]) {
    if constexpr (algorithm == BLOCK_HISTO_SORT) {
      __syncthreads();
    }
    for (int i = 0; i < items_per_thread; ++i) {
      CounterT& counter = histogram[static_cast<int>(items[i])];
      if constexpr (std::is_integral_v<CounterT>) {
        __atomic_fetch_add(&counter, CounterT{1}, __ATOMIC_RELAXED);
      } else {
        atomicAdd(&counter, CounterT{1});
      }
    }
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
