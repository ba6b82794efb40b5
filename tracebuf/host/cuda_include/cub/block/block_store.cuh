// cub::BlockStore and the cub::StoreDirect* functions for memcarlo's host backend (see
// cub/detail/memcarlo_cub.cuh and block_load.cuh). Each thread writes, and the trace records, the
// addresses CUB's algorithm writes: blocked for DIRECT and VECTORIZE, striped for STRIPED (whose
// items are striped already) and TRANSPOSE, warp-striped for WARP_TRANSPOSE (and TIMESLICED). The
// transposing algorithms exchange the block's items through the TempStorage after a barrier, as
// CUB does, so a __syncthreads() must separate a reuse of the TempStorage.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_cub.cuh"
#include "block_load.cuh"

namespace cub {

enum BlockStoreAlgorithm {
  BLOCK_STORE_DIRECT,
  BLOCK_STORE_STRIPED,
  BLOCK_STORE_VECTORIZE,
  BLOCK_STORE_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED,
};

namespace memcarlo_detail {

/// Writes item i to `*(block_itr + offset(i))` where offset(i) < valid_items, recorded.
template <class Value, int items, class Iterator, class Offset>
inline void store_items(Iterator block_itr, const Value (&src)[items], Offset offset,
                        int valid_items, StaticLoad load) {
  for (int i = 0; i < items; ++i) {
    const int at = offset(i);
    if (at < valid_items) {
      access(block_itr, at, load) = src[i];
    }
  }
}

}  // namespace memcarlo_detail

template <class Value, int items, class Iterator>
inline void StoreDirectBlocked(int linear_tid, Iterator block_itr, Value (&items_in)[items]) {
  memcarlo_detail::store_items(
      block_itr, items_in, [&](int i) { return linear_tid * items + i; }, memcarlo_detail::no_limit,
      memcarlo_detail::direct_store_write);
}
template <class Value, int items, class Iterator>
inline void StoreDirectBlocked(int linear_tid, Iterator block_itr, Value (&items_in)[items],
                               int valid_items) {
  memcarlo_detail::store_items(
      block_itr, items_in, [&](int i) { return linear_tid * items + i; }, valid_items,
      memcarlo_detail::direct_store_write);
}
template <class Value, int items>
inline void StoreDirectBlockedVectorized(int linear_tid, Value* block_ptr,
                                         Value (&items_in)[items]) {
  StoreDirectBlocked(linear_tid, block_ptr, items_in);
}
template <int block_threads, class Value, int items, class Iterator>
inline void StoreDirectStriped(int linear_tid, Iterator block_itr, Value (&items_in)[items]) {
  memcarlo_detail::store_items(
      block_itr, items_in, [&](int i) { return i * block_threads + linear_tid; },
      memcarlo_detail::no_limit, memcarlo_detail::direct_store_write);
}
template <int block_threads, class Value, int items, class Iterator>
inline void StoreDirectStriped(int linear_tid, Iterator block_itr, Value (&items_in)[items],
                               int valid_items) {
  memcarlo_detail::store_items(
      block_itr, items_in, [&](int i) { return i * block_threads + linear_tid; }, valid_items,
      memcarlo_detail::direct_store_write);
}
template <class Value, int items, class Iterator>
inline void StoreDirectWarpStriped(int linear_tid, Iterator block_itr, Value (&items_in)[items]) {
  const int base = linear_tid / 32 * 32 * items + linear_tid % 32;
  memcarlo_detail::store_items(
      block_itr, items_in, [&](int i) { return base + i * 32; }, memcarlo_detail::no_limit,
      memcarlo_detail::direct_store_write);
}
template <class Value, int items, class Iterator>
inline void StoreDirectWarpStriped(int linear_tid, Iterator block_itr, Value (&items_in)[items],
                                   int valid_items) {
  const int base = linear_tid / 32 * 32 * items + linear_tid % 32;
  memcarlo_detail::store_items(
      block_itr, items_in, [&](int i) { return base + i * 32; }, valid_items,
      memcarlo_detail::direct_store_write);
}

template <class Value, int dim_x, int items_per_thread,
          BlockStoreAlgorithm algorithm = BLOCK_STORE_DIRECT, int dim_y = 1, int dim_z = 1,
          int legacy_arch = 0>
class BlockStore {
  static constexpr int block_threads = dim_x * dim_y * dim_z;
  static constexpr bool transposes = algorithm == BLOCK_STORE_TRANSPOSE ||
                                     algorithm == BLOCK_STORE_WARP_TRANSPOSE ||
                                     algorithm == BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED;

 public:
  struct TempStorage {
    memcarlo_detail::Slots<Value, transposes ? block_threads * items_per_thread : 1> items;
  };

  BlockStore() : storage_(private_storage()) {}
  explicit BlockStore(TempStorage& storage) : storage_(storage) {}

  template <class Iterator>
  void Store(Iterator block_itr, Value (&items)[items_per_thread]) {
    store(block_itr, items, memcarlo_detail::no_limit);
  }
  template <class Iterator>
  void Store(Iterator block_itr, Value (&items)[items_per_thread], int valid_items) {
    store(block_itr, items, valid_items);
  }

 private:
  static TempStorage& private_storage() {
    thread_local TempStorage storage;  // per OS thread = per running block
    return storage;
  }

  template <class Iterator>
  void store(Iterator block_itr, Value (&items)[items_per_thread], int valid_items) {
    constexpr int count = items_per_thread;
    const int rank = memcarlo_detail::linear_tid<dim_x, dim_y, dim_z>();
    const auto blocked = [&](int i) { return rank * count + i; };
    constexpr auto write = memcarlo_detail::block_store_write;
    if constexpr (!transposes) {
      if (algorithm == BLOCK_STORE_STRIPED) {
        memcarlo_detail::store_items(
            block_itr, items, [&](int i) { return i * block_threads + rank; }, valid_items, write);
      } else {
        memcarlo_detail::store_items(block_itr, items, blocked, valid_items, write);
      }
    } else {
      for (int i = 0; i < count; ++i) {
        storage_.items.put(blocked(i), items[i]);
      }
      __syncthreads();
      for (int i = 0; i < count; ++i) {
        const int at = algorithm == BLOCK_STORE_TRANSPOSE
                           ? i * block_threads + rank
                           : rank / 32 * 32 * count + rank % 32 + i * 32;
        if (at < valid_items) {
          memcarlo_detail::access(block_itr, at, write) = storage_.items.get(at);
        }
      }
    }
  }

  TempStorage& storage_;
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
