// Stand-in for <cooperative_groups.h> on the host backend: thread blocks, warp tiles and
// coalesced groups map onto the emulated __syncthreads and warp collectives. Grid groups exist so
// that programs compile, but grid.sync() fails with a message: the emulation runs blocks to
// completion one after another and cannot synchronize a whole grid.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

#include <bit>
#include "memcarlo/host/detail/call_site.h"

#include "memcarlo/host/cuda_runtime_emulation.h"

namespace cooperative_groups {

class thread_block {
 public:
  void sync(::memcarlo::host::CallSite where = {}) const { __syncthreads(where); }
  unsigned thread_rank() const {
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  }
  unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
  unsigned num_threads() const { return size(); }
  dim3 group_index() const { return dim3(blockIdx); }
  dim3 thread_index() const { return dim3(threadIdx); }
  dim3 group_dim() const { return blockDim; }
  dim3 dim_threads() const { return blockDim; }
};

inline thread_block this_thread_block() {
  return thread_block();
}

class grid_group {
 public:
  [[noreturn]] void sync(::memcarlo::host::CallSite where = {}) const {
    ::memcarlo::host::detail::unsupported("cooperative groups grid synchronization (grid.sync())",
                                          where);
  }
  bool is_valid() const { return false; }
  unsigned long long thread_rank() const {
    const unsigned long long block =
        (static_cast<unsigned long long>(blockIdx.z) * gridDim.y + blockIdx.y) * gridDim.x +
        blockIdx.x;
    return block * this_thread_block().size() + this_thread_block().thread_rank();
  }
  unsigned long long size() const {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z *
           this_thread_block().size();
  }
  unsigned long long num_threads() const { return size(); }
};

inline grid_group this_grid() {
  return grid_group();
}

namespace detail {
inline unsigned lane_id() {
  return this_thread_block().thread_rank() % 32u;
}
}  // namespace detail

/// A group of Size consecutive lanes of a warp (Size a power of two, at most 32).
template <unsigned Size>
class thread_block_tile {
  static_assert(Size >= 1 && Size <= 32 && std::has_single_bit(Size),
                "tile sizes are powers of two up to 32");

 public:
  unsigned mask() const {
    const unsigned first = detail::lane_id() / Size * Size;
    return Size == 32 ? 0xffffffffu : ((1u << Size) - 1u) << first;
  }
  void sync(::memcarlo::host::CallSite where = {}) const { __syncwarp(mask(), where); }
  unsigned thread_rank() const { return detail::lane_id() % Size; }
  unsigned size() const { return Size; }
  unsigned num_threads() const { return Size; }
  unsigned meta_group_rank() const { return this_thread_block().thread_rank() / Size; }
  unsigned meta_group_size() const { return (this_thread_block().size() + Size - 1) / Size; }
  template <class Value>
  Value shfl(Value value, int source, ::memcarlo::host::CallSite where = {}) const {
    return __shfl_sync(mask(), value, source, static_cast<int>(Size), where);
  }
  template <class Value>
  Value shfl_down(Value value, unsigned delta, ::memcarlo::host::CallSite where = {}) const {
    return __shfl_down_sync(mask(), value, delta, static_cast<int>(Size), where);
  }
  template <class Value>
  Value shfl_up(Value value, unsigned delta, ::memcarlo::host::CallSite where = {}) const {
    return __shfl_up_sync(mask(), value, delta, static_cast<int>(Size), where);
  }
  template <class Value>
  Value shfl_xor(Value value, int lane_mask, ::memcarlo::host::CallSite where = {}) const {
    return __shfl_xor_sync(mask(), value, lane_mask, static_cast<int>(Size), where);
  }
  int any(int predicate, ::memcarlo::host::CallSite where = {}) const {
    return __any_sync(mask(), predicate, where);
  }
  int all(int predicate, ::memcarlo::host::CallSite where = {}) const {
    return __all_sync(mask(), predicate, where);
  }
  unsigned ballot(int predicate, ::memcarlo::host::CallSite where = {}) const {
    const unsigned first = detail::lane_id() / Size * Size;
    return (__ballot_sync(mask(), predicate, where) >> first) &
           (Size == 32 ? 0xffffffffu : (1u << Size) - 1u);
  }
};

template <unsigned Size>
thread_block_tile<Size> tiled_partition(const thread_block&) {
  return thread_block_tile<Size>();
}

/// The lanes of the warp that reach coalesced_threads() together.
class coalesced_group {
 public:
  explicit coalesced_group(unsigned mask) : mask_(mask) {}
  unsigned thread_rank() const {
    return static_cast<unsigned>(std::popcount(mask_ & ((1u << detail::lane_id()) - 1u)));
  }
  unsigned size() const { return static_cast<unsigned>(std::popcount(mask_)); }
  unsigned num_threads() const { return size(); }
  void sync(::memcarlo::host::CallSite where = {}) const { __syncwarp(mask_, where); }
  template <class Value>
  Value shfl(Value value, int rank, ::memcarlo::host::CallSite where = {}) const {
    // Rank r is the r-th set lane of the mask.
    unsigned lanes = mask_;
    for (int skipped = 0; skipped < rank && lanes != 0; ++skipped) {
      lanes &= lanes - 1;
    }
    const int lane = lanes != 0 ? std::countr_zero(lanes) : 0;
    return __shfl_sync(mask_, value, lane, 32, where);
  }
  unsigned ballot(int predicate, ::memcarlo::host::CallSite where = {}) const {
    return __ballot_sync(mask_, predicate, where);
  }

 private:
  unsigned mask_;
};

inline coalesced_group coalesced_threads(::memcarlo::host::CallSite where = {}) {
  return coalesced_group(__activemask(where));
}

template <class Group>
void sync(const Group& group, ::memcarlo::host::CallSite where = {}) {
  group.sync(where);
}

template <class Value>
struct plus {
  Value operator()(const Value& left, const Value& right) const { return left + right; }
};
template <class Value>
struct less {
  Value operator()(const Value& left, const Value& right) const {
    return right < left ? right : left;
  }
};
template <class Value>
struct greater {
  Value operator()(const Value& left, const Value& right) const {
    return left < right ? right : left;
  }
};

/// cg::reduce over a tile: a butterfly of shuffles, every lane gets the result.
template <unsigned Size, class Value, class Operation>
Value reduce(const thread_block_tile<Size>& tile, Value value, Operation op) {
  for (unsigned offset = Size / 2; offset > 0; offset /= 2) {
    value = op(value, tile.shfl_xor(value, static_cast<int>(offset)));
  }
  return value;
}

}  // namespace cooperative_groups
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
