// cub::BlockScan for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): each thread puts
// its partial (its value, or the reduction of its items) in the TempStorage; after a barrier
// thread 0 scans them in rank order and, after a second one, every thread reads its prefix. A
// BlockPrefixCallbackOp is called by the threads of the first warp with the block's aggregate, and
// the value thread 0's call returns seeds the scan (a third barrier hands it to the block), as in
// CUB. A __syncthreads() must separate a reuse of the TempStorage.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_cub.cuh"

namespace cub {

enum BlockScanAlgorithm {
  BLOCK_SCAN_RAKING,
  BLOCK_SCAN_RAKING_MEMOIZE,
  BLOCK_SCAN_WARP_SCANS,
};

template <class Value, int dim_x, BlockScanAlgorithm algorithm = BLOCK_SCAN_RAKING, int dim_y = 1,
          int dim_z = 1, int legacy_arch = 0>
class BlockScan {
  static constexpr int block_threads = dim_x * dim_y * dim_z;

  struct Plus {
    Value operator()(const Value& left, const Value& right) const { return left + right; }
  };
  /// What the block-wide scan gives one thread: the combination of the partials before it
  /// (absent for thread 0 without a seed), its inclusive prefix, and the block's aggregate.
  struct Prefix {
    Value exclusive;
    bool has_exclusive;
    Value inclusive;
    Value aggregate;
  };
  struct NoCallback {};

 public:
  struct TempStorage {
    memcarlo_detail::Slots<Value, block_threads> partials;
    memcarlo_detail::Slots<Value, 1> seed;
  };

  BlockScan() : storage_(private_storage()) {}
  explicit BlockScan(TempStorage& storage) : storage_(storage) {}

  // ---- one item per thread
  void ExclusiveSum(Value input, Value& output) { ExclusiveScan(input, output, Value{}, Plus{}); }
  void ExclusiveSum(Value input, Value& output, Value& block_aggregate) {
    ExclusiveScan(input, output, Value{}, Plus{}, block_aggregate);
  }
  template <class Callback>
  void ExclusiveSum(Value input, Value& output, Callback& prefix_op) {
    ExclusiveScan(input, output, Plus{}, prefix_op);
  }
  template <class Op>
  void ExclusiveScan(Value input, Value& output, Value initial_value, Op op) {
    Value aggregate;
    ExclusiveScan(input, output, initial_value, op, aggregate);
  }
  template <class Op>
  void ExclusiveScan(Value input, Value& output, Value initial_value, Op op,
                     Value& block_aggregate) {
    const Prefix p = scan(input, op, &initial_value, static_cast<NoCallback*>(nullptr));
    output = p.exclusive;
    block_aggregate = p.aggregate;
  }
  /// Without a seed: thread 0's output is undefined (left as it was).
  template <class Op>
  void ExclusiveScan(Value input, Value& output, Op op) {
    const Prefix p = scan(input, op, nullptr, static_cast<NoCallback*>(nullptr));
    if (p.has_exclusive) {
      output = p.exclusive;
    }
  }
  template <class Op>
  void ExclusiveScan(Value input, Value& output, Op op, Value& block_aggregate) {
    const Prefix p = scan(input, op, nullptr, static_cast<NoCallback*>(nullptr));
    if (p.has_exclusive) {
      output = p.exclusive;
    }
    block_aggregate = p.aggregate;
  }
  template <class Op, class Callback>
  void ExclusiveScan(Value input, Value& output, Op op, Callback& prefix_op) {
    output = scan(input, op, nullptr, &prefix_op).exclusive;
  }
  void InclusiveSum(Value input, Value& output) { InclusiveScan(input, output, Plus{}); }
  void InclusiveSum(Value input, Value& output, Value& block_aggregate) {
    InclusiveScan(input, output, Plus{}, block_aggregate);
  }
  template <class Callback>
  void InclusiveSum(Value input, Value& output, Callback& prefix_op) {
    InclusiveScan(input, output, Plus{}, prefix_op);
  }
  template <class Op>
  void InclusiveScan(Value input, Value& output, Op op) {
    output = scan(input, op, nullptr, static_cast<NoCallback*>(nullptr)).inclusive;
  }
  template <class Op>
  void InclusiveScan(Value input, Value& output, Op op, Value& block_aggregate) {
    const Prefix p = scan(input, op, nullptr, static_cast<NoCallback*>(nullptr));
    output = p.inclusive;
    block_aggregate = p.aggregate;
  }
  template <class Op, class Callback>
  void InclusiveScan(Value input, Value& output, Op op, Callback& prefix_op) {
    output = scan(input, op, nullptr, &prefix_op).inclusive;
  }

