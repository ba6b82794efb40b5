// cub::BlockRunLengthDecode for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): the
// block's BLOCK_THREADS * RUNS_PER_THREAD runs (thread t's runs are runs t * RUNS_PER_THREAD ...,
// blocked) are put in the TempStorage with their values and lengths (or offsets); after a barrier
// thread 0 turns lengths into offsets (an exclusive sum, whose total every thread gets), and after
// a second barrier RunLengthDecode hands each thread its DECODED_ITEMS_PER_THREAD items of a
// window starting at from_decoded_offset: item i is decoded item p = from_decoded_offset +
// rank * DECODED_ITEMS_PER_THREAD + i, the value of the last run starting at or before p, with
// p's offset in that run. As in CUB, items past the decoded size belong to the last run, and only
// trailing runs may have length 0. Nothing is read from or written to global memory.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "../detail/memcarlo_cub.cuh"

namespace cub {

template <class ItemT, int BLOCK_DIM_X, int RUNS_PER_THREAD, int DECODED_ITEMS_PER_THREAD,
          class DecodedOffsetT = std::uint32_t, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1>
class BlockRunLengthDecode {
  static constexpr int block_threads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
  static constexpr int block_runs = block_threads * RUNS_PER_THREAD;

 public:
  struct TempStorage {
    memcarlo_detail::Slots<ItemT, block_runs> values;
    DecodedOffsetT offsets[block_runs];  // lengths until thread 0 sums them
    DecodedOffsetT total;
  };

  template <class RunLengthT, class TotalDecodedSizeT>
  BlockRunLengthDecode(TempStorage& storage, ItemT (&run_values)[RUNS_PER_THREAD],
                       RunLengthT (&run_lengths)[RUNS_PER_THREAD],
                       TotalDecodedSizeT& total_decoded_size)
      : storage_(storage) {
    init(run_values, run_lengths, true);
    total_decoded_size = static_cast<TotalDecodedSizeT>(storage_.total);
    __syncthreads();  // as CUB's scan: all have read the total before the storage is reused
  }
  template <class UserRunOffsetT>
  BlockRunLengthDecode(TempStorage& storage, ItemT (&run_values)[RUNS_PER_THREAD],
                       UserRunOffsetT (&run_offsets)[RUNS_PER_THREAD])
      : storage_(storage) {
    init(run_values, run_offsets, false);
  }
  template <class RunLengthT, class TotalDecodedSizeT>
  BlockRunLengthDecode(ItemT (&run_values)[RUNS_PER_THREAD],
                       RunLengthT (&run_lengths)[RUNS_PER_THREAD],
                       TotalDecodedSizeT& total_decoded_size)
      : BlockRunLengthDecode(private_storage(), run_values, run_lengths, total_decoded_size) {}
  template <class UserRunOffsetT>
  BlockRunLengthDecode(ItemT (&run_values)[RUNS_PER_THREAD],
                       UserRunOffsetT (&run_offsets)[RUNS_PER_THREAD])
      : BlockRunLengthDecode(private_storage(), run_values, run_offsets) {}

  template <class RelativeOffsetT>
  void RunLengthDecode(ItemT (&decoded_items)[DECODED_ITEMS_PER_THREAD],
                       RelativeOffsetT (&item_offsets)[DECODED_ITEMS_PER_THREAD],
                       DecodedOffsetT from_decoded_offset = 0) {
    const int rank = memcarlo_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>();
    const DecodedOffsetT* offsets = storage_.offsets;
    for (int i = 0; i < DECODED_ITEMS_PER_THREAD; ++i) {
      const DecodedOffsetT item =
          from_decoded_offset + static_cast<DecodedOffsetT>(rank * DECODED_ITEMS_PER_THREAD + i);
      // The last run starting at or before the item (the first run starts at 0).
      const auto run = std::max<std::ptrdiff_t>(
          std::upper_bound(offsets, offsets + block_runs, item) - offsets - 1, 0);
      decoded_items[i] = storage_.values.get(static_cast<int>(run));
      item_offsets[i] = static_cast<RelativeOffsetT>(item - offsets[run]);
    }
  }
  void RunLengthDecode(ItemT (&decoded_items)[DECODED_ITEMS_PER_THREAD],
                       DecodedOffsetT from_decoded_offset = 0) {
    DecodedOffsetT item_offsets[DECODED_ITEMS_PER_THREAD];
    RunLengthDecode(decoded_items, item_offsets, from_decoded_offset);
  }

 private:
  static TempStorage& private_storage() {
    thread_local TempStorage storage;  // per OS thread = per running block
    return storage;
  }

  /// Stores the thread's runs, blocked; thread 0 sums lengths into offsets when `lengths`.
  template <class Count>
  void init(ItemT (&run_values)[RUNS_PER_THREAD], Count (&counts)[RUNS_PER_THREAD], bool lengths) {
    const int rank = memcarlo_detail::linear_tid<BLOCK_DIM_X, BLOCK_DIM_Y, BLOCK_DIM_Z>();
    if (rank < block_threads) {
      for (int i = 0; i < RUNS_PER_THREAD; ++i) {
        storage_.values.put(rank * RUNS_PER_THREAD + i, run_values[i]);
        storage_.offsets[rank * RUNS_PER_THREAD + i] = static_cast<DecodedOffsetT>(counts[i]);
      }
    }
    __syncthreads();
    if (lengths) {
      if (rank == 0) {
        DecodedOffsetT sum = 0;
        for (DecodedOffsetT& offset : storage_.offsets) {
          const DecodedOffsetT length = offset;
          offset = sum;
          sum += length;
        }
        storage_.total = sum;
      }
      __syncthreads();
    }
  }

  TempStorage& storage_;
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
