// cub::DevicePartition for memcarlo's host backend (see device/device_reduce.cuh): Flagged and If,
// computed on the CPU, untraced. As in CUB, the two-way forms compact the selected items at the
// front of d_out in their order and the others at its back in reverse order (d_out[num_items - 1]
// is the first rejected item); the three-way If compacts the items the first operator selects,
// those the second selects (of the rest) and the others, each in their order, into its three
// outputs (CUB's implementation and example; its text says the unselected come in reverse
// order), and writes the first two counts to d_num_selected_out[0] and [1].
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <cstddef>

#include "device_reduce.cuh"

namespace cub {

struct DevicePartition {
  template <class InputIteratorT, class FlagIterator, class OutputIteratorT,
            class NumSelectedIteratorT, class NumItemsT>
  static cudaError_t Flagged(void* d_temp_storage, std::size_t& temp_storage_bytes,
                             InputIteratorT d_in, FlagIterator d_flags, OutputIteratorT d_out,
                             NumSelectedIteratorT d_num_selected_out, NumItemsT num_items,
                             cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DevicePartition::Flagged")) {
      return cudaSuccess;
    }
    return two_way(d_in, d_out, d_num_selected_out, num_items,
                   [&](NumItemsT i) { return static_cast<bool>(d_flags[i]); });
  }
  template <class InputIteratorT, class OutputIteratorT, class NumSelectedIteratorT,
            class NumItemsT, class SelectOp>
  static cudaError_t If(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                        OutputIteratorT d_out, NumSelectedIteratorT d_num_selected_out,
                        NumItemsT num_items, SelectOp select_op, cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DevicePartition::If")) {
      return cudaSuccess;
    }
    return two_way(d_in, d_out, d_num_selected_out, num_items,
                   [&](NumItemsT i) { return static_cast<bool>(select_op(d_in[i])); });
  }
  template <class InputIteratorT, class FirstOutputIteratorT, class SecondOutputIteratorT,
            class UnselectedOutputIteratorT, class NumSelectedIteratorT, class NumItemsT,
            class SelectFirstPartOp, class SelectSecondPartOp>
  static cudaError_t If(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                        FirstOutputIteratorT d_first_part_out,
                        SecondOutputIteratorT d_second_part_out,
                        UnselectedOutputIteratorT d_unselected_out,
                        NumSelectedIteratorT d_num_selected_out, NumItemsT num_items,
                        SelectFirstPartOp select_first_part_op,
                        SelectSecondPartOp select_second_part_op, cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DevicePartition::If")) {
      return cudaSuccess;
    }
    NumItemsT first = 0;
    NumItemsT second = 0;
    NumItemsT rest = 0;
    for (NumItemsT i = 0; i < num_items; ++i) {
      if (select_first_part_op(d_in[i])) {
        d_first_part_out[first++] = d_in[i];
      } else if (select_second_part_op(d_in[i])) {
        d_second_part_out[second++] = d_in[i];
      } else {
        d_unselected_out[rest++] = d_in[i];
      }
    }
    d_num_selected_out[0] = first;
    d_num_selected_out[1] = second;
    return cudaSuccess;
  }

 private:
  template <class InputIteratorT, class OutputIteratorT, class NumSelectedIteratorT,
            class NumItemsT, class Selected>
  static cudaError_t two_way(InputIteratorT d_in, OutputIteratorT d_out,
                             NumSelectedIteratorT d_num_selected_out, NumItemsT num_items,
                             Selected selected) {
    NumItemsT front = 0;
    NumItemsT back = num_items;
    for (NumItemsT i = 0; i < num_items; ++i) {
      if (selected(i)) {
        d_out[front++] = d_in[i];
      } else {
        d_out[--back] = d_in[i];
      }
    }
    *d_num_selected_out = front;
    return cudaSuccess;
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
