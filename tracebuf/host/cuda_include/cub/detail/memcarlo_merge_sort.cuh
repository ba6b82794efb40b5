// What BlockMergeSort and WarpMergeSort share on memcarlo's host backend: the tile's storage, the
// Sort and StableSort overloads, and the sort itself. The threads of a group (a block, or a
// logical warp) put their keys (and values) in the TempStorage in blocked order, items at and past
// valid_items taking oob_default as in CUB, meet at the group's barrier, rank 0 sorts the tile
// stably with compare_op (Sort, which CUB does not promise to be stable, is StableSort here), and
// after a second barrier every thread reads its items back, blocked. As in CUB, a barrier must
// separate a reuse of the TempStorage.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <algorithm>
#include <numeric>
#include <type_traits>
#include <vector>

#include "../util_type.cuh"
#include "memcarlo_cub.cuh"

namespace cub {
namespace memcarlo_detail {

/// `Group` gives the calling thread's rank(), whether a rank takes part (member), how many
/// threads of the group exist (threads) and the group's barrier (sync).
template <class KeyT, int items_per_thread, int tile_items, class ValueT, class Group>
class MergeSortTile {
  static constexpr bool keys_only = std::is_same_v<ValueT, NullType>;
  using StoredValue = std::conditional_t<keys_only, char, ValueT>;

 public:
  struct TempStorage {
    Slots<KeyT, tile_items> keys;
    Slots<StoredValue, keys_only ? 1 : tile_items> values;
  };

  template <class CompareOp>
  void Sort(KeyT (&keys)[items_per_thread], CompareOp compare_op) {
    sort(keys, nullptr, compare_op, tile_items, nullptr);
  }
  template <class CompareOp>
  void Sort(KeyT (&keys)[items_per_thread], CompareOp compare_op, int valid_items,
            KeyT oob_default) {
    sort(keys, nullptr, compare_op, valid_items, &oob_default);
  }
  template <class CompareOp>
  void Sort(KeyT (&keys)[items_per_thread], ValueT (&items)[items_per_thread],
            CompareOp compare_op) {
    sort(keys, &items, compare_op, tile_items, nullptr);
  }
  template <class CompareOp>
  void Sort(KeyT (&keys)[items_per_thread], ValueT (&items)[items_per_thread], CompareOp compare_op,
            int valid_items, KeyT oob_default) {
    sort(keys, &items, compare_op, valid_items, &oob_default);
  }
  template <class CompareOp>
  void StableSort(KeyT (&keys)[items_per_thread], CompareOp compare_op) {
    Sort(keys, compare_op);
  }
  template <class CompareOp>
  void StableSort(KeyT (&keys)[items_per_thread], CompareOp compare_op, int valid_items,
                  KeyT oob_default) {
    Sort(keys, compare_op, valid_items, oob_default);
  }
  template <class CompareOp>
  void StableSort(KeyT (&keys)[items_per_thread], ValueT (&items)[items_per_thread],
                  CompareOp compare_op) {
    Sort(keys, items, compare_op);
  }
  template <class CompareOp>
  void StableSort(KeyT (&keys)[items_per_thread], ValueT (&items)[items_per_thread],
                  CompareOp compare_op, int valid_items, KeyT oob_default) {
    Sort(keys, items, compare_op, valid_items, oob_default);
  }

 protected:
  MergeSortTile(TempStorage& storage, Group group) : storage_(storage), group_(group) {}

  const Group& group() const { return group_; }

 private:
  template <class CompareOp>
  void sort(KeyT (&keys)[items_per_thread], ValueT (*values)[items_per_thread],
            CompareOp& compare_op, int valid_items, const KeyT* oob_default) {
    const int rank = group_.rank();
    const bool member = group_.member(rank);
    if (member) {
      for (int i = 0; i < items_per_thread; ++i) {
        const int at = rank * items_per_thread + i;
        storage_.keys.put(at, at < valid_items || oob_default == nullptr ? keys[i] : *oob_default);
        if constexpr (!keys_only) {
          storage_.values.put(at, (*values)[i]);
        }
      }
    }
    group_.sync();
    if (rank == 0) {
      sort_tile(group_.threads() * items_per_thread, compare_op);
    }
    group_.sync();
    if (member) {
      for (int i = 0; i < items_per_thread; ++i) {
        keys[i] = storage_.keys.get(rank * items_per_thread + i);
        if constexpr (!keys_only) {
          (*values)[i] = storage_.values.get(rank * items_per_thread + i);
        }
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
  Group group_;
};

}  // namespace memcarlo_detail
}  // namespace cub
// NOLINTEND(readability-identifier-naming)
