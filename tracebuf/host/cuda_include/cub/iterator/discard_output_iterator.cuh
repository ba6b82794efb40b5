// cub::DiscardOutputIterator for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh):
// assignments through it are dropped. CUB 3 (CUDA 13) removed it for cuda::discard_iterator; here
// it stays.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_iterator.cuh"

namespace cub {

template <class OffsetT = std::ptrdiff_t>
class DiscardOutputIterator
    : public memcarlo_detail::RandomAccess<DiscardOutputIterator<OffsetT>, OffsetT> {
 public:
  struct Reference {
    template <class Value>
    const Reference& operator=(const Value&) const {
      return *this;
    }
  };
  using self_type = DiscardOutputIterator;
  using value_type = void;
  using pointer = void;
  using reference = Reference;

  DiscardOutputIterator(OffsetT offset_in = 0) : offset(offset_in) {}  // NOLINT: as in CUB

  Reference memcarlo_at(OffsetT) const { return Reference{}; }
  void memcarlo_advance(OffsetT n) { offset += n; }
  OffsetT memcarlo_position() const { return offset; }

 private:
  OffsetT offset;
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
