// cub::DeviceFor for memcarlo's host backend (see device/device_reduce.cuh): ForEach and ForEachN
// call op on each item in place (a reference to it), ForEachCopy and ForEachCopyN on a copy of
// it, Bulk calls op(i) for each i in [0, shape); each with or without CUB's temporary storage,
// computed on the CPU in index order, untraced (the accesses op makes are not traced either).
// CUB's ForEachInExtents (over a cuda::std::extents) is not provided.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <cstddef>
#include <iterator>
#include <type_traits>

#include "device_reduce.cuh"

namespace cub {

struct DeviceFor {
  template <class ShapeT, class OpT>
  static cudaError_t Bulk(void* d_temp_storage, std::size_t& temp_storage_bytes, ShapeT shape,
                          OpT op, cudaStream_t stream = {}) {
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes, "cub::DeviceFor::Bulk")) {
      return cudaSuccess;
    }
    return Bulk(shape, op, stream);
  }
  template <class RandomAccessIteratorT, class NumItemsT, class OpT>
  static cudaError_t ForEachN(void* d_temp_storage, std::size_t& temp_storage_bytes,
                              RandomAccessIteratorT first, NumItemsT num_items, OpT op,
                              cudaStream_t stream = {}) {
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceFor::ForEachN")) {
      return cudaSuccess;
    }
    return ForEachN(first, num_items, op, stream);
  }
  template <class RandomAccessIteratorT, class OpT>
  static cudaError_t ForEach(void* d_temp_storage, std::size_t& temp_storage_bytes,
                             RandomAccessIteratorT first, RandomAccessIteratorT last, OpT op,
                             cudaStream_t stream = {}) {
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceFor::ForEach")) {
      return cudaSuccess;
    }
    return ForEach(first, last, op, stream);
  }
  template <class RandomAccessIteratorT, class NumItemsT, class OpT>
  static cudaError_t ForEachCopyN(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                  RandomAccessIteratorT first, NumItemsT num_items, OpT op,
                                  cudaStream_t stream = {}) {
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceFor::ForEachCopyN")) {
      return cudaSuccess;
    }
    return ForEachCopyN(first, num_items, op, stream);
  }
  template <class RandomAccessIteratorT, class OpT>
  static cudaError_t ForEachCopy(void* d_temp_storage, std::size_t& temp_storage_bytes,
                                 RandomAccessIteratorT first, RandomAccessIteratorT last, OpT op,
                                 cudaStream_t stream = {}) {
    if (memcarlo_detail::size_query(d_temp_storage, temp_storage_bytes,
                                    "cub::DeviceFor::ForEachCopy")) {
      return cudaSuccess;
    }
    return ForEachCopy(first, last, op, stream);
  }

  template <class ShapeT, class OpT>
  static cudaError_t Bulk(ShapeT shape, OpT op, cudaStream_t stream = {}) {
    static_assert(std::is_integral_v<ShapeT>, "ShapeT must be an integral type");
    (void)stream;
    memcarlo_detail::note_untraced("cub::DeviceFor::Bulk");
    for (ShapeT i = 0; i < shape; ++i) {
      op(i);
    }
    return cudaSuccess;
  }
  template <class RandomAccessIteratorT, class NumItemsT, class OpT>
  static cudaError_t ForEachN(RandomAccessIteratorT first, NumItemsT num_items, OpT op,
                              cudaStream_t stream = {}) {
    (void)stream;
    memcarlo_detail::note_untraced("cub::DeviceFor::ForEachN");
    for (NumItemsT i = 0; i < num_items; ++i) {
      op(first[i]);
    }
    return cudaSuccess;
  }
  template <class RandomAccessIteratorT, class OpT>
  static cudaError_t ForEach(RandomAccessIteratorT first, RandomAccessIteratorT last, OpT op,
                             cudaStream_t stream = {}) {
    return ForEachN(first, std::distance(first, last), op, stream);
  }
  template <class RandomAccessIteratorT, class NumItemsT, class OpT>
  static cudaError_t ForEachCopyN(RandomAccessIteratorT first, NumItemsT num_items, OpT op,
                                  cudaStream_t stream = {}) {
    (void)stream;
    memcarlo_detail::note_untraced("cub::DeviceFor::ForEachCopyN");
    for (NumItemsT i = 0; i < num_items; ++i) {
      std::decay_t<decltype(first[i])> item = first[i];
      op(item);
    }
    return cudaSuccess;
  }
  template <class RandomAccessIteratorT, class OpT>
  static cudaError_t ForEachCopy(RandomAccessIteratorT first, RandomAccessIteratorT last, OpT op,
                                 cudaStream_t stream = {}) {
    return ForEachCopyN(first, std::distance(first, last), op, stream);
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
