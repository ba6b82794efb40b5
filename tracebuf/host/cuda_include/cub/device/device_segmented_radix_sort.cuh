// cub::DeviceSegmentedRadixSort for memcarlo's host backend (see device/device_reduce.cuh):
// SortPairs, SortKeys and their Descending forms, with separate buffers or DoubleBuffers, each
// segment [d_begin_offsets[s], d_end_offsets[s]) sorted stably in CUB's radix order on bits
// [begin_bit, end_bit) (memcarlo_radix.cuh, as DeviceRadixSort), computed on the CPU, untraced.
// As in CUB, the items outside every segment are not written (keys_out keeps what it held).
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <cstddef>

#include "../detail/memcarlo_radix.cuh"
#include "device_reduce.cuh"

namespace cub {

struct DeviceSegmentedRadixSort {
  template <class KeyT, class ValueT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                               const KeyT* d_keys_in, KeyT* d_keys_out, const ValueT* d_values_in,
                               ValueT* d_values_out, long long num_items, long long num_segments,
                               BeginOffsetIteratorT d_begin_offsets,
                               EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
                               int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                d_values_out, num_items, num_segments, d_begin_offsets, d_end_offsets, begin_bit,
                end_bit, false, stream);
  }
  template <class KeyT, class ValueT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         const KeyT* d_keys_in, KeyT* d_keys_out,
                                         const ValueT* d_values_in, ValueT* d_values_out,
                                         long long num_items, long long num_segments,
                                         BeginOffsetIteratorT d_begin_offsets,
                                         EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
                                         int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out, d_values_in,
                d_values_out, num_items, num_segments, d_begin_offsets, d_end_offsets, begin_bit,
                end_bit, true, stream);
  }
  template <class KeyT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                              const KeyT* d_keys_in, KeyT* d_keys_out, long long num_items,
                              long long num_segments, BeginOffsetIteratorT d_begin_offsets,
                              EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
                              int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                static_cast<const char*>(nullptr), static_cast<char*>(nullptr), num_items,
                num_segments, d_begin_offsets, d_end_offsets, begin_bit, end_bit, false, stream);
  }
  template <class KeyT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                        const KeyT* d_keys_in, KeyT* d_keys_out,
                                        long long num_items, long long num_segments,
                                        BeginOffsetIteratorT d_begin_offsets,
                                        EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
                                        int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return sort(d_temp_storage, temp_storage_bytes, d_keys_in, d_keys_out,
                static_cast<const char*>(nullptr), static_cast<char*>(nullptr), num_items,
                num_segments, d_begin_offsets, d_end_offsets, begin_bit, end_bit, true, stream);
  }
  // The DoubleBuffer forms sort within the current buffers, as DeviceRadixSort's do.
  template <class KeyT, class ValueT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t SortPairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                               DoubleBuffer<KeyT>& d_keys, DoubleBuffer<ValueT>& d_values,
                               long long num_items, long long num_segments,
                               BeginOffsetIteratorT d_begin_offsets,
                               EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
                               int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return sort(d_temp_storage, temp_storage_bytes, d_keys.Current(), d_keys.Current(),
                d_values.Current(), d_values.Current(), num_items, num_segments, d_begin_offsets,
                d_end_offsets, begin_bit, end_bit, false, stream);
  }
  template <class KeyT, class ValueT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t SortPairsDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         DoubleBuffer<KeyT>& d_keys,
                                         DoubleBuffer<ValueT>& d_values, long long num_items,
                                         long long num_segments,
                                         BeginOffsetIteratorT d_begin_offsets,
                                         EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
                                         int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return sort(d_temp_storage, temp_storage_bytes, d_keys.Current(), d_keys.Current(),
                d_values.Current(), d_values.Current(), num_items, num_segments, d_begin_offsets,
                d_end_offsets, begin_bit, end_bit, true, stream);
  }
  template <class KeyT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t SortKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                              DoubleBuffer<KeyT>& d_keys, long long num_items,
                              long long num_segments, BeginOffsetIteratorT d_begin_offsets,
                              EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
                              int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return sort(d_temp_storage, temp_storage_bytes, d_keys.Current(), d_keys.Current(),
                static_cast<const char*>(nullptr), static_cast<char*>(nullptr), num_items,
                num_segments, d_begin_offsets, d_end_offsets, begin_bit, end_bit, false, stream);
  }
  template <class KeyT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t SortKeysDescending(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                        DoubleBuffer<KeyT>& d_keys, long long num_items,
                                        long long num_segments,
                                        BeginOffsetIteratorT d_begin_offsets,
                                        EndOffsetIteratorT d_end_offsets, int begin_bit = 0,
                                        int end_bit = sizeof(KeyT) * 8, cudaStream_t stream = 0) {
    return sort(d_temp_storage, temp_storage_bytes, d_keys.Current(), d_keys.Current(),
                static_cast<const char*>(nullptr), static_cast<char*>(nullptr), num_items,
                num_segments, d_begin_offsets, d_end_offsets, begin_bit, end_bit, true, stream);
  }

 private:
  template <class KeyT, class ValueT, class BeginOffsetIteratorT, class EndOffsetIteratorT>
  static cudaError_t sort(void* d_temp_storage, std::size_t& temp_storage_bytes,
                          const KeyT* keys_in, KeyT* keys_out, const ValueT* values_in,
                          ValueT* values_out, long long num_items, long long num_segments,
                          BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                          int begin_bit, int end_bit, bool descending, cudaStream_t) {
    (void)num_items;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceSegmentedRadixSort")) {
      return cudaSuccess;
    }
    for (long long s = 0; s < num_segments; ++s) {
      const long long begin = d_begin_offsets[s];
      const long long end = d_end_offsets[s];
      if (end <= begin) {
        continue;  // an empty segment, as CUB: nothing written
      }
      memcarlo_detail::radix_sort(keys_in + begin, keys_out + begin,
                                  values_in != nullptr ? values_in + begin : values_in,
                                  values_out != nullptr ? values_out + begin : values_out,
                                  end - begin, begin_bit, end_bit, descending);
    }
    return cudaSuccess;
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
