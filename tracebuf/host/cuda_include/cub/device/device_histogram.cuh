// cub::DeviceHistogram for memcarlo's host backend (see device/device_reduce.cuh): HistogramEven
// and HistogramRange of one channel, computed on the CPU, untraced. The histogram is overwritten
// (num_levels - 1 bins); samples outside [lower_level, upper_level) (outside the levels) are not
// counted. Even bins: bin = (sample - lower) * bins / (upper - lower), exactly for integer samples.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>

#include "device_reduce.cuh"

namespace cub {

struct DeviceHistogram {
  template <class SampleIteratorT, class CounterT, class LevelT, class OffsetT>
  static cudaError_t HistogramEven(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                   SampleIteratorT d_samples, CounterT* d_histogram, int num_levels,
                                   LevelT lower_level, LevelT upper_level, OffsetT num_samples,
                                   cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceHistogram::HistogramEven")) {
      return cudaSuccess;
    }
    const int bins = num_levels - 1;
    std::fill(d_histogram, d_histogram + (bins > 0 ? bins : 0), CounterT{});
    for (OffsetT i = 0; i < num_samples; ++i) {
      const auto sample = d_samples[i];
      if (bins <= 0 || sample < lower_level || !(sample < upper_level)) {
        continue;
      }
      long long bin = 0;
      if constexpr (std::is_integral_v<LevelT>) {
        bin = (static_cast<long long>(sample) - static_cast<long long>(lower_level)) * bins /
              (static_cast<long long>(upper_level) - static_cast<long long>(lower_level));
      } else {
        bin = static_cast<long long>((static_cast<double>(sample) - lower_level) * bins /
                                     (static_cast<double>(upper_level) - lower_level));
      }
      ++d_histogram[std::min<long long>(bin, bins - 1)];
    }
    return cudaSuccess;
  }
  template <class SampleIteratorT, class CounterT, class LevelT, class OffsetT>
  static cudaError_t HistogramRange(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                    SampleIteratorT d_samples, CounterT* d_histogram,
                                    int num_levels, const LevelT* d_levels, OffsetT num_samples,
                                    cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceHistogram::HistogramRange")) {
      return cudaSuccess;
    }
    const int bins = num_levels - 1;
    std::fill(d_histogram, d_histogram + (bins > 0 ? bins : 0), CounterT{});
    for (OffsetT i = 0; i < num_samples; ++i) {
      const auto sample = d_samples[i];
      const LevelT* above = std::upper_bound(d_levels, d_levels + num_levels, sample);
      const long long bin = (above - d_levels) - 1;
      if (bin >= 0 && bin < bins) {
        ++d_histogram[bin];
      }
    }
    return cudaSuccess;
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
