// cub::WarpStore for memcarlo's host backend (see warp_load.cuh): the lanes of a logical warp
// write a tile to `block_itr`, and the trace records the addresses CUB's algorithm writes: blocked
// for DIRECT and VECTORIZE, striped for STRIPED (whose items are striped already) and TRANSPOSE.
// TRANSPOSE exchanges the logical warp's items through the TempStorage, meeting at __syncwarp
// over its lanes, as CUB does.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../block/block_store.cuh"
#include "warp_reduce.cuh"

namespace cub {

enum WarpStoreAlgorithm {
  WARP_STORE_DIRECT,
  WARP_STORE_STRIPED,
  WARP_STORE_VECTORIZE,
  WARP_STORE_TRANSPOSE,
};

template <class T, int ITEMS_PER_THREAD, WarpStoreAlgorithm ALGORITHM = WARP_STORE_DIRECT,
          int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpStore {
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32 &&
                    (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0,
                "the emulation's WarpStore takes logical warps of 1, 2, 4, 8, 16 or 32 lanes");
  static constexpr int tile = ITEMS_PER_THREAD * LOGICAL_WARP_THREADS;

 public:
  struct TempStorage {
    memcarlo_detail::Slots<T, tile> items;
  };

  WarpStore() : storage_(private_storage()) {}
  explicit WarpStore(TempStorage& storage) : storage_(storage) {}

  template <class OutputIteratorT>
  void Store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD]) {
    store(block_itr, items, memcarlo_detail::no_limit);
  }
  template <class OutputIteratorT>
  void Store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
    store(block_itr, items, valid_items);
  }

 private:
  static TempStorage& private_storage() {
    thread_local TempStorage storage;  // per OS thread = per running block
    return storage;
  }

  template <class OutputIteratorT>
  void store(OutputIteratorT block_itr, T (&items)[ITEMS_PER_THREAD], int valid_items) {
    constexpr int count = ITEMS_PER_THREAD;
    const memcarlo_detail::LogicalWarp warp(LOGICAL_WARP_THREADS);
    const auto blocked = [&](int i) { return warp.lane * count + i; };
    const auto striped = [&](int i) { return i * LOGICAL_WARP_THREADS + warp.lane; };
    constexpr auto write = memcarlo_detail::warp_store_write;
    if (ALGORITHM == WARP_STORE_STRIPED) {
      memcarlo_detail::store_items(block_itr, items, striped, valid_items, write);
    } else if (ALGORITHM != WARP_STORE_TRANSPOSE) {
      memcarlo_detail::store_items(block_itr, items, blocked, valid_items, write);
    } else {
      // Each tile slot is this logical warp's: warps of one block use TempStorage of their own.
      for (int i = 0; i < count; ++i) {
        storage_.items.put(blocked(i), items[i]);
      }
      __syncwarp(warp.mask);
      for (int i = 0; i < count; ++i) {
        if (striped(i) < valid_items) {
          memcarlo_detail::access(block_itr, striped(i), write) = storage_.items.get(striped(i));
        }
      }
      __syncwarp(warp.mask);
    }
  }

  TempStorage& storage_;
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
