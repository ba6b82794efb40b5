// cub::CacheModifiedOutputIterator for memcarlo's host backend (see
// cub/detail/memcarlo_cub.cuh): writes `ptr[n]` whatever the modifier. Its writes are recorded:
// as the writes of the CUB primitive it is given to (BlockStore, StoreDirect*, ThreadStore), or as
// `itr[i] = value (a CUB iterator writing ptr)` when the kernel writes through it itself.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_iterator.cuh"
#include "../thread/thread_store.cuh"

namespace cub {

template <CacheStoreModifier modifier, class ValueType, class OffsetT = std::ptrdiff_t>
class CacheModifiedOutputIterator
    : public memcarlo_detail::RandomAccess<
          CacheModifiedOutputIterator<modifier, ValueType, OffsetT>, OffsetT> {
 public:
  /// What `*itr` and `itr[n]` give: assigning to it writes the item.
  struct Reference {
    ValueType* ptr;
    ValueType operator=(ValueType val) {
      memcarlo_detail::record(ptr, memcarlo_detail::iterator_write);
      *ptr = val;
      return val;
    }
  };

  using self_type = CacheModifiedOutputIterator;
  using value_type = void;
  using pointer = void;
  using reference = Reference;

  ValueType* ptr = nullptr;

  CacheModifiedOutputIterator() = default;
  template <class QualifiedValueType>
  CacheModifiedOutputIterator(QualifiedValueType* pointer_in)  // NOLINT: implicit, as in CUB
      : ptr(const_cast<std::remove_cv_t<QualifiedValueType>*>(pointer_in)) {}

  ValueType* memcarlo_pointer() const { return ptr; }
  Reference memcarlo_at(OffsetT n) const { return Reference{ptr + n}; }
  void memcarlo_advance(OffsetT n) { ptr += n; }
  ValueType* memcarlo_position() const { return ptr; }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
