// cub::DeviceTransform for memcarlo's host backend (see device/device_reduce.cuh): Transform and
// TransformStableArgumentAddresses write transform_op(in_0[i], ..., in_k[i]) to output[i] for
// each i, from one input or a cuda::std::tuple of them (when the toolkit's libcu++ is on the
// include path, as memcarlo-cc puts it), with or without CUB's temporary storage; computed on the
// CPU, untraced. The operator is given the inputs' items where they are (references through the
// iterators), so the addresses it sees are stable, as TransformStableArgumentAddresses promises.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "device_reduce.cuh"

#if __has_include(<cuda/std/tuple>)
#include <cuda/std/tuple>
#define MEMCARLO_CUB_HAS_CUDA_STD_TUPLE 1
#endif

namespace cub {

struct DeviceTransform {
  template <class RandomAccessIteratorIn, class RandomAccessIteratorOut, class NumItemsT,
            class TransformOp>
  static cudaError_t Transform(RandomAccessIteratorIn input, RandomAccessIteratorOut output,
                               NumItemsT num_items, TransformOp transform_op,
                               cudaStream_t stream = nullptr) {
    (void)stream;
    memcarlo_detail::note_untraced("cub::DeviceTransform::Transform");
    for (NumItemsT i = 0; i < num_items; ++i) {
      output[i] = transform_op(input[i]);
    }
    return cudaSuccess;
  }
  template <class RandomAccessIteratorIn, class RandomAccessIteratorOut, class NumItemsT,
            class TransformOp>
  static cudaError_t Transform(void* d_temp_storage, std::size_t& temp_storage_bytes,
                               RandomAccessIteratorIn input, RandomAccessIteratorOut output,
                               NumItemsT num_items, TransformOp transform_op,
                               cudaStream_t stream = nullptr) {
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceTransform::Transform")) {
      return cudaSuccess;
    }
    return Transform(input, output, num_items, transform_op, stream);
  }
  template <class RandomAccessIteratorIn, class RandomAccessIteratorOut, class NumItemsT,
            class TransformOp>
  static cudaError_t TransformStableArgumentAddresses(RandomAccessIteratorIn input,
                                                      RandomAccessIteratorOut output,
                                                      NumItemsT num_items, TransformOp transform_op,
                                                      cudaStream_t stream = nullptr) {
    return Transform(input, output, num_items, transform_op, stream);
  }
  template <class RandomAccessIteratorIn, class RandomAccessIteratorOut, class NumItemsT,
            class TransformOp>
  static cudaError_t TransformStableArgumentAddresses(void* d_temp_storage,
                                                      std::size_t& temp_storage_bytes,
                                                      RandomAccessIteratorIn input,
                                                      RandomAccessIteratorOut output,
                                                      NumItemsT num_items, TransformOp transform_op,
                                                      cudaStream_t stream = nullptr) {
    return Transform(d_temp_storage, temp_storage_bytes, input, output, num_items, transform_op,
                     stream);
  }

#ifdef MEMCARLO_CUB_HAS_CUDA_STD_TUPLE
  template <class... RandomAccessIteratorsIn, class RandomAccessIteratorOut, class NumItemsT,
            class TransformOp>
  static cudaError_t Transform(::cuda::std::tuple<RandomAccessIteratorsIn...> inputs,
                               RandomAccessIteratorOut output, NumItemsT num_items,
                               TransformOp transform_op, cudaStream_t stream = nullptr) {
    (void)stream;
    memcarlo_detail::note_untraced("cub::DeviceTransform::Transform");
    for (NumItemsT i = 0; i < num_items; ++i) {
      output[i] =
          apply_at(inputs, i, transform_op, std::index_sequence_for<RandomAccessIteratorsIn...>{});
    }
    return cudaSuccess;
  }
  template <class... RandomAccessIteratorsIn, class RandomAccessIteratorOut, class NumItemsT,
            class TransformOp>
  static cudaError_t Transform(void* d_temp_storage, std::size_t& temp_storage_bytes,
                               ::cuda::std::tuple<RandomAccessIteratorsIn...> inputs,
                               RandomAccessIteratorOut output, NumItemsT num_items,
                               TransformOp transform_op, cudaStream_t stream = nullptr) {
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceTransform::Transform")) {
      return cudaSuccess;
    }
    return Transform(inputs, output, num_items, transform_op, stream);
  }
  template <class... RandomAccessIteratorsIn, class RandomAccessIteratorOut, class NumItemsT,
            class TransformOp>
  static cudaError_t TransformStableArgumentAddresses(
      ::cuda::std::tuple<RandomAccessIteratorsIn...> inputs, RandomAccessIteratorOut output,
      NumItemsT num_items, TransformOp transform_op, cudaStream_t stream = nullptr) {
    return Transform(inputs, output, num_items, transform_op, stream);
  }
  template <class... RandomAccessIteratorsIn, class RandomAccessIteratorOut, class NumItemsT,
            class TransformOp>
  static cudaError_t TransformStableArgumentAddresses(
      void* d_temp_storage, std::size_t& temp_storage_bytes,
      ::cuda::std::tuple<RandomAccessIteratorsIn...> inputs, RandomAccessIteratorOut output,
      NumItemsT num_items, TransformOp transform_op, cudaStream_t stream = nullptr) {
    return Transform(d_temp_storage, temp_storage_bytes, inputs, output, num_items, transform_op,
                     stream);
  }

 private:
  /// transform_op(std::get<0>(inputs)[i], std::get<1>(inputs)[i], ...).
  template <class Inputs, class NumItemsT, class TransformOp, std::size_t... input>
  static decltype(auto) apply_at(Inputs& inputs, NumItemsT i, TransformOp& transform_op,
                                 std::index_sequence<input...>) {
    return transform_op(::cuda::std::get<input>(inputs)[i]...);
  }
#endif
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
