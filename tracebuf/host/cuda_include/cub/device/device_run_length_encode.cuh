// cub::DeviceRunLengthEncode for memcarlo's host backend (see device/device_reduce.cuh): Encode
// (each run of equal consecutive items: its item and its length) and NonTrivialRuns (each run
// longer than one item: its offset and its length), computed on the CPU, untraced. Items are
// compared with ==, as CUB's default equality does.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <cstddef>

#include "device_reduce.cuh"

namespace cub {

struct DeviceRunLengthEncode {
  template <class InputIteratorT, class UniqueOutputIteratorT, class LengthsOutputIteratorT,
            class NumRunsOutputIteratorT>
  static cudaError_t Encode(void* d_temp_storage, std::size_t& temp_storage_bytes,
                            InputIteratorT d_in, UniqueOutputIteratorT d_unique_out,
                            LengthsOutputIteratorT d_counts_out,
                            NumRunsOutputIteratorT d_num_runs_out, long long num_items,
                            cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceRunLengthEncode::Encode")) {
      return cudaSuccess;
    }
    long long runs = 0;
    for_each_run(d_in, num_items, [&](long long begin, long long length) {
      d_unique_out[runs] = d_in[begin];
      d_counts_out[runs] = length;
      ++runs;
    });
    *d_num_runs_out = runs;
    return cudaSuccess;
  }
  template <class InputIteratorT, class OffsetsOutputIteratorT, class LengthsOutputIteratorT,
            class NumRunsOutputIteratorT>
  static cudaError_t NonTrivialRuns(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                    InputIteratorT d_in, OffsetsOutputIteratorT d_offsets_out,
                                    LengthsOutputIteratorT d_lengths_out,
                                    NumRunsOutputIteratorT d_num_runs_out, long long num_items,
                                    cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceRunLengthEncode::NonTrivialRuns")) {
      return cudaSuccess;
    }
    long long runs = 0;
    for_each_run(d_in, num_items, [&](long long begin, long long length) {
      if (length > 1) {
        d_offsets_out[runs] = begin;
        d_lengths_out[runs] = length;
        ++runs;
      }
    });
    *d_num_runs_out = runs;
    return cudaSuccess;
  }

 private:
  /// Calls f(offset, length) for each run of equal consecutive items of d_in[0, num_items).
  template <class InputIteratorT, class F>
  static void for_each_run(InputIteratorT d_in, long long num_items, F f) {
    for (long long begin = 0; begin < num_items;) {
      long long end = begin + 1;
      while (end < num_items && d_in[end] == d_in[begin]) {
        ++end;
      }
      f(begin, end - begin);
      begin = end;
    }
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
