// cub::internal::ThreadScanInclusive and cub::internal::ThreadScanExclusive (CUB's internal
// namespace, as in CUB) for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): a
// sequential scan of one thread's LENGTH items (a pointer with an explicit LENGTH or an array),
// output possibly the input itself, returning the aggregate. As in CUB: the exclusive scan writes
// the prefix at output[0] and, when apply_prefix, combines it into the first item (without it,
// the scan starts at input[0] and output[0] still gets the prefix); the inclusive scan with a
// prefix combines it into the first item when apply_prefix.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_cub.cuh"

namespace cub {
namespace internal {

template <int LENGTH, class ItemT, class ScanOp>
ItemT ThreadScanExclusive(ItemT* input, ItemT* output, ScanOp scan_op, ItemT prefix,
                          bool apply_prefix = true) {
  ItemT inclusive = apply_prefix ? scan_op(prefix, input[0]) : input[0];
  output[0] = prefix;
  for (int i = 1; i < LENGTH; ++i) {
    const ItemT item = input[i];  // read before output[i], which may be input[i], is written
    output[i] = inclusive;
    inclusive = scan_op(inclusive, item);
  }
  return inclusive;
}
template <int LENGTH, class ItemT, class ScanOp>
ItemT ThreadScanExclusive(ItemT (&input)[LENGTH], ItemT (&output)[LENGTH], ScanOp scan_op,
                          ItemT prefix, bool apply_prefix = true) {
  return ThreadScanExclusive<LENGTH>(&input[0], &output[0], scan_op, prefix, apply_prefix);
}

template <int LENGTH, class ItemT, class ScanOp>
ItemT ThreadScanInclusive(ItemT* input, ItemT* output, ScanOp scan_op) {
  ItemT inclusive = input[0];
  output[0] = inclusive;
  for (int i = 1; i < LENGTH; ++i) {
    inclusive = scan_op(inclusive, input[i]);
    output[i] = inclusive;
  }
  return inclusive;
}
template <int LENGTH, class ItemT, class ScanOp>
ItemT ThreadScanInclusive(ItemT (&input)[LENGTH], ItemT (&output)[LENGTH], ScanOp scan_op) {
  return ThreadScanInclusive<LENGTH>(&input[0], &output[0], scan_op);
}
template <int LENGTH, class ItemT, class ScanOp>
ItemT ThreadScanInclusive(ItemT* input, ItemT* output, ScanOp scan_op, ItemT prefix,
                          bool apply_prefix = true) {
  ItemT inclusive = apply_prefix ? scan_op(prefix, input[0]) : input[0];
  output[0] = inclusive;
  for (int i = 1; i < LENGTH; ++i) {
    inclusive = scan_op(inclusive, input[i]);
    output[i] = inclusive;
  }
  return inclusive;
}
template <int LENGTH, class ItemT, class ScanOp>
ItemT ThreadScanInclusive(ItemT (&input)[LENGTH], ItemT (&output)[LENGTH], ScanOp scan_op,
                          ItemT prefix, bool apply_prefix = true) {
  return ThreadScanInclusive<LENGTH>(&input[0], &output[0], scan_op, prefix, apply_prefix);
}

}  // namespace internal
}  // namespace cub
// NOLINTEND(readability-identifier-naming)
