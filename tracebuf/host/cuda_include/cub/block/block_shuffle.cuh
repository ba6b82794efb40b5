// cub::BlockShuffle for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): each thread
// puts one item in the TempStorage, the block synchronizes, and each thread reads the item it
// gets, as CUB does: Offset (from thread rank + distance, output left alone past either end),
// Rotate (modulo the block), Up (each item gets its predecessor in the blocked tile, the block's
// last item as block_suffix) and Down (its successor, the first as block_prefix). As in CUB, a
// __syncthreads() must separate a reuse of the TempStorage.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_cub.cuh"

namespace cub {

template <class T, int dim_x, int dim_y = 1, int dim_z = 1, int legacy_arch = 0>
class BlockShuffle {
  static constexpr int block_threads = dim_x * dim_y * dim_z;

 public:
  struct TempStorage {
    memcarlo_detail::Slots<T, block_threads> items;
  };

  BlockShuffle() : storage_(private_storage()) {}
  explicit BlockShuffle(TempStorage& storage) : storage_(storage) {}

  void Offset(T input, T& output, int distance = 1) {
    const int rank = share(input);
    const int from = rank + distance;
    if (from >= 0 && from < block_threads) {
      output = storage_.items.get(from);
    }
  }
  void Rotate(T input, T& output, unsigned distance = 1) {
    const int rank = share(input);
    output = storage_.items.get(static_cast<int>((static_cast<unsigned>(rank) + distance) %
                                                 static_cast<unsigned>(block_threads)));
  }
  template <int items>
  void Up(T (&input)[items], T (&prev)[items]) {
    const int rank = share(input[items - 1]);
    for (int i = items - 1; i > 0; --i) {
      prev[i] = input[i - 1];
    }
    if (rank > 0) {
      prev[0] = storage_.items.get(rank - 1);
    }
  }
  template <int items>
  void Up(T (&input)[items], T (&prev)[items], T& block_suffix) {
    Up(input, prev);
    block_suffix = storage_.items.get(block_threads - 1);
  }
  template <int items>
  void Down(T (&input)[items], T (&prev)[items]) {
    const int rank = share(input[0]);
    for (int i = 0; i + 1 < items; ++i) {
      prev[i] = input[i + 1];
    }
    if (rank < block_threads - 1) {
      prev[items - 1] = storage_.items.get(rank + 1);
    }
  }
  template <int items>
  void Down(T (&input)[items], T (&prev)[items], T& block_prefix) {
    Down(input, prev);
    block_prefix = storage_.items.get(0);
  }

 private:
  static TempStorage& private_storage() {
    thread_local TempStorage storage;  // per OS thread = per running block
    return storage;
  }

  /// Puts the calling thread's item at its rank, meets the block; returns the rank.
  int share(const T& item) {
    const int rank = memcarlo_detail::linear_tid<dim_x, dim_y, dim_z>();
    if (rank < block_threads) {
      storage_.items.put(rank, item);
    }
    __syncthreads();
    return rank;
  }

  TempStorage& storage_;
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
