// cub::ThreadReduce for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): the reduction
// of one thread's items, a statically sized array-like input (a C array, std::array,
// cuda::std::array, a span), optionally seeded with a prefix, combined from the first item to the
// last (CUB's tree orders give the same result for the associative operators it is meant for);
// and cub::internal's pointer forms with an explicit length. Nothing is exchanged or traced: the
// items are the thread's own.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "../detail/memcarlo_cub.cuh"

namespace cub {
namespace memcarlo_detail {

/// The number of items of an array-like input: a C array's extent, or its size().
template <class Input>
inline std::size_t item_count(const Input& input) {
  if constexpr (std::is_array_v<Input>) {
    return std::extent_v<Input>;
  } else {
    return static_cast<std::size_t>(input.size());
  }
}

template <class Input>
using item_t = std::remove_cv_t<std::remove_reference_t<decltype(std::declval<const Input&>()[0])>>;

}  // namespace memcarlo_detail

template <class Input, class ReductionOp, class ValueT = memcarlo_detail::item_t<Input>,
          class AccumT = memcarlo_detail::accumulator_t<ValueT, ReductionOp>>
AccumT ThreadReduce(const Input& input, ReductionOp reduction_op) {
  const std::size_t count = memcarlo_detail::item_count(input);
  AccumT result = input[0];
  for (std::size_t i = 1; i < count; ++i) {
    result = reduction_op(result, input[i]);
  }
  return result;
}

template <
    class Input, class ReductionOp, class PrefixT, class ValueT = memcarlo_detail::item_t<Input>,
    class AccumT = std::decay_t<std::invoke_result_t<ReductionOp&, const PrefixT&, const ValueT&>>>
AccumT ThreadReduce(const Input& input, ReductionOp reduction_op, PrefixT prefix) {
  const std::size_t count = memcarlo_detail::item_count(input);
  AccumT result = prefix;
  for (std::size_t i = 0; i < count; ++i) {
    result = reduction_op(result, input[i]);
  }
  return result;
}

namespace internal {

/// The pointer forms: Length items from input (with a prefix, Length may be 0).
template <int Length, class ItemT, class ReductionOp,
          class AccumT = memcarlo_detail::accumulator_t<ItemT, ReductionOp>>
AccumT ThreadReduce(const ItemT* input, ReductionOp reduction_op) {
  static_assert(Length > 0, "Length must be greater than 0");
  return cub::ThreadReduce(*reinterpret_cast<const ItemT(*)[Length]>(input), reduction_op);
}

template <
    int Length, class ItemT, class ReductionOp, class PrefixT,
    class AccumT = std::decay_t<std::invoke_result_t<ReductionOp&, const PrefixT&, const ItemT&>>>
AccumT ThreadReduce(const ItemT* input, ReductionOp reduction_op, PrefixT prefix) {
  AccumT result = prefix;
  for (int i = 0; i < Length; ++i) {
    result = reduction_op(result, input[i]);
  }
  return result;
}

}  // namespace internal
}  // namespace cub
// NOLINTEND(readability-identifier-naming)
