// cub::DeviceCopy for memcarlo's host backend (see device/device_reduce.cuh): Batched copies
// sizes[r] items of range r, input_it[r][k] to output_it[r][k], for each of num_ranges ranges
// (the ranges' iterators may be any, CUB's example decodes runs from constant iterators);
// computed on the CPU, untraced.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <cstddef>
#include <cstdint>

#include "device_reduce.cuh"

namespace cub {

struct DeviceCopy {
  template <class InputIt, class OutputIt, class SizeIteratorT>
  static cudaError_t Batched(void* d_temp_storage, std::size_t& temp_storage_bytes,
                             InputIt input_it, OutputIt output_it, SizeIteratorT sizes,
                             std::int64_t num_ranges, cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceCopy::Batched")) {
      return cudaSuccess;
    }
    for (std::int64_t range = 0; range < num_ranges; ++range) {
      auto in = input_it[range];
      auto out = output_it[range];
      const auto size = static_cast<std::int64_t>(sizes[range]);
      for (std::int64_t k = 0; k < size; ++k) {
        out[k] = in[k];
      }
    }
    return cudaSuccess;
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
