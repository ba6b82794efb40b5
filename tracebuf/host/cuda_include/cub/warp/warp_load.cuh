// cub::WarpLoad for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh and
// block/block_load.cuh): the lanes of a logical warp (LOGICAL_WARP_THREADS, a power of two up to
// 32, cut from the block's warps; a lane's rank is its lane modulo the width, as in CUB) read a
// tile from `block_itr`, and the trace records the addresses CUB's algorithm reads: blocked (lane
// l reads items l*N ... l*N+N-1: DIRECT and VECTORIZE) or striped (item i of lane l at i*WIDTH + l:
// STRIPED and TRANSPOSE). The items a lane ends up with are CUB's: blocked, except for STRIPED;
// TRANSPOSE's are read directly from their blocked places (what CUB's exchange through shared
// memory hands over) without being recorded again.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../block/block_load.cuh"
#include "warp_reduce.cuh"

namespace cub {

enum WarpLoadAlgorithm {
  WARP_LOAD_DIRECT,
  WARP_LOAD_STRIPED,
  WARP_LOAD_VECTORIZE,
  WARP_LOAD_TRANSPOSE,
};

template <class InputT, int ITEMS_PER_THREAD, WarpLoadAlgorithm ALGORITHM = WARP_LOAD_DIRECT,
          int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpLoad {
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32 &&
                    (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0,
                "the emulation's WarpLoad takes logical warps of 1, 2, 4, 8, 16 or 32 lanes");

 public:
  /// Nothing is exchanged through it here; it exists to be declared and shared in unions.
  struct TempStorage {
    unsigned char unused;
  };

  WarpLoad() = default;
  explicit WarpLoad(TempStorage&) {}

  template <class InputIteratorT>
  void Load(InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD]) {
    load(block_itr, items, memcarlo_detail::no_limit, static_cast<const InputT*>(nullptr));
  }
  template <class InputIteratorT>
  void Load(InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD], int valid_items) {
    load(block_itr, items, valid_items, static_cast<const InputT*>(nullptr));
  }
  template <class InputIteratorT, class DefaultT>
  void Load(InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD], int valid_items,
            DefaultT oob_default) {
    const InputT fill = oob_default;
    load(block_itr, items, valid_items, &fill);
  }

 private:
  template <class InputIteratorT>
  void load(InputIteratorT block_itr, InputT (&items)[ITEMS_PER_THREAD], int valid_items,
            const InputT* fill) {
    constexpr int count = ITEMS_PER_THREAD;
    const int lane = memcarlo_detail::LogicalWarp(LOGICAL_WARP_THREADS).lane;
    const auto blocked = [&](int i) { return lane * count + i; };
    const auto striped = [&](int i) { return i * LOGICAL_WARP_THREADS + lane; };
    constexpr auto read = memcarlo_detail::warp_load_read;
    if (ALGORITHM == WARP_LOAD_STRIPED) {
      memcarlo_detail::load_items(block_itr, items, striped, valid_items, fill, read);
    } else if (ALGORITHM != WARP_LOAD_TRANSPOSE) {
      memcarlo_detail::load_items(block_itr, items, blocked, valid_items, fill, read);
    } else {
      for (int i = 0; i < count; ++i) {
        if (striped(i) < valid_items) {
          memcarlo_detail::record_read(block_itr, striped(i), read);
        }
        if (blocked(i) < valid_items) {
          items[i] = memcarlo_detail::peek(block_itr, blocked(i));
        } else if (fill != nullptr) {
          items[i] = *fill;
        }
      }
    }
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
