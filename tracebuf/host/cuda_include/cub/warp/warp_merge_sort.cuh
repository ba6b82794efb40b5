// cub::WarpMergeSort for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh and
// block/block_merge_sort.cuh): the lanes of a logical warp (LOGICAL_WARP_THREADS, a power of two
// up to 32, cut from the block's warps; a lane's rank is its lane modulo the width, as in CUB) put
// their keys (and values) in the TempStorage in blocked order, items at and past valid_items
// taking oob_default as in CUB, meet at __syncwarp over the logical warp's lanes, lane 0 sorts the
// warp's tile stably with compare_op (Sort, which CUB does not promise to be stable, is
// StableSort here), and after a second __syncwarp every lane reads its items back, blocked. As in
// CUB, a __syncwarp() must separate a reuse of the TempStorage. The loads and stores of the keys
// are the program's; the sort makes no global accesses.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <algorithm>
#include <numeric>
#include <type_traits>
#include <vector>

#include "../util_type.cuh"
#include "warp_reduce.cuh"

namespace cub {

template <class KeyT, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS = 32, class ValueT = NullType>
class WarpMergeSort {
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32 &&
                    (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0,
                "the emulation's WarpMergeSort takes logical warps of 1, 2, 4, 8, 16 or 32 lanes");
  static constexpr int width = LOGICAL_WARP_THREADS;
  static constexpr int tile_items = width * ITEMS_PER_THREAD;
  static constexpr bool keys_only = std::is_same_v<ValueT, NullType>;
  using StoredValue = std::conditional_t<keys_only, char, ValueT>;

 public:
  struct TempStorage {
    memcarlo_detail::Slots<KeyT, tile_items> keys;
    memcarlo_detail::Slots<StoredValue, keys_only ? 1 : tile_items> values;
  };

  WarpMergeSort() = delete;  // as in CUB: the storage is the program's
  explicit WarpMergeSort(TempStorage& storage) : storage_(storage), warp_(LOGICAL_WARP_THREADS) {}

  /// The lanes of the calling thread's logical warp in its hardware warp.
  unsigned int get_member_mask() const { return warp_.mask; }

  template <class CompareOp>
  void Sort(KeyT (&keys)[ITEMS_PER_THREAD], CompareOp compare_op) {
    sort(keys, nullptr, compare_op, tile_items, nullptr);
  }
  template <class CompareOp>
  void Sort(KeyT (&keys)[ITEMS_PER_THREAD], CompareOp compare_op, int valid_items,
            KeyT oob_default) {
    sort(keys, nullptr, compare_op, valid_items, &oob_default);
  }
  template <class CompareOp>
  void Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&items)[ITEMS_PER_THREAD],
            CompareOp compare_op) {
    sort(keys, &items, compare_op, tile_items, nullptr);
  }
  template <class CompareOp>
  void Sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&items)[ITEMS_PER_THREAD], CompareOp compare_op,
            int valid_items, KeyT oob_default) {
    sort(keys, &items, compare_op, valid_items, &oob_default);
  }
  template <class CompareOp>
  void StableSort(KeyT (&keys)[ITEMS_PER_THREAD], CompareOp compare_op) {
    Sort(keys, compare_op);
  }
  template <class CompareOp>
  void StableSort(KeyT (&keys)[ITEMS_PER_THREAD], CompareOp compare_op, int valid_items,
                  KeyT oob_default) {
    Sort(keys, compare_op, valid_items, oob_default);
  }
  template <class CompareOp>
  void StableSort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&items)[ITEMS_PER_THREAD],
                  CompareOp compare_op) {
    Sort(keys, items, compare_op);
  }
  template <class CompareOp>
  void StableSort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&items)[ITEMS_PER_THREAD],
                  CompareOp compare_op, int valid_items, KeyT oob_default) {
    Sort(keys, items, compare_op, valid_items, oob_default);
  }

 private:
  template <class CompareOp>
  void sort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (*values)[ITEMS_PER_THREAD],
            CompareOp& compare_op, int valid_items, const KeyT* oob_default) {
    const int lane = warp_.lane;
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      const int at = lane * ITEMS_PER_THREAD + i;
      storage_.keys.put(at, at < valid_items || oob_default == nullptr ? keys[i] : *oob_default);
      if constexpr (!keys_only) {
        storage_.values.put(at, (*values)[i]);
      }
    }
    __syncwarp(warp_.mask);
    if (lane == 0) {
      sort_tile(warp_.lanes * ITEMS_PER_THREAD, compare_op);
    }
    __syncwarp(warp_.mask);
    for (int i = 0; i < ITEMS_PER_THREAD; ++i) {
      keys[i] = storage_.keys.get(lane * ITEMS_PER_THREAD + i);
      if constexpr (!keys_only) {
        (*values)[i] = storage_.values.get(lane * ITEMS_PER_THREAD + i);
      }
    }
  }

  /// Sorts the first `count` stored keys (and values) stably.
  template <class CompareOp>
  void sort_tile(int count, CompareOp& compare_op) {
    std::vector<int> order(static_cast<std::size_t>(count));
    std::iota(order.begin(), order.end(), 0);
    KeyT* stored = storage_.keys.data();
    std::stable_sort(order.begin(), order.end(), [&](int left, int right) {
      return static_cast<bool>(compare_op(stored[left], stored[right]));
    });
    std::vector<KeyT> sorted_keys;
    std::vector<StoredValue> sorted_values;
    sorted_keys.reserve(order.size());
    for (const int from : order) {
      sorted_keys.push_back(stored[from]);
      if constexpr (!keys_only) {
        sorted_values.push_back(storage_.values.get(from));
      }
    }
    for (std::size_t i = 0; i < order.size(); ++i) {
      stored[i] = sorted_keys[i];
      if constexpr (!keys_only) {
        storage_.values.data()[i] = sorted_values[i];
      }
    }
  }

  TempStorage& storage_;
  memcarlo_detail::LogicalWarp warp_;
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
