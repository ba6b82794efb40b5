// cub::DeviceAdjacentDifference for memcarlo's host backend (see device/device_reduce.cuh):
// SubtractLeft(Copy) writes difference_op(in[i], in[i - 1]) at i and SubtractRight(Copy)
// difference_op(in[i], in[i + 1]), the item without a neighbour (the first, the last) copied
// unchanged, with cuda::std::minus<> by default; computed on the CPU, untraced. Every difference
// is taken of the input as it was before the call, so the in-place forms give CUB's result.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "device_reduce.cuh"

namespace cub {
namespace memcarlo_detail {

/// cuda::std::minus<>, DeviceAdjacentDifference's default operator.
struct Minus {
  template <class Left, class Right>
  constexpr auto operator()(const Left& left, const Right& right) const {
    return left - right;
  }
};

}  // namespace memcarlo_detail

struct DeviceAdjacentDifference {
  template <class InputIteratorT, class OutputIteratorT,
            class DifferenceOpT = memcarlo_detail::Minus, class NumItemsT = std::uint32_t>
  static cudaError_t SubtractLeftCopy(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                      InputIteratorT d_input, OutputIteratorT d_output,
                                      NumItemsT num_items, DifferenceOpT difference_op = {},
                                      cudaStream_t stream = 0) {
    (void)stream;
    return subtract(d_temp_storage, temp_storage_bytes, d_input, d_output, num_items, difference_op,
                    -1, "cub::DeviceAdjacentDifference::SubtractLeftCopy");
  }
  template <class RandomAccessIteratorT, class DifferenceOpT = memcarlo_detail::Minus,
            class NumItemsT = std::uint32_t>
  static cudaError_t SubtractLeft(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                  RandomAccessIteratorT d_input, NumItemsT num_items,
                                  DifferenceOpT difference_op = {}, cudaStream_t stream = 0) {
    (void)stream;
    return subtract(d_temp_storage, temp_storage_bytes, d_input, d_input, num_items, difference_op,
                    -1, "cub::DeviceAdjacentDifference::SubtractLeft");
  }
  template <class InputIteratorT, class OutputIteratorT,
            class DifferenceOpT = memcarlo_detail::Minus, class NumItemsT = std::uint32_t>
  static cudaError_t SubtractRightCopy(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                       InputIteratorT d_input, OutputIteratorT d_output,
                                       NumItemsT num_items, DifferenceOpT difference_op = {},
                                       cudaStream_t stream = 0) {
    (void)stream;
    return subtract(d_temp_storage, temp_storage_bytes, d_input, d_output, num_items, difference_op,
                    1, "cub::DeviceAdjacentDifference::SubtractRightCopy");
  }
  template <class RandomAccessIteratorT, class DifferenceOpT = memcarlo_detail::Minus,
            class NumItemsT = std::uint32_t>
  static cudaError_t SubtractRight(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                   RandomAccessIteratorT d_input, NumItemsT num_items,
                                   DifferenceOpT difference_op = {}, cudaStream_t stream = 0) {
    (void)stream;
    return subtract(d_temp_storage, temp_storage_bytes, d_input, d_input, num_items, difference_op,
                    1, "cub::DeviceAdjacentDifference::SubtractRight");
  }

 private:
  /// out[i] = op(in[i], in[i + neighbour]) where that neighbour exists, in[i] where it does not.
  template <class InputIteratorT, class OutputIteratorT, class NumItemsT, class DifferenceOpT>
  static cudaError_t subtract(void* d_temp_storage, std::size_t& temp_storage_bytes,
                              InputIteratorT d_input, OutputIteratorT d_output, NumItemsT num_items,
                              DifferenceOpT& difference_op, int neighbour, const char* what) {
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes, what)) {
      return cudaSuccess;
    }
    using Value = std::decay_t<decltype(d_input[0])>;
    const auto count = static_cast<std::int64_t>(num_items);
    std::vector<Value> input;
    input.reserve(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i) {
      input.push_back(d_input[i]);
    }
    for (std::int64_t i = 0; i < count; ++i) {
      const std::int64_t other = i + neighbour;
      const auto at = static_cast<std::size_t>(i);
      if (other < 0 || other >= count) {
        d_output[i] = input[at];
      } else {
        d_output[i] = difference_op(input[at], input[static_cast<std::size_t>(other)]);
      }
    }
    return cudaSuccess;
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
