// CUB's function objects for memcarlo's host backend: cub::Sum, cub::Max and cub::Min (in
// cub/detail/memcarlo_cub.cuh), cub::Equality and cub::Inequality.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_cub.cuh"

namespace cub {

struct Equality {
  template <class Left, class Right>
  constexpr bool operator()(const Left& left, const Right& right) const {
    return left == right;
  }
};
struct Inequality {
  template <class Left, class Right>
  constexpr bool operator()(const Left& left, const Right& right) const {
    return left != right;
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