  // ---- several items per thread (a blocked arrangement)
  template <int items>
  void ExclusiveSum(Value (&input)[items], Value (&output)[items]) {
    ExclusiveScan(input, output, Value{}, Plus{});
  }
  template <int items>
  void ExclusiveSum(Value (&input)[items], Value (&output)[items], Value& block_aggregate) {
    ExclusiveScan(input, output, Value{}, Plus{}, block_aggregate);
  }
  template <int items, class Callback>
  void ExclusiveSum(Value (&input)[items], Value (&output)[items], Callback& prefix_op) {
    ExclusiveScan(input, output, Plus{}, prefix_op);
  }
  template <int items, class Op>
  void ExclusiveScan(Value (&input)[items], Value (&output)[items], Value initial_value, Op op) {
    Value aggregate;
    ExclusiveScan(input, output, initial_value, op, aggregate);
  }
  template <int items, class Op>
  void ExclusiveScan(Value (&input)[items], Value (&output)[items], Value initial_value, Op op,
                     Value& block_aggregate) {
    block_aggregate =
        scan_items<false>(input, output, op, &initial_value, static_cast<NoCallback*>(nullptr));
  }
  template <int items, class Op>
  void ExclusiveScan(Value (&input)[items], Value (&output)[items], Op op) {
    scan_items<false>(input, output, op, nullptr, static_cast<NoCallback*>(nullptr));
  }
  template <int items, class Op>
  void ExclusiveScan(Value (&input)[items], Value (&output)[items], Op op, Value& block_aggregate) {
    block_aggregate =
        scan_items<false>(input, output, op, nullptr, static_cast<NoCallback*>(nullptr));
  }
  template <int items, class Op, class Callback>
  void ExclusiveScan(Value (&input)[items], Value (&output)[items], Op op, Callback& prefix_op) {
    scan_items<false>(input, output, op, nullptr, &prefix_op);
  }
  template <int items>
  void InclusiveSum(Value (&input)[items], Value (&output)[items]) {
    InclusiveScan(input, output, Plus{});
  }
  template <int items>
  void InclusiveSum(Value (&input)[items], Value (&output)[items], Value& block_aggregate) {
    InclusiveScan(input, output, Plus{}, block_aggregate);
  }
  template <int items, class Callback>
  void InclusiveSum(Value (&input)[items], Value (&output)[items], Callback& prefix_op) {
    InclusiveScan(input, output, Plus{}, prefix_op);
  }
  template <int items, class Op>
  void InclusiveScan(Value (&input)[items], Value (&output)[items], Op op) {
    scan_items<true>(input, output, op, nullptr, static_cast<NoCallback*>(nullptr));
  }
  template <int items, class Op>
  void InclusiveScan(Value (&input)[items], Value (&output)[items], Value initial_value, Op op) {
    scan_items<true>(input, output, op, &initial_value, static_cast<NoCallback*>(nullptr));
  }
  template <int items, class Op>
  void InclusiveScan(Value (&input)[items], Value (&output)[items], Op op, Value& block_aggregate) {
    block_aggregate =
        scan_items<true>(input, output, op, nullptr, static_cast<NoCallback*>(nullptr));
  }
  template <int items, class Op, class Callback>
  void InclusiveScan(Value (&input)[items], Value (&output)[items], Op op, Callback& prefix_op) {
    scan_items<true>(input, output, op, nullptr, &prefix_op);
  }

 private:
  static TempStorage& private_storage() {
    thread_local TempStorage storage;  // per OS thread = per running block
    return storage;
  }

  /// The block-wide scan of one partial per thread, seeded by `seed` or by the callback.
  template <class Op, class Callback>
  Prefix scan(Value partial, Op op, const Value* seed, Callback* callback) {
    const int rank = memcarlo_detail::linear_tid<dim_x, dim_y, dim_z>();
    const int launched = memcarlo_detail::block_threads_launched();
    const int count = launched < block_threads ? launched : block_threads;
    if (rank < block_threads) {
      storage_.partials.put(rank, partial);
    }
    __syncthreads();
    if (rank == 0) {
      Value* values = storage_.partials.data();
      for (int i = 1; i < count; ++i) {
        values[i] = op(values[i - 1], values[i]);
      }
    }
    __syncthreads();
    const int own = rank < count ? rank : count - 1;
    Prefix result{partial, false, storage_.partials.get(own), storage_.partials.get(count - 1)};
    if (own > 0) {
      result.exclusive = storage_.partials.get(own - 1);
      result.has_exclusive = true;
    }
    Value block_seed{};
    bool seeded = seed != nullptr;
    if (seeded) {
      block_seed = *seed;
    }
    if constexpr (!std::is_same_v<Callback, NoCallback>) {
      if (rank < 32) {
        const Value from_callback = (*callback)(result.aggregate);
        if (rank == 0) {
          storage_.seed.put(0, from_callback);
        }
      }
      __syncthreads();
      block_seed = storage_.seed.get(0);
      seeded = true;
    }
    if (seeded) {
      result.exclusive = result.has_exclusive ? op(block_seed, result.exclusive) : block_seed;
      result.has_exclusive = true;
      result.inclusive = op(block_seed, result.inclusive);
    }
    return result;
  }

  /// Scans a blocked arrangement: the block-wide scan of the threads' reductions, then each
  /// thread's items from its exclusive prefix. Returns the block's aggregate (without a seed).
  template <bool inclusive, int items, class Op, class Callback>
  Value scan_items(Value (&input)[items], Value (&output)[items], Op op, const Value* seed,
                   Callback* callback) {
    Value copy[items];
    for (int i = 0; i < items; ++i) {
      copy[i] = input[i];
    }
    Value partial = copy[0];
    for (int i = 1; i < items; ++i) {
      partial = op(partial, copy[i]);
    }
    const Prefix p = scan(partial, op, seed, callback);
    bool has_running = p.has_exclusive;
    Value running = p.exclusive;
    for (int i = 0; i < items; ++i) {
      if (inclusive) {
        running = has_running ? op(running, copy[i]) : copy[i];
        output[i] = running;
      } else {
        if (has_running) {
          output[i] = running;  // thread 0's first item without a seed stays undefined
        }
        running = has_running ? op(running, copy[i]) : copy[i];
      }
      has_running = true;
    }
    return p.aggregate;
  }

  TempStorage& storage_;
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
