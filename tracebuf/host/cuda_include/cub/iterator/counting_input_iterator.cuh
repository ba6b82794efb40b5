// cub::CountingInputIterator for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): item
// n is val + n. CUB 3 (CUDA 13) removed it for cuda::counting_iterator; programs written for
// older CUB use it, and here it stays.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_iterator.cuh"

namespace cub {

template <class ValueType, class OffsetT = std::ptrdiff_t>
class CountingInputIterator
    : public memcarlo_detail::RandomAccess<CountingInputIterator<ValueType, OffsetT>, OffsetT> {
 public:
  using self_type = CountingInputIterator;
  using value_type = ValueType;
  using pointer = ValueType*;
  using reference = ValueType;

  ValueType val;

  CountingInputIterator(const ValueType& start) : val(start) {}  // NOLINT: implicit, as in CUB

  ValueType memcarlo_at(OffsetT n) const { return static_cast<ValueType>(val + n); }
  void memcarlo_advance(OffsetT n) { val = static_cast<ValueType>(val + n); }
  ValueType memcarlo_position() const { return val; }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
