// cub::DeviceMerge for memcarlo's host backend (see device/device_reduce.cuh): MergeKeys and
// MergePairs of two sequences sorted by compare_op (cuda::std::less<> by default), computed on
// the CPU, untraced. Of two equal keys, the first sequence's comes first (CUB calls its merge
// unstable, so this is one of the orders it may give).
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "device_reduce.cuh"

namespace cub {
namespace memcarlo_detail {

/// cuda::std::less<>, CUB's default order.
struct Less {
  template <class Left, class Right>
  constexpr bool operator()(const Left& left, const Right& right) const {
    return left < right;
  }
};

}  // namespace memcarlo_detail

struct DeviceMerge {
  template <class KeyIteratorIn1, class KeyIteratorIn2, class KeyIteratorOut,
            class CompareOp = memcarlo_detail::Less>
  static cudaError_t MergeKeys(void* d_temp_storage, std::size_t& temp_storage_bytes,
                               KeyIteratorIn1 keys_in1, std::int64_t num_keys1,
                               KeyIteratorIn2 keys_in2, std::int64_t num_keys2,
                               KeyIteratorOut keys_out, CompareOp compare_op = {},
                               cudaStream_t stream = nullptr) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceMerge::MergeKeys")) {
      return cudaSuccess;
    }
    merge(keys_in1, nullptr, num_keys1, keys_in2, nullptr, num_keys2, keys_out, nullptr,
          compare_op);
    return cudaSuccess;
  }
  template <class KeyIteratorIn1, class ValueIteratorIn1, class KeyIteratorIn2,
            class ValueIteratorIn2, class KeyIteratorOut, class ValueIteratorOut,
            class CompareOp = memcarlo_detail::Less>
  static cudaError_t MergePairs(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                KeyIteratorIn1 keys_in1, ValueIteratorIn1 values_in1,
                                std::int64_t num_pairs1, KeyIteratorIn2 keys_in2,
                                ValueIteratorIn2 values_in2, std::int64_t num_pairs2,
                                KeyIteratorOut keys_out, ValueIteratorOut values_out,
                                CompareOp compare_op = {}, cudaStream_t stream = nullptr) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceMerge::MergePairs")) {
      return cudaSuccess;
    }
    merge(keys_in1, values_in1, num_pairs1, keys_in2, values_in2, num_pairs2, keys_out, values_out,
          compare_op);
    return cudaSuccess;
  }

 private:
  /// Writes the merge of the two sequences; a key of the second sequence goes first only when it
  /// compares before the first's. Keys-only merges pass no values (nullptr_t).
  template <class Keys1, class Values1, class Keys2, class Values2, class KeysOut, class ValuesOut,
            class CompareOp>
  static void merge(Keys1 keys1, Values1 values1, std::int64_t count1, Keys2 keys2, Values2 values2,
                    std::int64_t count2, KeysOut keys_out, ValuesOut values_out,
                    CompareOp& compare) {
    constexpr bool with_values = !std::is_null_pointer_v<ValuesOut>;
    std::int64_t first = 0;
    std::int64_t second = 0;
    for (std::int64_t out = 0; first < count1 || second < count2; ++out) {
      const bool take_second =
          first == count1 ||
          (second < count2 && static_cast<bool>(compare(keys2[second], keys1[first])));
      if (take_second) {
        keys_out[out] = keys2[second];
        if constexpr (with_values) {
          values_out[out] = values2[second];
        }
        ++second;
      } else {
        keys_out[out] = keys1[first];
        if constexpr (with_values) {
          values_out[out] = values1[first];
        }
        ++first;
      }
    }
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
