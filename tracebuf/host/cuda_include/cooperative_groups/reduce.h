// Stand-in for <cooperative_groups/reduce.h>: cg::reduce over tiles and coalesced groups, and its
// operators. <cooperative_groups.h> includes it as well, so that programs written for toolkits
// that declared cg::reduce there still compile.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

#include "cooperative_groups.h"

namespace cooperative_groups {

template <class Value>
struct plus {
  Value operator()(const Value& left, const Value& right) const { return left + right; }
};
template <class Value>
struct less {
  Value operator()(const Value& left, const Value& right) const {
    return right < left ? right : left;
  }
};
template <class Value>
struct greater {
  Value operator()(const Value& left, const Value& right) const {
    return left < right ? right : left;
  }
};
template <class Value>
struct bit_and {
  Value operator()(const Value& left, const Value& right) const { return left & right; }
};
template <class Value>
struct bit_or {
  Value operator()(const Value& left, const Value& right) const { return left | right; }
};
template <class Value>
struct bit_xor {
  Value operator()(const Value& left, const Value& right) const { return left ^ right; }
};

/// cg::reduce over a tile; every thread of the tile gets the result. Within a warp: a butterfly
/// of shuffles. Wider tiles: the values in rank order through the block's exchange slots.
template <unsigned Size, class Parent, class Value, class Operation>
Value reduce(const thread_block_tile<Size, Parent>& tile, Value value, Operation operation,
             ::memcarlo::host::CallSite where = {}) {
  if constexpr (Size <= 32) {
    // A tile cut short by the end of the block (a block of 4 threads, a tile of 32) reduces over
    // the threads it has, in rank order: a butterfly would mix in the missing lanes.
    const unsigned first = detail::block_rank() / Size * Size;
    const unsigned present = detail::block_size() - first < Size ? detail::block_size() - first
                                                                 : Size;
    if (present < Size) {
      Value result = tile.shfl(value, 0, where);
      for (unsigned rank = 1; rank < present; ++rank) {
        result = operation(result, tile.shfl(value, static_cast<int>(rank), where));
      }
      return result;
    }
    for (unsigned offset = Size / 2; offset > 0; offset /= 2) {
      value = operation(value, tile.shfl_xor(value, static_cast<int>(offset), where));
    }
    return value;
  } else {
    return tile.fold(value, operation, where);
  }
}

/// cg::reduce over a coalesced group: the members' values in rank order.
template <class Value, class Operation>
Value reduce(const coalesced_group& group, Value value, Operation operation,
             ::memcarlo::host::CallSite where = {}) {
  Value result = group.shfl(value, 0, where);
  for (unsigned rank = 1; rank < group.size(); ++rank) {
    result = operation(result, group.shfl(value, static_cast<int>(rank), where));
  }
  return result;
}

}  // namespace cooperative_groups
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
