// cub::BlockRadixSort for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): each thread
// puts its keys (and values) in the TempStorage in blocked order, the block synchronizes, thread 0
// sorts the tile stably on the bits [begin_bit, end_bit) in CUB's radix order (negative floats
// first), and after a second barrier every thread reads its items back: blocked (Sort,
// SortDescending) or striped (the BlockedToStriped forms). Keys are arithmetic (CUB's decomposer
// forms for user-defined keys are not provided). As in CUB, a __syncthreads() must separate a
// reuse of the TempStorage.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <type_traits>
#include <vector>

#include "../detail/memcarlo_cub.cuh"
#include "../detail/memcarlo_radix.cuh"
#include "../util_type.cuh"
#include "block_scan.cuh"

namespace cub {

template <class KeyT, int dim_x, int items_per_thread, class ValueT = NullType, int radix_bits = 4,
          bool memoize_outer_scan = true,
          BlockScanAlgorithm inner_scan_algorithm = BLOCK_SCAN_WARP_SCANS,
          cudaSharedMemConfig smem_config = cudaSharedMemBankSizeFourByte, int dim_y = 1,
          int dim_z = 1, int legacy_arch = 0>
class BlockRadixSort {
  static constexpr int block_threads = dim_x * dim_y * dim_z;
  static constexpr int tile_items = block_threads * items_per_thread;
  static constexpr bool keys_only = std::is_same_v<ValueT, NullType>;
  static constexpr int all_bits = static_cast<int>(sizeof(KeyT) * 8);
  using StoredValue = std::conditional_t<keys_only, char, ValueT>;

 public:
  struct TempStorage {
    memcarlo_detail::Slots<KeyT, tile_items> keys;
    memcarlo_detail::Slots<StoredValue, keys_only ? 1 : tile_items> values;
  };

  BlockRadixSort() : storage_(private_storage()) {}
  explicit BlockRadixSort(TempStorage& storage) : storage_(storage) {}

  void Sort(KeyT (&keys)[items_per_thread], int begin_bit = 0, int end_bit = all_bits) {
    sort(keys, nullptr, begin_bit, end_bit, false, false);
  }
  void Sort(KeyT (&keys)[items_per_thread], ValueT (&values)[items_per_thread], int begin_bit = 0,
            int end_bit = all_bits) {
    sort(keys, &values, begin_bit, end_bit, false, false);
  }
  void SortDescending(KeyT (&keys)[items_per_thread], int begin_bit = 0, int end_bit = all_bits) {
    sort(keys, nullptr, begin_bit, end_bit, true, false);
  }
  void SortDescending(KeyT (&keys)[items_per_thread], ValueT (&values)[items_per_thread],
                      int begin_bit = 0, int end_bit = all_bits) {
    sort(keys, &values, begin_bit, end_bit, true, false);
  }
  void SortBlockedToStriped(KeyT (&keys)[items_per_thread], int begin_bit = 0,
                            int end_bit = all_bits) {
    sort(keys, nullptr, begin_bit, end_bit, false, true);
  }
  void SortBlockedToStriped(KeyT (&keys)[items_per_thread], ValueT (&values)[items_per_thread],
                            int begin_bit = 0, int end_bit = all_bits) {
    sort(keys, &values, begin_bit, end_bit, false, true);
  }
  void SortDescendingBlockedToStriped(KeyT (&keys)[items_per_thread], int begin_bit = 0,
                                      int end_bit = all_bits) {
    sort(keys, nullptr, begin_bit, end_bit, true, true);
  }
  void SortDescendingBlockedToStriped(KeyT (&keys)[items_per_thread],
                                      ValueT (&values)[items_per_thread], int begin_bit = 0,
                                      int end_bit = all_bits) {
    sort(keys, &values, begin_bit, end_bit, true, true);
  }

 private:
  static TempStorage& private_storage() {
    thread_local TempStorage storage;  // per OS thread = per running block
    return storage;
  }

  void sort(KeyT (&keys)[items_per_thread], ValueT (*values)[items_per_thread], int begin_bit,
            int end_bit, bool descending, bool to_striped) {
    const int rank = memcarlo_detail::linear_tid<dim_x, dim_y, dim_z>();
    const int launched = memcarlo_detail::block_threads_launched();
    const int threads = launched < block_threads ? launched : block_threads;
    if (rank < block_threads) {
      for (int i = 0; i < items_per_thread; ++i) {
        storage_.keys.put(rank * items_per_thread + i, keys[i]);
        if constexpr (!keys_only) {
          storage_.values.put(rank * items_per_thread + i, (*values)[i]);
        }
      }
    }
    __syncthreads();
    if (rank == 0) {
      const int count = threads * items_per_thread;
      const std::vector<int> order =
          memcarlo_detail::radix_order(storage_.keys.data(), count, begin_bit, end_bit, descending);
      std::vector<KeyT> sorted_keys(order.size());
      std::vector<StoredValue> sorted_values(keys_only ? 0 : order.size());
      for (std::size_t i = 0; i < order.size(); ++i) {
        sorted_keys[i] = storage_.keys.get(order[i]);
        if constexpr (!keys_only) {
          sorted_values[i] = storage_.values.get(order[i]);
        }
      }
      for (std::size_t i = 0; i < order.size(); ++i) {
        storage_.keys.data()[i] = sorted_keys[i];
        if constexpr (!keys_only) {
          storage_.values.data()[i] = sorted_values[i];
        }
      }
    }
    __syncthreads();
    if (rank < block_threads) {
      for (int i = 0; i < items_per_thread; ++i) {
        const int at = to_striped ? i * block_threads + rank : rank * items_per_thread + i;
        keys[i] = storage_.keys.get(at);
        if constexpr (!keys_only) {
          (*values)[i] = storage_.values.get(at);
        }
      }
    }
  }

  TempStorage& storage_;
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
