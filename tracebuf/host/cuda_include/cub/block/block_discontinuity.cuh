// cub::BlockDiscontinuity for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): each
// thread puts its first and last items in the TempStorage, the block synchronizes, and each thread
// flags its items against their neighbours in the blocked tile, as CUB does: head_flags[i] =
// flag_op(predecessor, item) and tail_flags[i] = flag_op(item, successor), an operator taking a
// third argument getting the index in the tile of the second item. The tile's first item is a head
// and its last a tail unless a tile predecessor (successor) item is given. As in CUB, a
// __syncthreads() must separate a reuse of the TempStorage.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <type_traits>

#include "../detail/memcarlo_cub.cuh"

namespace cub {
namespace memcarlo_detail {

/// flag_op(a, b, index of b) when the operator takes the index, flag_op(a, b) otherwise.
template <class Op, class Value>
inline auto apply_with_index(Op& op, const Value& a, const Value& b, int b_index) {
  if constexpr (std::is_invocable_v<Op&, const Value&, const Value&, int>) {
    return op(a, b, b_index);
  } else {
    return op(a, b);
  }
}

}  // namespace memcarlo_detail

template <class T, int dim_x, int dim_y = 1, int dim_z = 1, int legacy_arch = 0>
class BlockDiscontinuity {
  static constexpr int block_threads = dim_x * dim_y * dim_z;

 public:
  struct TempStorage {
    memcarlo_detail::Slots<T, block_threads> first_items;
    memcarlo_detail::Slots<T, block_threads> last_items;
  };

  BlockDiscontinuity() : storage_(private_storage()) {}
  explicit BlockDiscontinuity(TempStorage& storage) : storage_(storage) {}

  template <int items, class FlagT, class FlagOp>
  void FlagHeads(FlagT (&head_flags)[items], T (&input)[items], FlagOp flag_op) {
    T preds[items];
    flag<items, FlagT>(&head_flags, nullptr, input, &preds, flag_op, nullptr, nullptr);
  }
  template <int items, class FlagT, class FlagOp>
  void FlagHeads(FlagT (&head_flags)[items], T (&input)[items], FlagOp flag_op,
                 T tile_predecessor_item) {
    T preds[items];
    flag<items, FlagT>(&head_flags, nullptr, input, &preds, flag_op, &tile_predecessor_item,
                       nullptr);
  }
  template <int items, class FlagT, class FlagOp>
  void FlagHeads(FlagT (&head_flags)[items], T (&input)[items], T (&preds)[items], FlagOp flag_op) {
    flag<items, FlagT>(&head_flags, nullptr, input, &preds, flag_op, nullptr, nullptr);
  }
  template <int items, class FlagT, class FlagOp>
  void FlagHeads(FlagT (&head_flags)[items], T (&input)[items], T (&preds)[items], FlagOp flag_op,
                 T tile_predecessor_item) {
    flag<items, FlagT>(&head_flags, nullptr, input, &preds, flag_op, &tile_predecessor_item,
                       nullptr);
  }
  template <int items, class FlagT, class FlagOp>
  void FlagTails(FlagT (&tail_flags)[items], T (&input)[items], FlagOp flag_op) {
    flag<items, FlagT>(nullptr, &tail_flags, input, nullptr, flag_op, nullptr, nullptr);
  }
  template <int items, class FlagT, class FlagOp>
  void FlagTails(FlagT (&tail_flags)[items], T (&input)[items], FlagOp flag_op,
                 T tile_successor_item) {
    flag<items, FlagT>(nullptr, &tail_flags, input, nullptr, flag_op, nullptr,
                       &tile_successor_item);
  }
  template <int items, class FlagT, class FlagOp>
  void FlagHeadsAndTails(FlagT (&head_flags)[items], FlagT (&tail_flags)[items], T (&input)[items],
                         FlagOp flag_op) {
    T preds[items];
    flag<items, FlagT>(&head_flags, &tail_flags, input, &preds, flag_op, nullptr, nullptr);
  }
  template <int items, class FlagT, class FlagOp>
  void FlagHeadsAndTails(FlagT (&head_flags)[items], FlagT (&tail_flags)[items],
                         T tile_successor_item, T (&input)[items], FlagOp flag_op) {
    T preds[items];
    flag<items, FlagT>(&head_flags, &tail_flags, input, &preds, flag_op, nullptr,
                       &tile_successor_item);
  }
  template <int items, class FlagT, class FlagOp>
  void FlagHeadsAndTails(FlagT (&head_flags)[items], T tile_predecessor_item,
                         FlagT (&tail_flags)[items], T (&input)[items], FlagOp flag_op) {
    T preds[items];
    flag<items, FlagT>(&head_flags, &tail_flags, input, &preds, flag_op, &tile_predecessor_item,
                       nullptr);
  }
  template <int items, class FlagT, class FlagOp>
  void FlagHeadsAndTails(FlagT (&head_flags)[items], T tile_predecessor_item,
                         FlagT (&tail_flags)[items], T tile_successor_item, T (&input)[items],
                         FlagOp flag_op) {
    T preds[items];
    flag<items, FlagT>(&head_flags, &tail_flags, input, &preds, flag_op, &tile_predecessor_item,
                       &tile_successor_item);
  }

 private:
  static TempStorage& private_storage() {
    thread_local TempStorage storage;  // per OS thread = per running block
    return storage;
  }

  /// Head flags (and predecessors) when `heads` is given, tail flags when `tails` is.
  template <int items, class FlagT, class FlagOp>
  void flag(FlagT (*heads)[items], FlagT (*tails)[items], T (&input)[items], T (*preds)[items],
            FlagOp& flag_op, const T* tile_predecessor, const T* tile_successor) {
    const int rank = memcarlo_detail::linear_tid<dim_x, dim_y, dim_z>();
    const bool member = rank < block_threads;
    if (member) {
      storage_.first_items.put(rank, input[0]);
      storage_.last_items.put(rank, input[items - 1]);
    }
    __syncthreads();
    if (!member) {
      return;
    }
    const int base = rank * items;
    if (heads != nullptr) {
      if (rank == 0 && tile_predecessor == nullptr) {
        (*heads)[0] = 1;
      } else {
        (*preds)[0] = rank == 0 ? *tile_predecessor : storage_.last_items.get(rank - 1);
        (*heads)[0] = memcarlo_detail::apply_with_index(flag_op, (*preds)[0], input[0], base);
      }
      for (int i = 1; i < items; ++i) {
        (*preds)[i] = input[i - 1];
        (*heads)[i] = memcarlo_detail::apply_with_index(flag_op, input[i - 1], input[i], base + i);
      }
    }
    if (tails != nullptr) {
      const bool last = rank == block_threads - 1;
      if (last && tile_successor == nullptr) {
        (*tails)[items - 1] = 1;
      } else {
        const T successor = last ? *tile_successor : storage_.first_items.get(rank + 1);
        (*tails)[items - 1] =
            memcarlo_detail::apply_with_index(flag_op, input[items - 1], successor, base + items);
      }
      for (int i = 0; i + 1 < items; ++i) {
        (*tails)[i] =
            memcarlo_detail::apply_with_index(flag_op, input[i], input[i + 1], base + i + 1);
      }
    }
  }

  TempStorage& storage_;
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
