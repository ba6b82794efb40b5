// cub::DeviceHistogram for memcarlo's host backend (see device/device_reduce.cuh): HistogramEven
// and HistogramRange of one channel, MultiHistogramEven and MultiHistogramRange of the first
// NUM_ACTIVE_CHANNELS of NUM_CHANNELS interleaved channels (pixel p's channel c at
// p * NUM_CHANNELS + c), each over a sequence or over num_rows rows row_stride_bytes apart,
// computed on the CPU, untraced. A channel's histogram is overwritten (num_levels - 1 bins);
// samples outside [lower_level, upper_level) (outside the levels) are not counted. Even bins:
// bin = (sample - lower) * bins / (upper - lower), exactly for integer samples.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>

#include "device_reduce.cuh"

#if __has_include(<cuda/std/array>)
#include <cuda/std/array>
#define MEMCARLO_CUB_HAS_CUDA_STD_ARRAY 1
#endif

namespace cub {

struct DeviceHistogram {
  template <class SampleIteratorT, class CounterT, class LevelT, class OffsetT>
  static cudaError_t HistogramEven(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                   SampleIteratorT d_samples, CounterT* d_histogram, int num_levels,
                                   LevelT lower_level, LevelT upper_level, OffsetT num_samples,
                                   cudaStream_t stream = 0) {
    return HistogramEven(d_temp_storage, temp_storage_bytes, d_samples, d_histogram, num_levels,
                         lower_level, upper_level, num_samples, OffsetT{1}, std::size_t{0}, stream);
  }
  template <class SampleIteratorT, class CounterT, class LevelT, class OffsetT>
  static cudaError_t HistogramEven(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                   SampleIteratorT d_samples, CounterT* d_histogram, int num_levels,
                                   LevelT lower_level, LevelT upper_level, OffsetT num_row_samples,
                                   OffsetT num_rows, std::size_t row_stride_bytes,
                                   cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceHistogram::HistogramEven")) {
      return cudaSuccess;
    }
    count<1, 1>(d_samples, &d_histogram, &num_levels, num_row_samples, num_rows, row_stride_bytes,
                [&](int, const auto& sample) {
                  return even_bin(sample, num_levels, lower_level, upper_level);
                });
    return cudaSuccess;
  }
  template <class SampleIteratorT, class CounterT, class LevelT, class OffsetT>
  static cudaError_t HistogramRange(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                    SampleIteratorT d_samples, CounterT* d_histogram,
                                    int num_levels, const LevelT* d_levels, OffsetT num_samples,
                                    cudaStream_t stream = 0) {
    return HistogramRange(d_temp_storage, temp_storage_bytes, d_samples, d_histogram, num_levels,
                          d_levels, num_samples, OffsetT{1}, std::size_t{0}, stream);
  }
  template <class SampleIteratorT, class CounterT, class LevelT, class OffsetT>
  static cudaError_t HistogramRange(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                    SampleIteratorT d_samples, CounterT* d_histogram,
                                    int num_levels, const LevelT* d_levels, OffsetT num_row_samples,
                                    OffsetT num_rows, std::size_t row_stride_bytes,
                                    cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceHistogram::HistogramRange")) {
      return cudaSuccess;
    }
    count<1, 1>(d_samples, &d_histogram, &num_levels, num_row_samples, num_rows, row_stride_bytes,
                [&](int, const auto& sample) { return range_bin(sample, num_levels, d_levels); });
    return cudaSuccess;
  }

  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, class SampleIteratorT, class CounterT,
            class LevelT, class OffsetT>
  static cudaError_t MultiHistogramEven(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                        SampleIteratorT d_samples,
                                        CounterT* d_histogram[NUM_ACTIVE_CHANNELS],
                                        const int num_levels[NUM_ACTIVE_CHANNELS],
                                        const LevelT lower_level[NUM_ACTIVE_CHANNELS],
                                        const LevelT upper_level[NUM_ACTIVE_CHANNELS],
                                        OffsetT num_pixels, cudaStream_t stream = 0) {
    return MultiHistogramEven<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        d_temp_storage, temp_storage_bytes, d_samples, d_histogram, num_levels, lower_level,
        upper_level, num_pixels, OffsetT{1}, std::size_t{0}, stream);
  }
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, class SampleIteratorT, class CounterT,
            class LevelT, class OffsetT>
  static cudaError_t MultiHistogramEven(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                        SampleIteratorT d_samples,
                                        CounterT* d_histogram[NUM_ACTIVE_CHANNELS],
                                        const int num_levels[NUM_ACTIVE_CHANNELS],
                                        const LevelT lower_level[NUM_ACTIVE_CHANNELS],
                                        const LevelT upper_level[NUM_ACTIVE_CHANNELS],
                                        OffsetT num_row_pixels, OffsetT num_rows,
                                        std::size_t row_stride_bytes, cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceHistogram::MultiHistogramEven")) {
      return cudaSuccess;
    }
    count<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        d_samples, d_histogram, num_levels, num_row_pixels, num_rows, row_stride_bytes,
        [&](int channel, const auto& sample) {
          return even_bin(sample, num_levels[channel], lower_level[channel], upper_level[channel]);
        });
    return cudaSuccess;
  }
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, class SampleIteratorT, class CounterT,
            class LevelT, class OffsetT>
  static cudaError_t MultiHistogramRange(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         SampleIteratorT d_samples,
                                         CounterT* d_histogram[NUM_ACTIVE_CHANNELS],
                                         const int num_levels[NUM_ACTIVE_CHANNELS],
                                         const LevelT* const d_levels[NUM_ACTIVE_CHANNELS],
                                         OffsetT num_pixels, cudaStream_t stream = 0) {
    return MultiHistogramRange<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        d_temp_storage, temp_storage_bytes, d_samples, d_histogram, num_levels, d_levels,
        num_pixels, OffsetT{1}, std::size_t{0}, stream);
  }
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, class SampleIteratorT, class CounterT,
            class LevelT, class OffsetT>
  static cudaError_t MultiHistogramRange(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                         SampleIteratorT d_samples,
                                         CounterT* d_histogram[NUM_ACTIVE_CHANNELS],
                                         const int num_levels[NUM_ACTIVE_CHANNELS],
                                         const LevelT* const d_levels[NUM_ACTIVE_CHANNELS],
                                         OffsetT num_row_pixels, OffsetT num_rows,
                                         std::size_t row_stride_bytes, cudaStream_t stream = 0) {
    (void)stream;
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceHistogram::MultiHistogramRange")) {
      return cudaSuccess;
    }
    count<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        d_samples, d_histogram, num_levels, num_row_pixels, num_rows, row_stride_bytes,
        [&](int channel, const auto& sample) {
          return range_bin(sample, num_levels[channel], d_levels[channel]);
        });
    return cudaSuccess;
  }

