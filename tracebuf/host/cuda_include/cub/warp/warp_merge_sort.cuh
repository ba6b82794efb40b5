// cub::WarpMergeSort for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): the lanes of a
// logical warp (LOGICAL_WARP_THREADS, a power of two up to 32, cut from the block's warps; a
// lane's rank is its lane modulo the width, as in CUB) put their items in the TempStorage, meet at
// __syncwarp over the logical warp's lanes, lane 0 sorts the warp's tile stably, and after a
// second __syncwarp every lane reads its items back, blocked (the sort and its overloads:
// detail/memcarlo_merge_sort.cuh, shared with BlockMergeSort). The loads and stores of the keys
// are the program's; the sort makes no global accesses.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_merge_sort.cuh"
#include "../util_type.cuh"
#include "warp_reduce.cuh"

namespace cub {
namespace memcarlo_detail {

/// The lanes of the calling thread's logical warp, for MergeSortTile.
struct WarpSortGroup {
  LogicalWarp warp;
  int rank() const { return warp.lane; }
  bool member(int) const { return true; }
  int threads() const { return warp.lanes; }
  void sync() const { __syncwarp(warp.mask); }
};

}  // namespace memcarlo_detail

template <class KeyT, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS = 32, class ValueT = NullType>
class WarpMergeSort
    : public memcarlo_detail::MergeSortTile<KeyT, ITEMS_PER_THREAD,
                                            LOGICAL_WARP_THREADS * ITEMS_PER_THREAD, ValueT,
                                            memcarlo_detail::WarpSortGroup> {
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32 &&
                    (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0,
                "the emulation's WarpMergeSort takes logical warps of 1, 2, 4, 8, 16 or 32 lanes");
  using Tile = memcarlo_detail::MergeSortTile<KeyT, ITEMS_PER_THREAD,
                                              LOGICAL_WARP_THREADS * ITEMS_PER_THREAD, ValueT,
                                              memcarlo_detail::WarpSortGroup>;

 public:
  using TempStorage = typename Tile::TempStorage;

  WarpMergeSort() = delete;  // as in CUB: the storage is the program's
  explicit WarpMergeSort(TempStorage& storage)
      : Tile(storage, {memcarlo_detail::LogicalWarp(LOGICAL_WARP_THREADS)}) {}

  /// The lanes of the calling thread's logical warp in its hardware warp.
  unsigned int get_member_mask() const { return this->group().warp.mask; }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
