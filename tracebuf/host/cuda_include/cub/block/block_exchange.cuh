// cub::BlockExchange for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): each thread
// puts its items in the TempStorage at their places in the source arrangement (blocked: thread t's
// item i at t*ITEMS+i; striped: at i*BLOCK_THREADS+t; warp-striped: at
// warp*32*ITEMS + i*32 + lane; scattered: at ranks[i]), the block synchronizes, and each thread
// reads its items from their places in the target arrangement. Input and output may be the same
// array. As in CUB, a __syncthreads() must separate a reuse of the TempStorage.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_cub.cuh"

namespace cub {

template <class InputT, int dim_x, int items_per_thread, bool warp_time_slicing = false,
          int dim_y = 1, int dim_z = 1, int legacy_arch = 0>
class BlockExchange {
  static constexpr int block_threads = dim_x * dim_y * dim_z;
  static constexpr int items = items_per_thread;
  static constexpr int warps = (block_threads + 31) / 32;
  static constexpr int tile_items = warps * 32 * items;

 public:
  struct TempStorage {
    memcarlo_detail::Slots<InputT, tile_items> items;
  };

  BlockExchange() : storage_(private_storage()) {}
  explicit BlockExchange(TempStorage& storage) : storage_(storage) {}

  template <class OutputT>
  void StripedToBlocked(const InputT (&input_items)[items], OutputT (&output_items)[items]) {
    exchange(input_items, output_items, striped(), blocked());
  }
  template <class OutputT>
  void BlockedToStriped(const InputT (&input_items)[items], OutputT (&output_items)[items]) {
    exchange(input_items, output_items, blocked(), striped());
  }
  template <class OutputT>
  void WarpStripedToBlocked(const InputT (&input_items)[items], OutputT (&output_items)[items]) {
    exchange(input_items, output_items, warp_striped(), blocked());
  }
  template <class OutputT>
  void BlockedToWarpStriped(const InputT (&input_items)[items], OutputT (&output_items)[items]) {
    exchange(input_items, output_items, blocked(), warp_striped());
  }
  template <class OutputT, class OffsetT>
  void ScatterToBlocked(const InputT (&input_items)[items], OutputT (&output_items)[items],
                        OffsetT (&ranks)[items]) {
    exchange(
        input_items, output_items, [&](int i) { return static_cast<int>(ranks[i]); }, blocked());
  }
  template <class OutputT, class OffsetT>
  void ScatterToStriped(const InputT (&input_items)[items], OutputT (&output_items)[items],
                        OffsetT (&ranks)[items]) {
    exchange(
        input_items, output_items, [&](int i) { return static_cast<int>(ranks[i]); }, striped());
  }
  /// Items whose rank is negative are not exchanged.
  template <class OutputT, class OffsetT>
  void ScatterToStripedGuarded(const InputT (&input_items)[items], OutputT (&output_items)[items],
                               OffsetT (&ranks)[items]) {
    exchange(
        input_items, output_items, [&](int i) { return static_cast<int>(ranks[i]); }, striped());
  }
  /// Items whose flag is false are not exchanged.
  template <class OutputT, class OffsetT, class ValidFlag>
  void ScatterToStripedFlagged(const InputT (&input_items)[items], OutputT (&output_items)[items],
                               OffsetT (&ranks)[items], ValidFlag (&is_valid)[items]) {
    exchange(
        input_items, output_items,
        [&](int i) { return is_valid[i] ? static_cast<int>(ranks[i]) : -1; }, striped());
  }

  // The in-place forms of CUB 2 and earlier.
  void StripedToBlocked(InputT (&items_in_out)[items]) {
    StripedToBlocked(items_in_out, items_in_out);
  }
  void BlockedToStriped(InputT (&items_in_out)[items]) {
    BlockedToStriped(items_in_out, items_in_out);
  }
  void WarpStripedToBlocked(InputT (&items_in_out)[items]) {
    WarpStripedToBlocked(items_in_out, items_in_out);
  }
  void BlockedToWarpStriped(InputT (&items_in_out)[items]) {
    BlockedToWarpStriped(items_in_out, items_in_out);
  }
  template <class OffsetT>
  void ScatterToBlocked(InputT (&items_in_out)[items], OffsetT (&ranks)[items]) {
    ScatterToBlocked(items_in_out, items_in_out, ranks);
  }
  template <class OffsetT>
  void ScatterToStriped(InputT (&items_in_out)[items], OffsetT (&ranks)[items]) {
    ScatterToStriped(items_in_out, items_in_out, ranks);
  }

 private:
  static TempStorage& private_storage() {
    thread_local TempStorage storage;  // per OS thread = per running block
    return storage;
  }

  static int rank() { return memcarlo_detail::linear_tid<dim_x, dim_y, dim_z>(); }
  static auto blocked() {
    const int thread = rank();
    return [thread](int i) { return thread * items + i; };
  }
  static auto striped() {
    const int thread = rank();
    return [thread](int i) { return i * block_threads + thread; };
  }
  static auto warp_striped() {
    const int thread = rank();
    return [thread](int i) { return thread / 32 * 32 * items + i * 32 + thread % 32; };
  }

  /// Item i goes to place from(i) (none when negative) and comes back from place to(i).
  template <class OutputT, class From, class To>
  void exchange(const InputT (&input_items)[items], OutputT (&output_items)[items], From from,
                To to) {
    const bool member = rank() < block_threads;
    if (member) {
      for (int i = 0; i < items; ++i) {
        const int at = from(i);
        if (at >= 0 && at < tile_items) {
          storage_.items.put(at, input_items[i]);
        }
      }
    }
    __syncthreads();
    if (member) {
      for (int i = 0; i < items; ++i) {
        output_items[i] = static_cast<OutputT>(storage_.items.get(to(i)));
      }
    }
  }

  TempStorage& storage_;
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