#ifdef MEMCARLO_CUB_HAS_CUDA_STD_ARRAY
  // CUDA 13's forms with cuda::std::array arguments: the same, on the arrays' data.
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, class SampleIteratorT, class CounterT,
            class LevelT, class OffsetT>
  static cudaError_t MultiHistogramEven(
      void* d_temp_storage, std::size_t& temp_storage_bytes, SampleIteratorT d_samples,
      ::cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histogram,
      ::cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
      ::cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> lower_level,
      ::cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> upper_level, OffsetT num_pixels,
      cudaStream_t stream = 0) {
    return MultiHistogramEven<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        d_temp_storage, temp_storage_bytes, d_samples, d_histogram.data(), num_levels.data(),
        lower_level.data(), upper_level.data(), num_pixels, OffsetT{1}, std::size_t{0}, stream);
  }
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, class SampleIteratorT, class CounterT,
            class LevelT, class OffsetT>
  static cudaError_t MultiHistogramEven(
      void* d_temp_storage, std::size_t& temp_storage_bytes, SampleIteratorT d_samples,
      ::cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histogram,
      ::cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
      ::cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> lower_level,
      ::cuda::std::array<LevelT, NUM_ACTIVE_CHANNELS> upper_level, OffsetT num_row_pixels,
      OffsetT num_rows, std::size_t row_stride_bytes, cudaStream_t stream = 0) {
    return MultiHistogramEven<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        d_temp_storage, temp_storage_bytes, d_samples, d_histogram.data(), num_levels.data(),
        lower_level.data(), upper_level.data(), num_row_pixels, num_rows, row_stride_bytes, stream);
  }
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, class SampleIteratorT, class CounterT,
            class LevelT, class OffsetT>
  static cudaError_t MultiHistogramRange(
      void* d_temp_storage, std::size_t& temp_storage_bytes, SampleIteratorT d_samples,
      ::cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histogram,
      ::cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
      ::cuda::std::array<const LevelT*, NUM_ACTIVE_CHANNELS> d_levels, OffsetT num_pixels,
      cudaStream_t stream = 0) {
    return MultiHistogramRange<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        d_temp_storage, temp_storage_bytes, d_samples, d_histogram.data(), num_levels.data(),
        d_levels.data(), num_pixels, OffsetT{1}, std::size_t{0}, stream);
  }
  template <int NUM_CHANNELS, int NUM_ACTIVE_CHANNELS, class SampleIteratorT, class CounterT,
            class LevelT, class OffsetT>
  static cudaError_t MultiHistogramRange(
      void* d_temp_storage, std::size_t& temp_storage_bytes, SampleIteratorT d_samples,
      ::cuda::std::array<CounterT*, NUM_ACTIVE_CHANNELS> d_histogram,
      ::cuda::std::array<int, NUM_ACTIVE_CHANNELS> num_levels,
      ::cuda::std::array<const LevelT*, NUM_ACTIVE_CHANNELS> d_levels, OffsetT num_row_pixels,
      OffsetT num_rows, std::size_t row_stride_bytes, cudaStream_t stream = 0) {
    return MultiHistogramRange<NUM_CHANNELS, NUM_ACTIVE_CHANNELS>(
        d_temp_storage, temp_storage_bytes, d_samples, d_histogram.data(), num_levels.data(),
        d_levels.data(), num_row_pixels, num_rows, row_stride_bytes, stream);
  }
