// cub::BlockMergeSort for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): each thread
// puts its keys (and values) in the TempStorage in blocked order, items at and past valid_items
// taking oob_default as in CUB, the block synchronizes, thread 0 sorts the whole tile stably with
// compare_op (Sort, which CUB does not promise to be stable, is StableSort here), and after a
// second barrier every thread reads its items back, blocked. As in CUB, a __syncthreads() must
// separate a reuse of the TempStorage.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <algorithm>
#include <numeric>
#include <type_traits>
#include <vector>

#include "../detail/memcarlo_cub.cuh"
#include "../util_type.cuh"

namespace cub {

template <class KeyT, int dim_x, int items_per_thread, class ValueT = NullType, int dim_y = 1,
          int dim_z = 1>
class BlockMergeSort {
  static constexpr int block_threads = dim_x * dim_y * dim_z;
  static_assert((block_threads & (block_threads - 1)) == 0,
                "NUM_THREADS must be a power of two (as in CUB)");
  static constexpr int tile_items = block_threads * items_per_thread;
  static constexpr bool keys_only = std::is_same_v<ValueT, NullType>;
  using StoredValue = std::conditional_t<keys_only, char, ValueT>;

 public:
  struct TempStorage {
    memcarlo_detail::Slots<KeyT, tile_items> keys;
    memcarlo_detail::Slots<StoredValue, keys_only ? 1 : tile_items> values;
  };

  BlockMergeSort() : storage_(private_storage()) {}
  explicit BlockMergeSort(TempStorage& storage) : storage_(storage) {}

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

 private:
  static TempStorage& private_storage() {
    thread_local TempStorage storage;  // per OS thread = per running block
    return storage;
  }

  template <class CompareOp>
  void sort(KeyT (&keys)[items_per_thread], ValueT (*values)[items_per_thread],
            CompareOp& compare_op, int valid_items, const KeyT* oob_default) {
    const int rank = memcarlo_detail::linear_tid<dim_x, dim_y, dim_z>();
    const int launched = memcarlo_detail::block_threads_launched();
    const int threads = launched < block_threads ? launched : block_threads;
    if (rank < block_threads) {
      for (int i = 0; i < items_per_thread; ++i) {
        const int at = rank * items_per_thread + i;
        storage_.keys.put(at, at < valid_items || oob_default == nullptr ? keys[i] : *oob_default);
        if constexpr (!keys_only) {
          storage_.values.put(at, (*values)[i]);
        }
      }
    }
    __syncthreads();
    if (rank == 0) {
      const int count = threads * items_per_thread;
      std::vector<int> order(static_cast<std::size_t>(count));
      std::iota(order.begin(), order.end(), 0);
      KeyT* stored = storage_.keys.data();
      std::stable_sort(order.begin(), order.end(), [&](int left, int right) {
        return compare_op(stored[left], stored[right]);
      });
      std::vector<KeyT> sorted_keys(order.size());
      std::vector<StoredValue> sorted_values(keys_only ? 0 : order.size());
      for (std::size_t i = 0; i < order.size(); ++i) {
        sorted_keys[i] = stored[order[i]];
        if constexpr (!keys_only) {
          sorted_values[i] = storage_.values.get(order[i]);
        }
      }
      for (std::size_t i = 0; i < order.size(); ++i) {
        stored[i] = sorted_keys[i];
        if constexpr (!keys_only) {
          storage_.values.data()[i] = sorted_values[i];
        }
      }
    }
    __syncthreads();
    if (rank < block_threads) {
      for (int i = 0; i < items_per_thread; ++i) {
        keys[i] = storage_.keys.get(rank * items_per_thread + i);
        if constexpr (!keys_only) {
          (*values)[i] = storage_.values.get(rank * items_per_thread + i);
        }
      }
    }
  }

  TempStorage& storage_;
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
