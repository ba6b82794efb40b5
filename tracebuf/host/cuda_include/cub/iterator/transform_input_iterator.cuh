// cub::TransformInputIterator for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): item
// n is conversion_op(input_itr[n]); the read of input_itr[n] is recorded as `itr[i] (a CUB
// iterator reading ptr)` when it goes through memory. CUB 3 (CUDA 13) removed it for
// cuda::transform_iterator; here it stays.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_iterator.cuh"

namespace cub {

template <class ValueType, class ConversionOp, class InputIteratorT, class OffsetT = std::ptrdiff_t>
class TransformInputIterator
    : public memcarlo_detail::RandomAccess<
          TransformInputIterator<ValueType, ConversionOp, InputIteratorT, OffsetT>, OffsetT> {
 public:
  using self_type = TransformInputIterator;
  using value_type = ValueType;
  using pointer = ValueType*;
  using reference = ValueType;

  TransformInputIterator(InputIteratorT input, ConversionOp op)
      : input_itr(input), conversion_op(op) {}

  ValueType memcarlo_at(OffsetT n) const {
    return conversion_op(memcarlo_detail::access(input_itr, n, memcarlo_detail::iterator_read));
  }
  void memcarlo_advance(OffsetT n) { input_itr += n; }
  InputIteratorT memcarlo_position() const { return input_itr; }

 private:
  InputIteratorT input_itr;
  ConversionOp conversion_op;
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
