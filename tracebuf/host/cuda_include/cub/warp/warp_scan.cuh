// cub::WarpScan for memcarlo's host backend: see cub/warp/warp_reduce.cuh for how a logical warp
// exchanges its values. Each lane combines the values of the lanes up to its own in lane order.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_cub.cuh"
#include "warp_reduce.cuh"

namespace cub {

template <class Value, int logical_warp_threads = 32, int legacy_arch = 0>
class WarpScan {
  static_assert(logical_warp_threads >= 1 && logical_warp_threads <= 32 &&
                    (logical_warp_threads & (logical_warp_threads - 1)) == 0,
                "the emulation's WarpScan takes logical warps of 1, 2, 4, 8, 16 or 32 lanes");

  struct Plus {
    Value operator()(const Value& left, const Value& right) const { return left + right; }
  };
  struct Prefix {
    Value exclusive;
    bool has_exclusive;
    Value inclusive;
    Value aggregate;
  };

 public:
  struct TempStorage {
    memcarlo_detail::WarpSlots<Value, logical_warp_threads> slots;
  };

  explicit WarpScan(TempStorage& storage) : storage_(storage) {}

  void InclusiveSum(Value input, Value& inclusive_output) {
    inclusive_output = scan(input, Plus{}, nullptr).inclusive;
  }
  void InclusiveSum(Value input, Value& inclusive_output, Value& warp_aggregate) {
    const Prefix p = scan(input, Plus{}, nullptr);
    inclusive_output = p.inclusive;
    warp_aggregate = p.aggregate;
  }
  void ExclusiveSum(Value input, Value& exclusive_output) {
    const Value zero{};
    exclusive_output = scan(input, Plus{}, &zero).exclusive;
  }
  void ExclusiveSum(Value input, Value& exclusive_output, Value& warp_aggregate) {
    const Value zero{};
    const Prefix p = scan(input, Plus{}, &zero);
    exclusive_output = p.exclusive;
    warp_aggregate = p.aggregate;
  }
  template <class Op>
  void InclusiveScan(Value input, Value& inclusive_output, Op op) {
    inclusive_output = scan(input, op, nullptr).inclusive;
  }
  template <class Op>
  void InclusiveScan(Value input, Value& inclusive_output, Value initial_value, Op op) {
    inclusive_output = scan(input, op, &initial_value).inclusive;
  }
  template <class Op>
  void InclusiveScan(Value input, Value& inclusive_output, Op op, Value& warp_aggregate) {
    const Prefix p = scan(input, op, nullptr);
    inclusive_output = p.inclusive;
    warp_aggregate = p.aggregate;
  }
  /// Without a seed: lane 0's output is undefined (left as it was).
  template <class Op>
  void ExclusiveScan(Value input, Value& exclusive_output, Op op) {
    const Prefix p = scan(input, op, nullptr);
    if (p.has_exclusive) {
      exclusive_output = p.exclusive;
    }
  }
  template <class Op>
  void ExclusiveScan(Value input, Value& exclusive_output, Value initial_value, Op op) {
    exclusive_output = scan(input, op, &initial_value).exclusive;
  }
  template <class Op>
  void ExclusiveScan(Value input, Value& exclusive_output, Op op, Value& warp_aggregate) {
    const Prefix p = scan(input, op, nullptr);
    if (p.has_exclusive) {
      exclusive_output = p.exclusive;
    }
    warp_aggregate = p.aggregate;
  }
  template <class Op>
  void ExclusiveScan(Value input, Value& exclusive_output, Value initial_value, Op op,
                     Value& warp_aggregate) {
    const Prefix p = scan(input, op, &initial_value);
    exclusive_output = p.exclusive;
    warp_aggregate = p.aggregate;
  }
  template <class Op>
  void Scan(Value input, Value& inclusive_output, Value& exclusive_output, Op op) {
    const Prefix p = scan(input, op, nullptr);
    inclusive_output = p.inclusive;
    if (p.has_exclusive) {
      exclusive_output = p.exclusive;
    }
  }
  template <class Op>
  void Scan(Value input, Value& inclusive_output, Value& exclusive_output, Value initial_value,
            Op op) {
    const Prefix p = scan(input, op, &initial_value);
    inclusive_output = p.inclusive;
    exclusive_output = p.exclusive;
  }
  /// The value of `src_lane` of the logical warp, in every lane.
  Value Broadcast(Value input, unsigned src_lane) {
    const memcarlo_detail::LogicalWarp warp(logical_warp_threads);
    storage_.slots.values.put(warp.lane, input);
    __syncwarp(warp.mask);
    const Value result = storage_.slots.values.get(static_cast<int>(src_lane));
    __syncwarp(warp.mask);
    return result;
  }

 private:
  /// The logical warp's scan, seeded by `seed` when given (the seed is not in the aggregate).
  template <class Op>
  Prefix scan(Value input, Op op, const Value* seed) {
    const memcarlo_detail::LogicalWarp warp(logical_warp_threads);
    storage_.slots.values.put(warp.lane, input);
    __syncwarp(warp.mask);
    Prefix result{input, false, input, input};
    Value running = storage_.slots.values.get(0);
    for (int i = 1; i < warp.lanes; ++i) {
      if (i == warp.lane) {
        result.exclusive = running;
        result.has_exclusive = true;
      }
      running = op(running, storage_.slots.values.get(i));
      if (i == warp.lane) {
        result.inclusive = running;
      }
    }
    if (warp.lane == 0) {
      result.inclusive = storage_.slots.values.get(0);
    }
    result.aggregate = running;
    __syncwarp(warp.mask);
    if (seed != nullptr) {
      result.exclusive = result.has_exclusive ? op(*seed, result.exclusive) : *seed;
      result.has_exclusive = true;
      result.inclusive = op(*seed, result.inclusive);
    }
    return result;
  }

  TempStorage& storage_;
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
