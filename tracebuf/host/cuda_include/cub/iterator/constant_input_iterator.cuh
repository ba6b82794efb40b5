// cub::ConstantInputIterator for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): every
// item is val. CUB 3 (CUDA 13) removed it for cuda::constant_iterator; here it stays.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_iterator.cuh"

namespace cub {

template <class ValueType, class OffsetT = std::ptrdiff_t>
class ConstantInputIterator
    : public memcarlo_detail::RandomAccess<ConstantInputIterator<ValueType, OffsetT>, OffsetT> {
 public:
  using self_type = ConstantInputIterator;
  using value_type = ValueType;
  using pointer = ValueType*;
  using reference = ValueType;

  ValueType val;
  OffsetT offset;

  ConstantInputIterator(ValueType value, OffsetT offset_in = 0)  // NOLINT: implicit, as in CUB
      : val(value), offset(offset_in) {}

  ValueType memcarlo_at(OffsetT) const { return val; }
  void memcarlo_advance(OffsetT n) { offset += n; }
  OffsetT memcarlo_position() const { return offset; }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
