// cub::DeviceSegmentedSort for memcarlo's host backend (see device/device_reduce.cuh): SortKeys,
// SortPairs, their Descending and Stable forms, with separate buffers or DoubleBuffers, each
// segment [d_begin_offsets[s], d_end_offsets[s]) sorted stably in the order of CUB's radix sort on
// all the key's bits (memcarlo_radix.cuh: -0.0 before +0.0, as DeviceRadixSort), computed on the
// CPU, untraced. Every form is stable (CUB's unstable ones may keep equal keys in any order, so
// this is one of the orders they may give). As in CUB, items outside every segment are not
// written, and the DoubleBuffer forms leave the result in d_keys.Current() (here they sort within
// the current buffers, as DeviceSegmentedRadixSort's do).
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../detail/memcarlo_radix.cuh"
#include "device_reduce.cuh"

namespace cub {

struct DeviceSegmentedSort {
  template <class KeyT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                              const KeyT* d_keys_in, KeyT* d_keys_out, std::int64_t num_items,
                              std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets,
                              EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0) {
    (void)num_items;
    (void)stream;
    return sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, no_values(), no_values(),
                num_segments, d_begin_offsets, d_end_offsets, false,
                "cub::DeviceSegmentedSort::SortKeys");
  }
  template <class KeyT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                              DoubleBuffer<KeyT>& d_keys, std::int64_t num_items,
                              std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets,
                              EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0) {
    (void)num_items;
    (void)stream;
    return sort(d_temp_storage, temp_storage_bytes, d_keys.Current(), d_keys.Current(), no_values(),
                no_values(), num_segments, d_begin_offsets, d_end_offsets, false,
                "cub::DeviceSegmentedSort::SortKeys");
  }
  template <class KeyT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                        const KeyT* d_keys_in, KeyT* d_keys_out,
                                        std::int64_t num_items, std::int64_t num_segments,
                                        BeginOffsetIteratorT d_begin_offsets,
                                        EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0) {
    (void)num_items;
    (void)stream;
    return sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, no_values(), no_values(),
                num_segments, d_begin_offsets, d_end_offsets, true,
                "cub::DeviceSegmentedSort::SortKeysDescending");
  }
  template <class KeyT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                        DoubleBuffer<KeyT>& d_keys, std::int64_t num_items,
                                        std::int64_t num_segments,
                                        BeginOffsetIteratorT d_begin_offsets,
                                        EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0) {
    (void)num_items;
    (void)stream;
    return sort(d_temp_storage, temp_storage_bytes, d_keys.Current(), d_keys.Current(), no_values(),
                no_values(), num_segments, d_begin_offsets, d_end_offsets, true,
                "cub::DeviceSegmentedSort::SortKeysDescending");
  }
  template <class KeyT, class ValueT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                               const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                               ValueT* d_values_out, std::int64_t num_items,
                               std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets,
                               EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0) {
    (void)num_items;
    (void)stream;
    return sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                d_values_out, num_segments, d_begin_offsets, d_end_offsets, false,
                "cub::DeviceSegmentedSort::SortPairs");
  }
  template <class KeyT, class ValueT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                               DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                               std::int64_t num_items, std::int64_t num_segments,
                               BeginOffsetIteratorT d_begin_offsets,
                               EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0) {
    (void)num_items;
    (void)stream;
    return sort(d_temp_storage, temp_storage_bytes, d_keys.Current(), d_keys.Current(),
                d_values.Current(), d_values.Current(), num_segments, d_begin_offsets,
                d_end_offsets, false, "cub::DeviceSegmentedSort::SortPairs");
  }
  template <class KeyT, class ValueT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         const KeyT* d_keys_in, KeyT* d_keys_out,
                                         const ValueT* d_values_in, ValueT* d_values_out,
                                         std::int64_t num_items, std::int64_t num_segments,
                                         BeginOffsetIteratorT d_begin_offsets,
                                         EndOffsetIteratorT d_end_offsets,
                                         cudaStream_t stream = 0) {
    (void)num_items;
    (void)stream;
    return sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                d_values_out, num_segments, d_begin_offsets, d_end_offsets, true,
                "cub::DeviceSegmentedSort::SortPairsDescending");
  }
  template <class KeyT, class ValueT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                         std::int64_t num_items, std::int64_t num_segments,
                                         BeginOffsetIteratorT d_begin_offsets,
                                         EndOffsetIteratorT d_end_offsets,
                                         cudaStream_t stream = 0) {
    (void)num_items;
    (void)stream;
    return sort(d_temp_storage, temp_storage_bytes, d_keys.Current(), d_keys.Current(),
                d_values.Current(), d_values.Current(), num_segments, d_begin_offsets,
                d_end_offsets, true, "cub::DeviceSegmentedSort::SortPairsDescending");
  }
  template <class KeyT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t StableSortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                    const KeyT* d_keys_in, KeyT* d_keys_out, std::int64_t num_items,
                                    std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets,
                                    EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0) {
    return SortKeys(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, num_items,
                    num_segments, d_begin_offsets, d_end_offsets, stream);
  }
  template <class KeyT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t StableSortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                    DoubleBuffer<KeyT>& d_keys, std::int64_t num_items,
                                    std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets,
                                    EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0) {
    return SortKeys(d_temp_storage, temp_storage_bytes, d_keys, num_items, num_segments,
                    d_begin_offsets, d_end_offsets, stream);
  }
  template <class KeyT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t StableSortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                              const KeyT* d_keys_in, KeyT* d_keys_out,
                                              std::int64_t num_items, std::int64_t num_segments,
                                              BeginOffsetIteratorT d_begin_offsets,
                                              EndOffsetIteratorT d_end_offsets,
                                              cudaStream_t stream = 0) {
    return SortKeysDescending(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, num_items,
                              num_segments, d_begin_offsets, d_end_offsets, stream);
  }
  template <class KeyT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t StableSortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                              DoubleBuffer<KeyT>& d_keys, std::int64_t num_items,
                                              std::int64_t num_segments,
                                              BeginOffsetIteratorT d_begin_offsets,
                                              EndOffsetIteratorT d_end_offsets,
                                              cudaStream_t stream = 0) {
    return SortKeysDescending(d_temp_storage, temp_storage_bytes, d_keys, num_items, num_segments,
                              d_begin_offsets, d_end_offsets, stream);
  }
  template <class KeyT, class ValueT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t StableSortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                     const KeyT* d_keys_in, KeyT* d_keys_out,
                                     const ValueT* d_values_in, ValueT* d_values_out,
                                     std::int64_t num_items, std::int64_t num_segments,
                                     BeginOffsetIteratorT d_begin_offsets,
                                     EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0) {
    return SortPairs(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                     d_values_out, num_items, num_segments, d_begin_offsets, d_end_offsets, stream);
  }
  template <class KeyT, class ValueT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t StableSortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                     DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                                     std::int64_t num_items, std::int64_t num_segments,
                                     BeginOffsetIteratorT d_begin_offsets,
                                     EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0) {
    return SortPairs(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items, num_segments,
                     d_begin_offsets, d_end_offsets, stream);
  }
  template <class KeyT, class ValueT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t StableSortPairsDescending(
      void* d_temp_storage, std::size_t& temp_storage_bytes, const KeyT* d_keys_in,
      KeyT* d_keys_out, const ValueT* d_values_in, ValueT* d_values_out, std::int64_t num_items,
      std::int64_t num_segments, BeginOffsetIteratorT d_begin_offsets,
      EndOffsetIteratorT d_end_offsets, cudaStream_t stream = 0) {
    return SortPairsDescending(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                               d_values_in, d_values_out, num_items, num_segments, d_begin_offsets,
                               d_end_offsets, stream);
  }
  template <class KeyT, class ValueT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t StableSortPairsDescending(
      void* d_temp_storage, std::size_t& temp_storage_bytes, DoubleBuffer<KeyT>& d_keys,
      DoubleBuffer<ValueT>& d_values, std::int64_t num_items, std::int64_t num_segments,
      BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
      cudaStream_t stream = 0) {
    return SortPairsDescending(d_temp_storage, temp_storage_bytes, d_keys, d_values, num_items,
                               num_segments, d_begin_offsets, d_end_offsets, stream);
  }

 private:
  static char* no_values() { return nullptr; }

  template <class KeyT, class ValueIn, class ValueOut, class BeginOffsetIteratorT,
            class EndOffsetIteratorT>
  static cudaError_t sort(void* d_temp_storage, std::size_t& temp_storage_bytes,
                          const KeyT* keys_in, KeyT* keys_out, ValueIn values_in,
                          ValueOut values_out, std::int64_t num_segments,
                          BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                          bool descending, const char* what) {
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes, what)) {
      return cudaSuccess;
    }
    constexpr int key_bits = static_cast<int>(sizeof(KeyT) * 8);
    for (std::int64_t s = 0; s < num_segments; ++s) {
      const auto begin = static_cast<std::int64_t>(d_begin_offsets[s]);
      const auto end = static_cast<std::int64_t>(d_end_offsets[s]);
      if (end <= begin) {
        continue;  // an empty segment: nothing written
      }
      memcarlo_detail::radix_sort(keys_in + begin, keys_out + begin,
                                  values_in != nullptr ? values_in + begin : values_in,
                                  values_out != nullptr ? values_out + begin : values_out,
                                  end - begin, 0, key_bits, descending);
    }
    return cudaSuccess;
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
