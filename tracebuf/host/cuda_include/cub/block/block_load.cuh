// cub::BlockLoad and the cub::LoadDirect* functions for memcarlo's host backend (see
// cub/detail/memcarlo_cub.cuh). Each thread reads, and the trace records, the addresses CUB's
// algorithm reads from global memory: blocked (thread t reads items t*N ... t*N+N-1: DIRECT and
// VECTORIZE, whose vector loads are recorded item by item), striped (item i of thread t at
// i*BLOCK_THREADS+t: STRIPED and TRANSPOSE) or warp-striped (WARP_TRANSPOSE and its TIMESLICED
// form). The items a thread ends up with are CUB's: blocked, except for STRIPED; for the
// transposing algorithms they are read directly from their places (what CUB's exchange through
// shared memory hands over) without being recorded again.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include "../detail/memcarlo_cub.cuh"

namespace cub {

enum BlockLoadAlgorithm {
  BLOCK_LOAD_DIRECT,
  BLOCK_LOAD_STRIPED,
  BLOCK_LOAD_VECTORIZE,
  BLOCK_LOAD_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED,
};

namespace memcarlo_detail {

inline constexpr int no_limit = 0x7fffffff;

/// Reads `items` values, the i-th from `*(block_itr + offset(i))`, where offset(i) < valid_items;
/// the others get `fill` when one is given and are left alone otherwise. Every read is recorded.
template <class Value, int items, class Iterator, class Offset, class Fill>
inline void load_items(Iterator block_itr, Value (&out)[items], Offset offset, int valid_items,
                       const Fill* fill, StaticLoad load) {
  for (int i = 0; i < items; ++i) {
    const int at = offset(i);
    if (at < valid_items) {
      out[i] = access(block_itr, at, load);
    } else if (fill != nullptr) {
      out[i] = *fill;
    }
  }
}

/// Records a read of `*(block_itr + at)` that another thread's items hold (a transposing load).
template <class Iterator>
inline void record_read(Iterator block_itr, int at, StaticLoad load) {
  auto pointer = traced_pointer(block_itr);
  if constexpr (!std::is_null_pointer_v<decltype(pointer)>) {
    record(pointer + at, load);
  }
}

}  // namespace memcarlo_detail

// ---- the direct forms (linear_tid is the thread's rank among the threads that share block_itr)

template <class Value, int items, class Iterator>
inline void LoadDirectBlocked(int linear_tid, Iterator block_itr, Value (&dst_items)[items]) {
  memcarlo_detail::load_items(
      block_itr, dst_items, [&](int i) { return linear_tid * items + i; },
      memcarlo_detail::no_limit, static_cast<const Value*>(nullptr),
      memcarlo_detail::direct_load_read);
}
template <class Value, int items, class Iterator>
inline void LoadDirectBlocked(int linear_tid, Iterator block_itr, Value (&dst_items)[items],
                              int valid_items) {
  memcarlo_detail::load_items(
      block_itr, dst_items, [&](int i) { return linear_tid * items + i; }, valid_items,
      static_cast<const Value*>(nullptr), memcarlo_detail::direct_load_read);
}
template <class Value, class Default, int items, class Iterator>
inline void LoadDirectBlocked(int linear_tid, Iterator block_itr, Value (&dst_items)[items],
                              int valid_items, Default oob_default) {
  const Value fill = oob_default;
  memcarlo_detail::load_items(
      block_itr, dst_items, [&](int i) { return linear_tid * items + i; }, valid_items, &fill,
      memcarlo_detail::direct_load_read);
}
template <class Value, int items>
inline void LoadDirectBlockedVectorized(int linear_tid, Value* block_ptr,
                                        Value (&dst_items)[items]) {
  LoadDirectBlocked(linear_tid, block_ptr, dst_items);
}
template <int block_threads, class Value, int items, class Iterator>
inline void LoadDirectStriped(int linear_tid, Iterator block_itr, Value (&dst_items)[items]) {
  memcarlo_detail::load_items(
      block_itr, dst_items, [&](int i) { return i * block_threads + linear_tid; },
      memcarlo_detail::no_limit, static_cast<const Value*>(nullptr),
      memcarlo_detail::direct_load_read);
}
template <int block_threads, class Value, int items, class Iterator>
inline void LoadDirectStriped(int linear_tid, Iterator block_itr, Value (&dst_items)[items],
                              int valid_items) {
  memcarlo_detail::load_items(
      block_itr, dst_items, [&](int i) { return i * block_threads + linear_tid; }, valid_items,
      static_cast<const Value*>(nullptr), memcarlo_detail::direct_load_read);
}
template <int block_threads, class Value, class Default, int items, class Iterator>
inline void LoadDirectStriped(int linear_tid, Iterator block_itr, Value (&dst_items)[items],
                              int valid_items, Default oob_default) {
  const Value fill = oob_default;
  memcarlo_detail::load_items(
      block_itr, dst_items, [&](int i) { return i * block_threads + linear_tid; }, valid_items,
      &fill, memcarlo_detail::direct_load_read);
}
template <class Value, int items, class Iterator>
inline void LoadDirectWarpStriped(int linear_tid, Iterator block_itr, Value (&dst_items)[items]) {
  const int base = linear_tid / 32 * 32 * items + linear_tid % 32;
  memcarlo_detail::load_items(
      block_itr, dst_items, [&](int i) { return base + i * 32; }, memcarlo_detail::no_limit,
      static_cast<const Value*>(nullptr), memcarlo_detail::direct_load_read);
}
template <class Value, int items, class Iterator>
inline void LoadDirectWarpStriped(int linear_tid, Iterator block_itr, Value (&dst_items)[items],
                                  int valid_items) {
  const int base = linear_tid / 32 * 32 * items + linear_tid % 32;
  memcarlo_detail::load_items(
      block_itr, dst_items, [&](int i) { return base + i * 32; }, valid_items,
      static_cast<const Value*>(nullptr), memcarlo_detail::direct_load_read);
}
template <class Value, class Default, int items, class Iterator>
inline void LoadDirectWarpStriped(int linear_tid, Iterator block_itr, Value (&dst_items)[items],
                                  int valid_items, Default oob_default) {
  const int base = linear_tid / 32 * 32 * items + linear_tid % 32;
  const Value fill = oob_default;
  memcarlo_detail::load_items(
      block_itr, dst_items, [&](int i) { return base + i * 32; }, valid_items, &fill,
      memcarlo_detail::direct_load_read);
}

template <class Value, int dim_x, int items_per_thread,
          BlockLoadAlgorithm algorithm = BLOCK_LOAD_DIRECT, int dim_y = 1, int dim_z = 1,
          int legacy_arch = 0>
class BlockLoad {
  static constexpr int block_threads = dim_x * dim_y * dim_z;

