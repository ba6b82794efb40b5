// cub::DeviceSegmentedReduce for memcarlo's host backend (see device/device_reduce.cuh): Reduce,
// Sum, Min and Max of each segment [d_begin_offsets[s], d_end_offsets[s]), computed on the CPU,
// untraced. An empty segment gets the initial value (Sum: a value-initialized one; Min: the
// type's largest value; Max: its lowest), as in CUB.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <cstddef>
#include <iterator>
#include <limits>
#include <type_traits>

#include "device_reduce.cuh"

namespace cub {

struct DeviceSegmentedReduce {
  template <class InputIteratorT, class OutputIteratorT, class BeginOffsetIteratorT,
            class EndOffsetIteratorT, class ReductionOpT, class T>
  static cudaError_t Reduce(void* d_temp_storage, std::size_t& temp_storage_bytes,
                            InputIteratorT d_in, OutputIteratorT d_out, long long num_segments,
                            BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                            ReductionOpT reduction_op, T initial_value, cudaStream_t stream = 0) {
    (void)stream;
    return reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets,
                  d_end_offsets, reduction_op, initial_value, "cub::DeviceSegmentedReduce::Reduce");
  }
  template <class InputIteratorT, class OutputIteratorT, class BeginOffsetIteratorT,
            class EndOffsetIteratorT>
  static cudaError_t Sum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                         OutputIteratorT d_out, long long num_segments,
                         BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                         cudaStream_t stream = 0) {
    (void)stream;
    using Value = typename std::iterator_traits<InputIteratorT>::value_type;
    return reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets,
                  d_end_offsets, cub::Sum{}, Value{}, "cub::DeviceSegmentedReduce::Sum");
  }
  template <class InputIteratorT, class OutputIteratorT, class BeginOffsetIteratorT,
            class EndOffsetIteratorT>
  static cudaError_t Min(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                         OutputIteratorT d_out, long long num_segments,
                         BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                         cudaStream_t stream = 0) {
    (void)stream;
    using Value = typename std::iterator_traits<InputIteratorT>::value_type;
    return reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets,
                  d_end_offsets, cub::Min{}, std::numeric_limits<Value>::max(),
                  "cub::DeviceSegmentedReduce::Min");
  }
  template <class InputIteratorT, class OutputIteratorT, class BeginOffsetIteratorT,
            class EndOffsetIteratorT>
  static cudaError_t Max(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIteratorT d_in,
                         OutputIteratorT d_out, long long num_segments,
                         BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                         cudaStream_t stream = 0) {
    (void)stream;
    using Value = typename std::iterator_traits<InputIteratorT>::value_type;
    return reduce(d_temp_storage, temp_storage_bytes, d_in, d_out, num_segments, d_begin_offsets,
                  d_end_offsets, cub::Max{}, std::numeric_limits<Value>::lowest(),
                  "cub::DeviceSegmentedReduce::Max");
  }

 private:
  template <class InputIteratorT, class OutputIteratorT, class BeginOffsetIteratorT,
            class EndOffsetIteratorT, class ReductionOpT, class T>
  static cudaError_t reduce(void* d_temp_storage, std::size_t& temp_storage_bytes,
                            InputIteratorT d_in, OutputIteratorT d_out, long long num_segments,
                            BeginOffsetIteratorT d_begin_offsets, EndOffsetIteratorT d_end_offsets,
                            ReductionOpT reduction_op, T initial_value, const char* what) {
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes, what)) {
      return cudaSuccess;
    }
    for (long long segment = 0; segment < num_segments; ++segment) {
      T result = initial_value;
      for (auto i = d_begin_offsets[segment]; i < d_end_offsets[segment]; ++i) {
        result = static_cast<T>(reduction_op(result, d_in[i]));
      }
      d_out[segment] = result;
    }
    return cudaSuccess;
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
