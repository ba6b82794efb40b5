// cub::DeviceMergeSort for memcarlo's host backend (see device/device_reduce.cuh): SortPairs,
// SortKeys, their Copy forms and the Stable forms, with the program's comparison, computed on the
// CPU, untraced. Every form sorts stably (CUB's unstable forms may keep equal keys in any order,
// so this is one of the orders they may give).
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <numeric>
#include <vector>

#include "device_reduce.cuh"

namespace cub {

struct DeviceMergeSort {
  template <class KeyIteratorT, class ValueIteratorT, class OffsetT, class CompareOpT>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                               KeyIteratorT d_keys, ValueIteratorT d_items, OffsetT num_items,
                               CompareOpT compare_op, cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceMergeSort::SortPairs")) {
      return cudaSuccess;
    }
    sort(d_keys, d_items, d_keys, d_items, num_items, compare_op, true);
    return cudaSuccess;
  }
  template <class KeyInputIteratorT, class ValueInputIteratorT, class KeyIteratorT,
            class ValueIteratorT, class OffsetT, class CompareOpT>
  static cudaError_t SortPairsCopy(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                   KeyInputIteratorT d_input_keys,
                                   ValueInputIteratorT d_input_items, KeyIteratorT d_output_keys,
                                   ValueIteratorT d_output_items, OffsetT num_items,
                                   CompareOpT compare_op, cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceMergeSort::SortPairsCopy")) {
      return cudaSuccess;
    }
    sort(d_input_keys, d_input_items, d_output_keys, d_output_items, num_items, compare_op, true);
    return cudaSuccess;
  }
  template <class KeyIteratorT, class OffsetT, class CompareOpT>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                              KeyIteratorT d_keys, OffsetT num_items, CompareOpT compare_op,
                              cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceMergeSort::SortKeys")) {
      return cudaSuccess;
    }
    sort(d_keys, d_keys, d_keys, d_keys, num_items, compare_op, false);
    return cudaSuccess;
  }
  template <class KeyInputIteratorT, class KeyIteratorT, class OffsetT, class CompareOpT>
  static cudaError_t SortKeysCopy(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                  KeyInputIteratorT d_input_keys, KeyIteratorT d_output_keys,
                                  OffsetT num_items, CompareOpT compare_op,
                                  cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceMergeSort::SortKeysCopy")) {
      return cudaSuccess;
    }
    sort(d_input_keys, d_input_keys, d_output_keys, d_output_keys, num_items, compare_op, false);
    return cudaSuccess;
  }
  template <class KeyIteratorT, class ValueIteratorT, class OffsetT, class CompareOpT>
  static cudaError_t StableSortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                     KeyIteratorT d_keys, ValueIteratorT d_items, OffsetT num_items,
                                     CompareOpT compare_op, cudaStream_t stream = 0) {
    return SortPairs(d_temp_storage, temp_storage_bytes, d_keys, d_items, num_items, compare_op,
                     stream);
  }
  template <class KeyIteratorT, class OffsetT, class CompareOpT>
  static cudaError_t StableSortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                    KeyIteratorT d_keys, OffsetT num_items, CompareOpT compare_op,
                                    cudaStream_t stream = 0) {
    return SortKeys(d_temp_storage, temp_storage_bytes, d_keys, num_items, compare_op, stream);
  }
  template <class KeyInputIteratorT, class KeyIteratorT, class OffsetT, class CompareOpT>
  static cudaError_t StableSortKeysCopy(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                        KeyInputIteratorT d_input_keys,
                                        KeyIteratorT d_output_keys, OffsetT num_items,
                                        CompareOpT compare_op, cudaStream_t stream = 0) {
    return SortKeysCopy(d_temp_storage, temp_storage_bytes, d_input_keys, d_output_keys, num_items,
                        compare_op, stream);
  }

 private:
  /// Sorts keys_in[0, n) (with items_in when `with_items`) stably by `compare` into keys_out
  /// (items_out), which may be the inputs.
  template <class KeysIn, class ItemsIn, class KeysOut, class ItemsOut, class OffsetT,
            class CompareOpT>
  static void sort(KeysIn keys_in, ItemsIn items_in, KeysOut keys_out, ItemsOut items_out,
                   OffsetT num_items, CompareOpT compare, bool with_items) {
    const auto n = static_cast<std::size_t>(num_items);
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return static_cast<bool>(compare(keys_in[a], keys_in[b]));
    });
    using Key = typename std::iterator_traits<KeysIn>::value_type;
    std::vector<Key> keys(n);
    for (std::size_t i = 0; i < n; ++i) {
      keys[i] = keys_in[order[i]];
    }
    if (with_items) {
      using Item = typename std::iterator_traits<ItemsIn>::value_type;
      std::vector<Item> items(n);
      for (std::size_t i = 0; i < n; ++i) {
        items[i] = items_in[order[i]];
      }
      for (std::size_t i = 0; i < n; ++i) {
        items_out[i] = items[i];
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      keys_out[i] = keys[i];
    }
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
