// cub::StableOddEvenSort for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): sorts one
// thread's ITEMS_PER_THREAD keys by compare_op, with their items unless ValueT is NullType, by
// odd-even transposition (ITEMS_PER_THREAD rounds of swaps of neighbours out of order), which
// never swaps equal keys and so is stable, as CUB's.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <type_traits>
#include <utility>

#include "../util_type.cuh"

namespace cub {

template <class KeyT, class ValueT, class CompareOp, int ITEMS_PER_THREAD>
void StableOddEvenSort(KeyT (&keys)[ITEMS_PER_THREAD], ValueT (&items)[ITEMS_PER_THREAD],
                       CompareOp compare_op) {
  constexpr bool keys_only = std::is_same_v<ValueT, NullType>;
  for (int round = 0; round < ITEMS_PER_THREAD; ++round) {
    for (int left = round % 2; left + 1 < ITEMS_PER_THREAD; left += 2) {
      if (compare_op(keys[left + 1], keys[left])) {
        std::swap(keys[left], keys[left + 1]);
        if constexpr (!keys_only) {
          std::swap(items[left], items[left + 1]);
        }
      }
    }
  }
}

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
