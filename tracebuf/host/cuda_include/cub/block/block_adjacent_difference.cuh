// cub::BlockAdjacentDifference for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): each
// thread puts its last (first) item in the TempStorage, the block synchronizes, and each thread
// computes difference_op(item, left neighbour) (SubtractLeft) or difference_op(item, right
// neighbour) (SubtractRight) over the blocked tile, as CUB does: the tile's first (last) item is
// copied unless a tile predecessor (successor) item is given, and the PartialTile forms copy the
// items at and past valid_items (SubtractRight: from valid_items - 1). Input and output may be
// the same array. As in CUB, a __syncthreads() must separate a reuse of the TempStorage.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_cub.cuh"

namespace cub {

template <class T, int dim_x, int dim_y = 1, int dim_z = 1, int legacy_arch = 0>
class BlockAdjacentDifference {
  static constexpr int block_threads = dim_x * dim_y * dim_z;
  static constexpr int no_limit = 0x7fffffff;

 public:
  struct TempStorage {
    memcarlo_detail::Slots<T, block_threads> first_items;
    memcarlo_detail::Slots<T, block_threads> last_items;
  };

  BlockAdjacentDifference() : storage_(private_storage()) {}
  explicit BlockAdjacentDifference(TempStorage& storage) : storage_(storage) {}

  template <int items, class OutputT, class DifferenceOpT>
  void SubtractLeft(T (&input)[items], OutputT (&output)[items], DifferenceOpT difference_op) {
    left(input, output, difference_op, no_limit, nullptr);
  }
  template <int items, class OutputT, class DifferenceOpT>
  void SubtractLeft(T (&input)[items], OutputT (&output)[items], DifferenceOpT difference_op,
                    T tile_predecessor_item) {
    left(input, output, difference_op, no_limit, &tile_predecessor_item);
  }
  template <int items, class OutputT, class DifferenceOpT>
  void SubtractLeftPartialTile(T (&input)[items], OutputT (&output)[items],
                               DifferenceOpT difference_op, int valid_items) {
    left(input, output, difference_op, valid_items, nullptr);
  }
  template <int items, class OutputT, class DifferenceOpT>
  void SubtractLeftPartialTile(T (&input)[items], OutputT (&output)[items],
                               DifferenceOpT difference_op, int valid_items,
                               T tile_predecessor_item) {
    left(input, output, difference_op, valid_items, &tile_predecessor_item);
  }
  template <int items, class OutputT, class DifferenceOpT>
  void SubtractRight(T (&input)[items], OutputT (&output)[items], DifferenceOpT difference_op) {
    right(input, output, difference_op, no_limit, nullptr);
  }
  template <int items, class OutputT, class DifferenceOpT>
  void SubtractRight(T (&input)[items], OutputT (&output)[items], DifferenceOpT difference_op,
                     T tile_successor_item) {
    right(input, output, difference_op, no_limit, &tile_successor_item);
  }
  template <int items, class OutputT, class DifferenceOpT>
  void SubtractRightPartialTile(T (&input)[items], OutputT (&output)[items],
                                DifferenceOpT difference_op, int valid_items) {
    right(input, output, difference_op, valid_items, nullptr);
  }

 private:
  static TempStorage& private_storage() {
    thread_local TempStorage storage;  // per OS thread = per running block
    return storage;
  }

  template <int items, class OutputT, class Op>
  void left(T (&input)[items], OutputT (&output)[items], Op& op, int valid_items,
            const T* tile_predecessor) {
    const int rank = memcarlo_detail::linear_tid<dim_x, dim_y, dim_z>();
    if (rank < block_threads) {
      storage_.last_items.put(rank, input[items - 1]);
    }
    __syncthreads();
    if (rank >= block_threads) {
      return;
    }
    T copy[items];
    for (int i = 0; i < items; ++i) {
      copy[i] = input[i];
    }
    const int base = rank * items;
    for (int i = items - 1; i > 0; --i) {
      output[i] = base + i < valid_items ? op(copy[i], copy[i - 1]) : copy[i];
    }
    if (valid_items <= base || (rank == 0 && tile_predecessor == nullptr)) {
      output[0] = copy[0];
    } else {
      output[0] = op(copy[0], rank == 0 ? *tile_predecessor : storage_.last_items.get(rank - 1));
    }
  }

  template <int items, class OutputT, class Op>
  void right(T (&input)[items], OutputT (&output)[items], Op& op, int valid_items,
             const T* tile_successor) {
    const int rank = memcarlo_detail::linear_tid<dim_x, dim_y, dim_z>();
    if (rank < block_threads) {
      storage_.first_items.put(rank, input[0]);
    }
    __syncthreads();
    if (rank >= block_threads) {
      return;
    }
    T copy[items];
    for (int i = 0; i < items; ++i) {
      copy[i] = input[i];
    }
    const int base = rank * items;
    const bool last = rank == block_threads - 1;
    for (int i = 0; i < items; ++i) {
      const int index = base + i;
      if (valid_items != no_limit && index >= valid_items - 1) {
        output[i] = copy[i];  // the right neighbour is past the valid items
      } else if (i + 1 < items) {
        output[i] = op(copy[i], copy[i + 1]);
      } else if (!last) {
        output[i] = op(copy[i], storage_.first_items.get(rank + 1));
      } else if (tile_successor != nullptr) {
        output[i] = op(copy[i], *tile_successor);
      } else {
        output[i] = copy[i];
      }
    }
  }

  TempStorage& storage_;
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