#endif

 private:
  /// The even bin of a sample among num_levels - 1, or -1 outside [lower_level, upper_level).
  template <class SampleT, class LevelT>
  static long long even_bin(const SampleT& sample, int num_levels, LevelT lower_level,
                            LevelT upper_level) {
    const int bins = num_levels - 1;
    if (bins <= 0 || sample < lower_level || !(sample < upper_level)) {
      return -1;
    }
    long long bin = 0;
    if constexpr (std::is_integral_v<LevelT>) {
      bin = (static_cast<long long>(sample) - static_cast<long long>(lower_level)) * bins /
            (static_cast<long long>(upper_level) - static_cast<long long>(lower_level));
    } else {
      bin = static_cast<long long>((static_cast<double>(sample) - lower_level) * bins /
                                   (static_cast<double>(upper_level) - lower_level));
    }
    return std::min<long long>(bin, bins - 1);
  }
  /// The bin [d_levels[b], d_levels[b + 1]) holding a sample, or -1 outside the levels.
  template <class SampleT, class LevelT>
  static long long range_bin(const SampleT& sample, int num_levels, const LevelT* d_levels) {
    const LevelT* above = std::upper_bound(d_levels, d_levels + num_levels, sample);
    const long long bin = (above - d_levels) - 1;
    return bin < num_levels - 1 ? bin : -1;
  }
  /// Zeroes each active channel's histogram and counts its samples, bin_of(channel, sample)
  /// naming the bin (-1: none). Row r starts row_stride_bytes * r bytes into the samples.
  template <int channels, int active_channels, class SampleIteratorT, class CounterT, class OffsetT,
            class BinOf>
  static void count(SampleIteratorT d_samples, CounterT* const* d_histogram, const int* num_levels,
                    OffsetT num_row_pixels, OffsetT num_rows, std::size_t row_stride_bytes,
                    BinOf bin_of) {
    static_assert(active_channels >= 1 && active_channels <= channels,
                  "NUM_ACTIVE_CHANNELS must be 1 to NUM_CHANNELS");
    using SampleT = std::decay_t<decltype(d_samples[0])>;
    for (int channel = 0; channel < active_channels; ++channel) {
      const int bins = num_levels[channel] - 1;
      std::fill(d_histogram[channel], d_histogram[channel] + (bins > 0 ? bins : 0), CounterT{});
    }
    const auto row_stride = static_cast<long long>(row_stride_bytes / sizeof(SampleT));
    for (long long row = 0; row < static_cast<long long>(num_rows); ++row) {
      for (long long pixel = 0; pixel < static_cast<long long>(num_row_pixels); ++pixel) {
        for (int channel = 0; channel < active_channels; ++channel) {
          const long long bin =
              bin_of(channel, d_samples[row * row_stride + pixel * channels + channel]);
          if (bin >= 0) {
            ++d_histogram[channel][bin];
          }
        }
      }
    }
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
