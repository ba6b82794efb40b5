// cub::BlockMergeSort for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): the block's
// threads put their items in the TempStorage, __syncthreads(), thread 0 sorts the whole tile
// stably, __syncthreads(), and every thread reads its items back, blocked (the sort and its
// overloads: detail/memcarlo_merge_sort.cuh, shared with WarpMergeSort).
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_cub.cuh"
#include "../detail/memcarlo_merge_sort.cuh"
#include "../util_type.cuh"

namespace cub {
namespace memcarlo_detail {

/// The threads of a block of the given dimensions, for MergeSortTile.
template <int dim_x, int dim_y, int dim_z>
struct BlockSortGroup {
  static constexpr int block_threads = dim_x * dim_y * dim_z;
  int rank() const { return linear_tid<dim_x, dim_y, dim_z>(); }
  bool member(int rank) const { return rank < block_threads; }
  int threads() const {
    const int launched = block_threads_launched();
    return launched < block_threads ? launched : block_threads;
  }
  void sync() const { __syncthreads(); }
};

}  // namespace memcarlo_detail

template <class KeyT, int dim_x, int items_per_thread, class ValueT = NullType, int dim_y = 1,
          int dim_z = 1>
class BlockMergeSort
    : public memcarlo_detail::MergeSortTile<KeyT, items_per_thread,
                                            dim_x * dim_y * dim_z * items_per_thread, ValueT,
                                            memcarlo_detail::BlockSortGroup<dim_x, dim_y, dim_z>> {
  static constexpr int block_threads = dim_x * dim_y * dim_z;
  static_assert((block_threads & (block_threads - 1)) == 0,
                "NUM_THREADS must be a power of two (as in CUB)");
  using Tile = memcarlo_detail::MergeSortTile<KeyT, items_per_thread,
                                              block_threads * items_per_thread, ValueT,
                                              memcarlo_detail::BlockSortGroup<dim_x, dim_y, dim_z>>;

 public:
  using TempStorage = typename Tile::TempStorage;

  BlockMergeSort() : Tile(private_storage(), {}) {}
  explicit BlockMergeSort(TempStorage& storage) : Tile(storage, {}) {}

 private:
  static TempStorage& private_storage() {
    thread_local TempStorage storage;  // per OS thread = per running block
    return storage;
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
