// cub::ArgIndexInputIterator for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh):
// item n is the KeyValuePair (offset + n, itr[offset + n]). Reading it reads the wrapped
// iterator, recorded as `itr[i] (a CUB iterator reading ptr)` when that goes through memory.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <iterator>

#include "../detail/memcarlo_iterator.cuh"
#include "../util_type.cuh"

namespace cub {

template <class InputIteratorT, class OffsetT = std::ptrdiff_t,
          class OutputValueT = typename std::iterator_traits<InputIteratorT>::value_type>
class ArgIndexInputIterator
    : public memcarlo_detail::RandomAccess<
          ArgIndexInputIterator<InputIteratorT, OffsetT, OutputValueT>, OffsetT> {
 public:
  using self_type = ArgIndexInputIterator;
  using difference_type = OffsetT;
  using value_type = KeyValuePair<difference_type, OutputValueT>;
  using pointer = value_type*;
  using reference = value_type;

  InputIteratorT itr;
  difference_type offset = 0;

  ArgIndexInputIterator(InputIteratorT input, difference_type offset_in = 0)  // NOLINT
      : itr(input), offset(offset_in) {}

  value_type memcarlo_at(OffsetT n) const {
    return value_type(offset + n, static_cast<OutputValueT>(memcarlo_detail::access(
                                      itr, offset + n, memcarlo_detail::iterator_read)));
  }
  void memcarlo_advance(OffsetT n) { offset += n; }
  OffsetT memcarlo_position() const { return offset; }
  /// Moves the wrapped iterator to the current item and the offset to 0.
  void normalize() {
    itr += offset;
    offset = 0;
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
