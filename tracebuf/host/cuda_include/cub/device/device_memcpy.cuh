// cub::DeviceMemcpy for memcarlo's host backend (see device/device_reduce.cuh): Batched copies
// buffer_sizes[b] bytes from input_buffer_it[b] to output_buffer_it[b] for each of num_buffers
// buffers (pointers, as in CUB; DeviceCopy::Batched copies through other iterators); computed on
// the CPU, untraced.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "device_reduce.cuh"

namespace cub {

struct DeviceMemcpy {
  template <class InputBufferIt, class OutputBufferIt, class BufferSizeIteratorT>
  static cudaError_t Batched(void* d_temp_storage, std::size_t& temp_storage_bytes,
                             InputBufferIt input_buffer_it, OutputBufferIt output_buffer_it,
                             BufferSizeIteratorT buffer_sizes, std::int64_t num_buffers,
                             cudaStream_t stream = 0) {
    static_assert(std::is_pointer_v<std::decay_t<decltype(input_buffer_it[0])>> &&
                      std::is_pointer_v<std::decay_t<decltype(output_buffer_it[0])>>,
                  "DeviceMemcpy::Batched only supports copying of memory buffers. Please consider "
                  "using DeviceCopy::Batched instead.");
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceMemcpy::Batched")) {
      return cudaSuccess;
    }
    for (std::int64_t buffer = 0; buffer < num_buffers; ++buffer) {
      const auto bytes = static_cast<std::size_t>(buffer_sizes[buffer]);
      if (bytes > 0) {
        std::memcpy(static_cast<void*>(output_buffer_it[buffer]),
                    static_cast<const void*>(input_buffer_it[buffer]), bytes);
      }
    }
    return cudaSuccess;
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
