// cub::WarpExchange for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): the lanes of a
// logical warp (LOGICAL_WARP_THREADS, a power of two up to 32, cut from the block's warps) put
// their items in the TempStorage at their places in the source arrangement, meet at __syncwarp
// over the logical warp's lanes, read theirs from the target arrangement, and meet again, as CUB's
// shared-memory exchange does (the shuffle algorithm gives the same result). Blocked: lane l holds
// items l*N ... l*N+N-1 of the warp's tile; striped: item i of lane l is i*WIDTH + l.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "warp_reduce.cuh"

namespace cub {

enum WarpExchangeAlgorithm {
  WARP_EXCHANGE_SMEM,
  WARP_EXCHANGE_SHUFFLE,
};

template <class InputT, int ITEMS_PER_THREAD, int LOGICAL_WARP_THREADS = 32,
          WarpExchangeAlgorithm WARP_EXCHANGE_ALGORITHM = WARP_EXCHANGE_SMEM>
class WarpExchange {
  static_assert(LOGICAL_WARP_THREADS >= 1 && LOGICAL_WARP_THREADS <= 32 &&
                    (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0,
                "the emulation's WarpExchange takes logical warps of 1, 2, 4, 8, 16 or 32 lanes");
  static constexpr int count = ITEMS_PER_THREAD;
  static constexpr int width = LOGICAL_WARP_THREADS;

 public:
  struct TempStorage {
    memcarlo_detail::Slots<InputT, count * width> items;
  };

  WarpExchange() = delete;  // as in CUB: the storage is the program's
  explicit WarpExchange(TempStorage& storage) : storage_(storage) {}

  template <class OutputT>
  void BlockedToStriped(const InputT (&input_items)[ITEMS_PER_THREAD],
                        OutputT (&output_items)[ITEMS_PER_THREAD]) {
    exchange(
        input_items, output_items, [](int lane, int i) { return lane * count + i; },
        [](int lane, int i) { return i * width + lane; });
  }
  template <class OutputT>
  void StripedToBlocked(const InputT (&input_items)[ITEMS_PER_THREAD],
                        OutputT (&output_items)[ITEMS_PER_THREAD]) {
    exchange(
        input_items, output_items, [](int lane, int i) { return i * width + lane; },
        [](int lane, int i) { return lane * count + i; });
  }
  /// Item i goes to rank ranks[i] of the warp's tile; each lane then holds the striped items.
  template <class OffsetT>
  void ScatterToStriped(InputT (&items)[ITEMS_PER_THREAD], OffsetT (&ranks)[ITEMS_PER_THREAD]) {
    ScatterToStriped(items, items, ranks);
  }
  template <class OutputT, class OffsetT>
  void ScatterToStriped(const InputT (&input_items)[ITEMS_PER_THREAD],
                        OutputT (&output_items)[ITEMS_PER_THREAD],
                        OffsetT (&ranks)[ITEMS_PER_THREAD]) {
    exchange(
        input_items, output_items,
        [&](int, int i) { return static_cast<int>(ranks[i]); },
        [](int lane, int i) { return i * width + lane; });
  }

 private:
  template <class OutputT, class From, class To>
  void exchange(const InputT (&input_items)[ITEMS_PER_THREAD],
                OutputT (&output_items)[ITEMS_PER_THREAD], From from, To to) {
    const memcarlo_detail::LogicalWarp warp(width);
    for (int i = 0; i < count; ++i) {
      storage_.items.put(from(warp.lane, i), input_items[i]);
    }
    __syncwarp(warp.mask);
    for (int i = 0; i < count; ++i) {
      output_items[i] = static_cast<OutputT>(storage_.items.get(to(warp.lane, i)));
    }
    __syncwarp(warp.mask);
  }

  TempStorage& storage_;
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
