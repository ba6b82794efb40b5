// cub::BlockReduce for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh): each thread puts
// its value in the TempStorage, the block synchronizes, and thread 0 combines the values in rank
// order (so a non-commutative operator gets CUB's order). As in CUB, only thread 0's result is
// defined (the others get their own input back), and a __syncthreads() must separate a reuse of
// the TempStorage.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_cub.cuh"

namespace cub {

enum BlockReduceAlgorithm {
  BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
  BLOCK_REDUCE_RAKING,
  BLOCK_REDUCE_WARP_REDUCTIONS,
};

template <class Value, int dim_x, BlockReduceAlgorithm algorithm = BLOCK_REDUCE_WARP_REDUCTIONS,
          int dim_y = 1, int dim_z = 1, int legacy_arch = 0>
class BlockReduce {
  static constexpr int block_threads = dim_x * dim_y * dim_z;

 public:
  struct TempStorage {
    memcarlo_detail::Slots<Value, block_threads> values;
  };

  BlockReduce() : storage_(private_storage()) {}
  explicit BlockReduce(TempStorage& storage) : storage_(storage) {}

  template <class Op>
  Value Reduce(Value input, Op op) {
    return reduce(input, op, block_threads);
  }
  template <class Op>
  Value Reduce(Value input, Op op, int num_valid) {
    return reduce(input, op, num_valid);
  }
  template <int items, class Op>
  Value Reduce(Value (&inputs)[items], Op op) {
    Value partial = inputs[0];
    for (int i = 1; i < items; ++i) {
      partial = op(partial, inputs[i]);
    }
    return reduce(partial, op, block_threads);
  }
  Value Sum(Value input) { return reduce(input, Sum_{}, block_threads); }
  Value Sum(Value input, int num_valid) { return reduce(input, Sum_{}, num_valid); }
  template <int items>
  Value Sum(Value (&inputs)[items]) {
    return Reduce(inputs, Sum_{});
  }

 private:
  struct Sum_ {
    Value operator()(const Value& left, const Value& right) const { return left + right; }
  };

  static TempStorage& private_storage() {
    thread_local TempStorage storage;  // per OS thread = per running block
    return storage;
  }

  template <class Op>
  Value reduce(Value input, Op op, int num_valid) {
    const int rank = memcarlo_detail::linear_tid<dim_x, dim_y, dim_z>();
    if (rank < block_threads) {
      storage_.values.put(rank, input);
    }
    __syncthreads();
    if (rank != 0) {
      return input;
    }
    int count = num_valid < block_threads ? num_valid : block_threads;
    const int launched = memcarlo_detail::block_threads_launched();
    count = count < launched ? count : launched;
    Value result = storage_.values.get(0);
    for (int i = 1; i < count; ++i) {
      result = op(result, storage_.values.get(i));
    }
    return result;
  }

  TempStorage& storage_;
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