 public:
  /// Nothing is exchanged through it here; it exists to be declared and shared in unions.
  struct TempStorage {
    unsigned char unused;
  };

  BlockLoad() = default;
  explicit BlockLoad(TempStorage&) {}

  template <class Iterator>
  void Load(Iterator block_itr, Value (&dst_items)[items_per_thread]) {
    load(block_itr, dst_items, memcarlo_detail::no_limit, static_cast<const Value*>(nullptr));
  }
  template <class Iterator>
  void Load(Iterator block_itr, Value (&dst_items)[items_per_thread], int valid_items) {
    load(block_itr, dst_items, valid_items, static_cast<const Value*>(nullptr));
  }
  template <class Iterator, class Default>
  void Load(Iterator block_itr, Value (&dst_items)[items_per_thread], int valid_items,
            Default oob_default) {
    const Value fill = oob_default;
    load(block_itr, dst_items, valid_items, &fill);
  }

 private:
  template <class Iterator>
  void load(Iterator block_itr, Value (&dst_items)[items_per_thread], int valid_items,
            const Value* fill) {
    constexpr int items = items_per_thread;
    const int rank = memcarlo_detail::linear_tid<dim_x, dim_y, dim_z>();
    const auto blocked = [&](int i) { return rank * items + i; };
    const auto striped = [&](int i) { return i * block_threads + rank; };
    const auto warp_striped = [&](int i) { return rank / 32 * 32 * items + rank % 32 + i * 32; };
    constexpr auto read = memcarlo_detail::block_load_read;
    switch (algorithm) {
      case BLOCK_LOAD_DIRECT:
      case BLOCK_LOAD_VECTORIZE:
        memcarlo_detail::load_items(block_itr, dst_items, blocked, valid_items, fill, read);
        return;
      case BLOCK_LOAD_STRIPED:
        memcarlo_detail::load_items(block_itr, dst_items, striped, valid_items, fill, read);
        return;
      case BLOCK_LOAD_TRANSPOSE:
      case BLOCK_LOAD_WARP_TRANSPOSE:
      case BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED:
        for (int i = 0; i < items; ++i) {
          const int at = algorithm == BLOCK_LOAD_TRANSPOSE ? striped(i) : warp_striped(i);
          if (at < valid_items) {
            memcarlo_detail::record_read(block_itr, at, read);
          }
          if (blocked(i) < valid_items) {
            dst_items[i] = memcarlo_detail::peek(block_itr, blocked(i));
          } else if (fill != nullptr) {
            dst_items[i] = *fill;
          }
        }
        return;
    }
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
