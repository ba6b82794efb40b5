// cub::WarpReduce and cub::WarpScan for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh):
// the lanes of a logical warp (LOGICAL_WARP_THREADS, a power of two up to 32, cut from the
// block's warps) put their values in the TempStorage, meet at __syncwarp over the logical warp's
// lanes, each reads what it needs in lane order, and meet again before the storage can be reused.
// Lanes past the end of the block (a partial last warp) take no part. As in CUB, reductions are
// defined in the logical warp's lane 0 (segmented ones in each segment's first lane).
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_cub.cuh"

namespace cub {
namespace memcarlo_detail {

/// The calling thread's place in a logical warp of `width` lanes.
struct LogicalWarp {
  int lane;       // in the logical warp
  int lanes;      // lanes of the logical warp that exist (fewer in a partial last warp)
  unsigned mask;  // the logical warp's lanes in the hardware warp

  explicit LogicalWarp(int width) {
    const int rank = block_rank();
    lane = rank % 32 % width;
    const int first = rank - lane;
    const int left = block_threads_launched() - first;
    lanes = left < width ? left : width;
    mask = (width >= 32 ? 0xffffffffu : ((1u << width) - 1u)) << ((rank % 32) - lane);
  }
};

/// Exchange storage of a logical warp: values and flags, one per lane.
template <class Value, int width>
struct WarpSlots {
  Slots<Value, width> values;
  int flags[width];
};

}  // namespace memcarlo_detail

template <class Value, int logical_warp_threads = 32, int legacy_arch = 0>
class WarpReduce {
  static_assert(logical_warp_threads >= 1 && logical_warp_threads <= 32 &&
                    (logical_warp_threads & (logical_warp_threads - 1)) == 0,
                "the emulation's WarpReduce takes logical warps of 1, 2, 4, 8, 16 or 32 lanes");

  struct Plus {
    Value operator()(const Value& left, const Value& right) const { return left + right; }
  };

 public:
  struct TempStorage {
    memcarlo_detail::WarpSlots<Value, logical_warp_threads> slots;
  };

  explicit WarpReduce(TempStorage& storage) : storage_(storage) {}

  Value Sum(Value input) { return reduce(input, Plus{}, logical_warp_threads); }
  Value Sum(Value input, int valid_items) { return reduce(input, Plus{}, valid_items); }
  template <class Op>
  Value Reduce(Value input, Op op) {
    return reduce(input, op, logical_warp_threads);
  }
  template <class Op>
  Value Reduce(Value input, Op op, int valid_items) {
    return reduce(input, op, valid_items);
  }
  template <class Flag>
  Value HeadSegmentedSum(Value input, Flag head_flag) {
    return segmented(input, static_cast<bool>(head_flag), Plus{}, true);
  }
  template <class Flag>
  Value TailSegmentedSum(Value input, Flag tail_flag) {
    return segmented(input, static_cast<bool>(tail_flag), Plus{}, false);
  }
  template <class Flag, class Op>
  Value HeadSegmentedReduce(Value input, Flag head_flag, Op op) {
    return segmented(input, static_cast<bool>(head_flag), op, true);
  }
  template <class Flag, class Op>
  Value TailSegmentedReduce(Value input, Flag tail_flag, Op op) {
    return segmented(input, static_cast<bool>(tail_flag), op, false);
  }

 private:
  template <class Op>
  Value reduce(Value input, Op op, int valid_items) {
    const memcarlo_detail::LogicalWarp warp(logical_warp_threads);
    storage_.slots.values.put(warp.lane, input);
    __syncwarp(warp.mask);
    Value result = input;
    if (warp.lane == 0) {
      const int count = valid_items < warp.lanes ? valid_items : warp.lanes;
      for (int i = 1; i < count; ++i) {
        result = op(result, storage_.slots.values.get(i));
      }
    }
    __syncwarp(warp.mask);
    return result;
  }

  /// Head flags start a segment at their lane, tail flags end one at theirs; lane 0 always
  /// starts one. The first lane of each segment gets the segment's reduction.
  template <class Op>
  Value segmented(Value input, bool flag, Op op, bool head) {
    const memcarlo_detail::LogicalWarp warp(logical_warp_threads);
    storage_.slots.values.put(warp.lane, input);
    storage_.slots.flags[warp.lane] = flag ? 1 : 0;
    __syncwarp(warp.mask);
    const auto& flags = storage_.slots.flags;
    const bool starts =
        warp.lane == 0 || (head ? flags[warp.lane] != 0 : flags[warp.lane - 1] != 0);
    Value result = input;
    if (starts) {
      for (int i = warp.lane + 1; i < warp.lanes; ++i) {
        if (head ? flags[i] != 0 : flags[i - 1] != 0) {
          break;
        }
        result = op(result, storage_.slots.values.get(i));
      }
    }
    __syncwarp(warp.mask);
    return result;
  }

  TempStorage& storage_;
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
