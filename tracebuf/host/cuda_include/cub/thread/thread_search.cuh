// cub::LowerBound, cub::UpperBound and cub::MergePathSearch for memcarlo's host backend (see
// cub/detail/memcarlo_cub.cuh): binary searches over a thread's view of sorted input (an
// iterator; reads through it are the program's and are not traced). LowerBound is the offset of
// the first item not less than val, UpperBound of the first item greater than it;
// MergePathSearch (deprecated in CUB 3) splits the merge of sorted a and b at `diagonal`:
// path_coordinate.x items of a and .y = diagonal - .x of b come before it, a's items going first
// among equals.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_cub.cuh"

namespace cub {

template <class InputIteratorT, class OffsetT, class ItemT>
OffsetT LowerBound(InputIteratorT input, OffsetT num_items, ItemT val) {
  OffsetT first = 0;
  while (num_items > 0) {
    const OffsetT half = num_items / 2;
    if (input[first + half] < val) {
      first += half + 1;
      num_items -= half + 1;
    } else {
      num_items = half;
    }
  }
  return first;
}

template <class InputIteratorT, class OffsetT, class ItemT>
OffsetT UpperBound(InputIteratorT input, OffsetT num_items, ItemT val) {
  OffsetT first = 0;
  while (num_items > 0) {
    const OffsetT half = num_items / 2;
    if (val < input[first + half]) {
      num_items = half;
    } else {
      first += half + 1;
      num_items -= half + 1;
    }
  }
  return first;
}

/// Binary search on x, the a items taken: x is too small while a[x] <= b[diagonal - x - 1] (a's
/// next item would still go before b's last taken one).
template <class AIteratorT, class BIteratorT, class OffsetT, class CoordinateT>
void MergePathSearch(OffsetT diagonal, AIteratorT a, BIteratorT b, OffsetT a_len, OffsetT b_len,
                     CoordinateT& path_coordinate) {
  OffsetT low = diagonal > b_len ? diagonal - b_len : OffsetT{0};
  OffsetT high = diagonal < a_len ? diagonal : a_len;
  while (low < high) {
    const OffsetT x = low + (high - low) / 2;
    if (!(b[diagonal - x - 1] < a[x])) {
      low = x + 1;
    } else {
      high = x;
    }
  }
  path_coordinate.x = low;
  path_coordinate.y = diagonal - low;
}

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
