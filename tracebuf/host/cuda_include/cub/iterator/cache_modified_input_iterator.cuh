// cub::CacheModifiedInputIterator for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh):
// reads `ptr[n]` whatever the modifier. Its reads are recorded: as the reads of the CUB primitive
// it is given to (BlockLoad, LoadDirect*, ThreadLoad), or as `itr[i] (a CUB iterator reading
// ptr)` when the kernel reads through it itself.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <type_traits>

#include "../detail/memcarlo_iterator.cuh"
#include "../thread/thread_load.cuh"

namespace cub {

template <CacheLoadModifier modifier, class ValueType, class OffsetT = std::ptrdiff_t>
class CacheModifiedInputIterator
    : public memcarlo_detail::RandomAccess<CacheModifiedInputIterator<modifier, ValueType, OffsetT>,
                                           OffsetT> {
 public:
  using self_type = CacheModifiedInputIterator;
  using value_type = ValueType;
  using pointer = ValueType*;
  using reference = ValueType;

  ValueType* ptr = nullptr;

  CacheModifiedInputIterator() = default;
  template <class QualifiedValueType>
  CacheModifiedInputIterator(QualifiedValueType* pointer_in)  // NOLINT: implicit, as in CUB
      : ptr(const_cast<std::remove_cv_t<QualifiedValueType>*>(pointer_in)) {}

  ValueType* memcarlo_pointer() const { return ptr; }
  ValueType memcarlo_at(OffsetT n) const {
    memcarlo_detail::record(ptr + n, memcarlo_detail::iterator_read);
    return ptr[n];
  }
  void memcarlo_advance(OffsetT n) { ptr += n; }
  ValueType* memcarlo_position() const { return ptr; }
  ValueType* operator->() const { return ptr; }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
