// Stand-in for <cooperative_groups.h> on the host backend: thread blocks, tiles and coalesced
// groups map onto the emulated __syncthreads, warp collectives and (for tiles wider than a warp) a
// barrier over a range of the block's threads. A grid group's sync() is a barrier over the whole
// grid in a cooperative launch (cudaLaunchCooperativeKernel), whose blocks the emulation keeps
// resident together.
//
// As in CUDA, every group derives from the type-erased thread_group, which holds what its
// operations need (its kind, its lanes or its range of the block) and dispatches on the kind, so a
// group passed by value as a thread_group (`void f(thread_group g)`) still synchronizes and ranks
// correctly.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

// The emulation header, force-included before this one, has included these already: nothing from
// the standard library is first read after its keyword macros.
#include <bit>
#include <cstring>
#include <type_traits>
#include "memcarlo/host/detail/call_site.h"

#include "memcarlo/host/cuda_runtime_emulation.h"

namespace cooperative_groups {

namespace detail {
inline unsigned block_rank() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
inline unsigned block_size() {
  return blockDim.x * blockDim.y * blockDim.z;
}
inline unsigned lane_id() {
  return block_rank() % 32u;
}
/// What thread_group::get_type() returns, numbered as CUDA numbers the group kinds. Tiles of at
/// most 32 threads are coalesced groups to CUDA too.
inline constexpr unsigned coalesced_group_id = 1;
inline constexpr unsigned grid_group_id = 3;
inline constexpr unsigned thread_block_id = 4;
inline constexpr unsigned multi_tile_group_id = 5;

/// `count` lanes from `first_lane` as a warp mask (count at most 32 - first_lane).
inline unsigned lane_mask(unsigned first_lane, unsigned count) {
  return (count >= 32 ? 0xffffffffu : (1u << count) - 1u) << first_lane;
}

struct group_factory;
}  // namespace detail

/// Any group, by value: sync(), size() and thread_rank() dispatch on the kind of group it was
/// made from.
class thread_group {
 public:
  unsigned long long size() const {
    switch (type_) {
      case detail::thread_block_id:
        return detail::block_size();
      case detail::multi_tile_group_id:
        return extent_;
      case detail::grid_group_id:
        return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z *
               detail::block_size();
      default:
        return static_cast<unsigned long long>(std::popcount(mask_));
    }
  }
  unsigned long long num_threads() const { return size(); }
  unsigned long long thread_rank() const {
    switch (type_) {
      case detail::thread_block_id:
        return detail::block_rank();
      case detail::multi_tile_group_id:
        return detail::block_rank() - first_;
      case detail::grid_group_id:
        return ((static_cast<unsigned long long>(blockIdx.z) * gridDim.y + blockIdx.y) * gridDim.x +
                blockIdx.x) *
                   detail::block_size() +
               detail::block_rank();
      default:
        return static_cast<unsigned long long>(
            std::popcount(mask_ & ((1u << detail::lane_id()) - 1u)));
    }
  }
  void sync(::memcarlo::host::CallSite where = {}) const {
    switch (type_) {
      case detail::thread_block_id:
        __syncthreads(where);
        return;
      case detail::multi_tile_group_id:
        ::memcarlo::host::detail::tile_barrier(first_, extent_, "thread_group::sync", where);
        return;
      case detail::grid_group_id:
        ::memcarlo::host::detail::grid_barrier(where);
        return;
      default:
        __syncwarp(mask_, where);
    }
  }
  unsigned get_type() const { return type_; }

 protected:
  explicit thread_group(unsigned type, unsigned mask = 0, unsigned first = 0, unsigned extent = 0)
      : type_(type), mask_(mask), first_(first), extent_(extent) {}
  friend struct detail::group_factory;

  unsigned type_;
  unsigned mask_;    // groups within one warp: their lanes
  unsigned first_;   // tiles wider than a warp: the block rank of their first thread
  unsigned extent_;  // tiles wider than a warp: their threads
};

class thread_block : public thread_group {
 public:
  thread_block() : thread_group(detail::thread_block_id) {}

  void sync(::memcarlo::host::CallSite where = {}) const { __syncthreads(where); }
  unsigned thread_rank() const { return detail::block_rank(); }
  unsigned size() const { return detail::block_size(); }
  unsigned num_threads() const { return size(); }
  dim3 group_index() const { return dim3(blockIdx); }
  dim3 thread_index() const { return dim3(threadIdx); }
  dim3 group_dim() const { return blockDim; }
  dim3 dim_threads() const { return blockDim; }

  /// A split barrier (CUDA 12): the emulation waits for the whole block at barrier_wait.
  struct arrival_token {};
  arrival_token barrier_arrive() const { return arrival_token{}; }
  void barrier_wait(arrival_token&&, ::memcarlo::host::CallSite where = {}) const {
    __syncthreads(where);
  }
};

inline thread_block this_thread_block() {
  return thread_block();
}

/// The scratch memory a GPU without reserved shared memory needs for tiles wider than a warp
/// (`__shared__ block_tile_memory<256> scratch; this_thread_block(scratch)`). The host backend
/// keeps that state in the runtime, so it holds nothing. CUDA 12 and 13 take the block size;
/// CUDA 11 took a communication size first, hence the second parameter.
template <unsigned MaxBlockSize = 1024, unsigned LegacyMaxBlockSize = 0>
struct block_tile_memory {};

template <unsigned MaxBlockSize, unsigned LegacyMaxBlockSize>
thread_block this_thread_block(block_tile_memory<MaxBlockSize, LegacyMaxBlockSize>&) {
  return thread_block();
}

/// The whole grid. Valid, and sync() a barrier over every thread of every block, in a launch
/// made with cudaLaunchCooperativeKernel, as in CUDA; sync() in another launch ends the program
/// naming the line (a GPU's behaviour there is undefined).
class grid_group : public thread_group {
 public:
  grid_group() : thread_group(detail::grid_group_id) {}

  void sync(::memcarlo::host::CallSite where = {}) const {
    ::memcarlo::host::detail::grid_barrier(where);
  }
  bool is_valid() const { return ::memcarlo::host::detail::cooperative_launch(); }
  unsigned long long thread_rank() const { return thread_group::thread_rank(); }
  unsigned long long size() const { return thread_group::size(); }
  unsigned long long num_threads() const { return size(); }
  unsigned long long num_blocks() const {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z;
  }
  unsigned long long block_rank() const {
    return (static_cast<unsigned long long>(blockIdx.z) * gridDim.y + blockIdx.y) * gridDim.x +
           blockIdx.x;
  }
  dim3 group_dim() const { return dim_blocks(); }
  dim3 dim_blocks() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
};

inline grid_group this_grid() {
  return grid_group();
}

namespace detail {

/// What thread_block_tile<Size> is for Size up to 32: Size consecutive lanes of a warp, whose
/// operations are the emulated warp collectives under the tile's mask.
template <unsigned Size>
class warp_tile : public thread_group {
  static_assert(Size >= 1 && Size <= 32 && std::has_single_bit(Size),
                "tile sizes are powers of two up to 32, or 64, 128, 256 and 512");

 public:
  unsigned mask() const { return mask_; }
  void sync(::memcarlo::host::CallSite where = {}) const { __syncwarp(mask_, where); }
  unsigned thread_rank() const { return lane_id() % Size; }
  unsigned size() const { return Size; }
  unsigned num_threads() const { return Size; }
  unsigned meta_group_rank() const { return meta_group_rank_; }
  unsigned meta_group_size() const { return meta_group_size_; }
  template <class Value>
  Value shfl(Value value, int source, ::memcarlo::host::CallSite where = {}) const {
    return by_pieces(value, [&](auto piece) {
      return __shfl_sync(mask_, piece, source, static_cast<int>(Size), where);
    });
  }
  template <class Value>
  Value shfl_down(Value value, unsigned delta, ::memcarlo::host::CallSite where = {}) const {
    return by_pieces(value, [&](auto piece) {
      return __shfl_down_sync(mask_, piece, delta, static_cast<int>(Size), where);
    });
  }
  template <class Value>
  Value shfl_up(Value value, unsigned delta, ::memcarlo::host::CallSite where = {}) const {
    return by_pieces(value, [&](auto piece) {
      return __shfl_up_sync(mask_, piece, delta, static_cast<int>(Size), where);
    });
  }
  template <class Value>
  Value shfl_xor(Value value, int lane_mask, ::memcarlo::host::CallSite where = {}) const {
    return by_pieces(value, [&](auto piece) {
      return __shfl_xor_sync(mask_, piece, lane_mask, static_cast<int>(Size), where);
    });
  }
  int any(int predicate, ::memcarlo::host::CallSite where = {}) const {
    return __any_sync(mask_, predicate, where);
  }
  int all(int predicate, ::memcarlo::host::CallSite where = {}) const {
    return __all_sync(mask_, predicate, where);
  }
  unsigned ballot(int predicate, ::memcarlo::host::CallSite where = {}) const {
    return (__ballot_sync(mask_, predicate, where) >> (lane_id() / Size * Size)) &
           lane_mask(0, Size);
  }

 protected:
  /// `shuffle` applied to `value`, or, for a value wider than 8 bytes (a tile's shuffles take
  /// trivially copyable values of up to 32 bytes, a uint4 or a small struct), to each 8-byte
  /// piece of it: every lane moves its whole value, as on the GPU.
  template <class Value, class Shuffle>
  static Value by_pieces(const Value& value, Shuffle shuffle) {
    if constexpr (sizeof(Value) <= sizeof(std::uint64_t)) {
      return shuffle(value);
    } else {
      static_assert(std::is_trivially_copyable_v<Value> && sizeof(Value) <= 32,
                    "cooperative groups shuffles take trivially copyable values of at most 32 "
                    "bytes");
      std::uint64_t pieces[(sizeof(Value) + 7) / 8] = {};
      std::memcpy(pieces, &value, sizeof(Value));
      for (std::uint64_t& piece : pieces) piece = shuffle(piece);
      struct Bytes {
        unsigned char bytes[sizeof(Value)];
      } bytes;
      std::memcpy(bytes.bytes, pieces, sizeof(Value));
      return std::bit_cast<Value>(bytes);
    }
  }

  warp_tile(unsigned meta_rank, unsigned meta_size)
      : thread_group(coalesced_group_id, lane_mask(lane_id() / Size * Size, Size)),
        meta_group_rank_(meta_rank),
        meta_group_size_(meta_size) {}

 private:
  unsigned meta_group_rank_;
  unsigned meta_group_size_;
};

/// A value of a collective of a tile wider than a warp, through the block's exchange slots.
template <class Value>
void store_exchange_slot(unsigned rank, const Value& value, ::memcarlo::host::CallSite where) {
  static_assert(std::is_trivially_copyable_v<Value> &&
                    sizeof(Value) <= ::memcarlo::host::detail::kTileExchangeSlotBytes,
                "collectives of tiles wider than a warp take values of at most 16 bytes");
  std::memcpy(::memcarlo::host::detail::tile_exchange_slots(where) +
                  std::size_t{rank} * ::memcarlo::host::detail::kTileExchangeSlotBytes,
              &value, sizeof(Value));
}
template <class Value>
Value load_exchange_slot(unsigned rank, ::memcarlo::host::CallSite where) {
  Value value;
  std::memcpy(&value,
              ::memcarlo::host::detail::tile_exchange_slots(where) +
                  std::size_t{rank} * ::memcarlo::host::detail::kTileExchangeSlotBytes,
              sizeof(Value));
  return value;
}

/// What thread_block_tile<Size> is for Size 64 to 512: Size consecutive threads of the block (a
/// whole number of warps). sync() is a barrier over them; a collective stores each thread's value
/// in its exchange slot, synchronizes, reads what it needs and synchronizes again, so that the
/// next collective may reuse the slots.
template <unsigned Size>
class multi_warp_tile : public thread_group {
  static_assert(Size == 64 || Size == 128 || Size == 256 || Size == 512,
                "tile sizes are powers of two up to 32, or 64, 128, 256 and 512");

 public:
  void sync(::memcarlo::host::CallSite where = {}) const {
    ::memcarlo::host::detail::tile_barrier(first_, Size, "thread_block_tile::sync", where);
  }
  unsigned thread_rank() const { return block_rank() - first_; }
  unsigned size() const { return Size; }
  unsigned num_threads() const { return Size; }
  unsigned meta_group_rank() const { return meta_group_rank_; }
  unsigned meta_group_size() const { return meta_group_size_; }
  template <class Value>
  Value shfl(Value value, unsigned source, ::memcarlo::host::CallSite where = {}) const {
    store_exchange_slot(block_rank(), value, where);
    sync(where);
    const Value result = load_exchange_slot<Value>(first_ + source % Size, where);
    sync(where);
    return result;
  }
  int any(int predicate, ::memcarlo::host::CallSite where = {}) const {
    return fold(
               predicate != 0, [](bool left, bool right) { return left || right; }, where)
               ? 1
               : 0;
  }
  int all(int predicate, ::memcarlo::host::CallSite where = {}) const {
    return fold(
               predicate != 0, [](bool left, bool right) { return left && right; }, where)
               ? 1
               : 0;
  }
  /// Every thread's `value` combined with `operation` in rank order; every thread gets the result.
  template <class Value, class Operation>
  Value fold(Value value, Operation operation, ::memcarlo::host::CallSite where) const {
    store_exchange_slot(block_rank(), value, where);
    sync(where);
    const unsigned present = block_size() - first_ < Size ? block_size() - first_ : Size;
    Value result = load_exchange_slot<Value>(first_, where);
    for (unsigned rank = 1; rank < present; ++rank) {
      result = operation(result, load_exchange_slot<Value>(first_ + rank, where));
    }
    sync(where);
    return result;
  }

 protected:
  multi_warp_tile(unsigned meta_rank, unsigned meta_size)
      : thread_group(multi_tile_group_id, 0, block_rank() / Size * Size, Size),
        meta_group_rank_(meta_rank),
        meta_group_size_(meta_size) {}

 private:
  unsigned meta_group_rank_;
  unsigned meta_group_size_;
};

template <unsigned Size>
using tile_implementation =
    std::conditional_t<(Size <= 32), warp_tile<Size>, multi_warp_tile<Size>>;

}  // namespace detail

/// Size consecutive threads of the block: a power of two up to 32 (lanes of one warp) or 64, 128,
/// 256 or 512 (whole warps). Parent is the group it was partitioned from, as in CUDA; tiles of
/// one size convert into each other whatever their parents.
template <unsigned Size, class Parent = void>
class thread_block_tile : public detail::tile_implementation<Size> {
 public:
  /// The calling thread's tile of the block.
  thread_block_tile()
      : detail::tile_implementation<Size>(detail::block_rank() / Size,
                                          (detail::block_size() + Size - 1) / Size) {}
  /// The calling thread's tile, numbered `meta_rank` of `meta_size` in its parent.
  thread_block_tile(unsigned meta_rank, unsigned meta_size)
      : detail::tile_implementation<Size>(meta_rank, meta_size) {}
  template <class OtherParent>
  thread_block_tile(const thread_block_tile<Size, OtherParent>& other)
      : detail::tile_implementation<Size>(other) {}
};

template <unsigned Size>
thread_block_tile<Size, thread_block> tiled_partition(const thread_block& parent) {
  return thread_block_tile<Size, thread_block>(parent.thread_rank() / Size,
                                               (parent.size() + Size - 1) / Size);
}
template <unsigned Size, unsigned ParentSize, class GrandParent>
thread_block_tile<Size, thread_block_tile<ParentSize, GrandParent>> tiled_partition(
    const thread_block_tile<ParentSize, GrandParent>& parent) {
  static_assert(Size < ParentSize, "Tile size bigger or equal to the parent group size");
  return thread_block_tile<Size, thread_block_tile<ParentSize, GrandParent>>(
      parent.thread_rank() / Size, ParentSize / Size);
}

inline thread_block_tile<1> this_thread() {
  return thread_block_tile<1>(0, 1);
}

/// The lanes of the warp that reach coalesced_threads() together.
class coalesced_group : public thread_group {
 public:
  explicit coalesced_group(unsigned mask) : thread_group(detail::coalesced_group_id, mask) {}
  unsigned thread_rank() const {
    return static_cast<unsigned>(std::popcount(mask_ & ((1u << detail::lane_id()) - 1u)));
  }
  unsigned size() const { return static_cast<unsigned>(std::popcount(mask_)); }
  unsigned num_threads() const { return size(); }
  unsigned meta_group_rank() const { return 0; }
  unsigned meta_group_size() const { return 1; }
  void sync(::memcarlo::host::CallSite where = {}) const { __syncwarp(mask_, where); }
  template <class Value>
  Value shfl(Value value, int rank, ::memcarlo::host::CallSite where = {}) const {
    return __shfl_sync(mask_, value, lane_of_rank(static_cast<unsigned>(rank)), 32, where);
  }
  unsigned ballot(int predicate, ::memcarlo::host::CallSite where = {}) const {
    return __ballot_sync(mask_, predicate, where);
  }
  int any(int predicate, ::memcarlo::host::CallSite where = {}) const {
    return __any_sync(mask_, predicate, where);
  }
  int all(int predicate, ::memcarlo::host::CallSite where = {}) const {
    return __all_sync(mask_, predicate, where);
  }
  /// The lane holding rank `rank` of the group (the rank-th set lane of the mask).
  int lane_of_rank(unsigned rank) const {
    unsigned lanes = mask_;
    for (unsigned skipped = 0; skipped < rank && lanes != 0; ++skipped) {
      lanes &= lanes - 1;
    }
    return lanes != 0 ? std::countr_zero(lanes) : 0;
  }
};

inline coalesced_group coalesced_threads(::memcarlo::host::CallSite where = {}) {
  return coalesced_group(__activemask(where));
}

namespace detail {
/// Makes the groups that tiled_partition(parent, tile_size) returns.
struct group_factory {
  static thread_group tile(unsigned mask) { return thread_group(coalesced_group_id, mask); }
  static unsigned mask_of(const thread_group& group) { return group.mask_; }
};

/// tiled_partition(parent, tile_size) takes a power of two up to 32, as in CUDA (which traps).
inline void check_tile_size(unsigned tile_size, ::memcarlo::host::CallSite where) {
  if (tile_size == 0 || tile_size > 32 || !std::has_single_bit(tile_size)) {
    ::memcarlo::host::detail::invalid_use(
        "cooperative groups tiled_partition(parent, size) takes a size of 1, 2, 4, 8, 16 or 32 "
        "(thread_block_tile<Size> also has 64, 128, 256 and 512)",
        where);
  }
}

/// The calling lane's tile of `tile_size` consecutive ranks of the lanes in `mask`.
inline unsigned coalesced_tile_mask(unsigned mask, unsigned tile_size) {
  const unsigned tile =
      static_cast<unsigned>(std::popcount(mask & ((1u << lane_id()) - 1u))) / tile_size;
  unsigned tile_mask = 0;
  unsigned rank = 0;
  for (unsigned lanes = mask; lanes != 0; lanes &= lanes - 1, ++rank) {
    if (rank / tile_size == tile) {
      tile_mask |= lanes & (~lanes + 1u);  // the lowest lane left
    }
  }
  return tile_mask;
}

/// The calling thread's tile of `tile_size` consecutive ranks of the block: the lanes of its warp
/// that it shares a tile with and that exist (a partial last tile is smaller, as in CUDA).
inline unsigned block_tile_mask(unsigned tile_size) {
  const unsigned base = block_rank() & ~(tile_size - 1);
  const unsigned present = block_size() - base < tile_size ? block_size() - base : tile_size;
  return lane_mask(lane_id() & ~(tile_size - 1), present);
}
}  // namespace detail

/// The runtime form: tiles of 1 to 32 threads as type-erased groups.
inline thread_group tiled_partition(const thread_block&, unsigned tile_size,
                                    ::memcarlo::host::CallSite where = {}) {
  detail::check_tile_size(tile_size, where);
  return detail::group_factory::tile(detail::block_tile_mask(tile_size));
}
inline coalesced_group tiled_partition(const coalesced_group& parent, unsigned tile_size,
                                       ::memcarlo::host::CallSite where = {}) {
  detail::check_tile_size(tile_size, where);
  return coalesced_group(
      detail::coalesced_tile_mask(detail::group_factory::mask_of(parent), tile_size));
}
/// A tile of a block or of a tile (tiles are aligned in the block, so a tile of a tile is the
/// block's tile of that size) or of a coalesced group (its ranks, not its lanes, are tiled).
inline thread_group tiled_partition(const thread_group& parent, unsigned tile_size,
                                    ::memcarlo::host::CallSite where = {}) {
  detail::check_tile_size(tile_size, where);
  if (parent.get_type() == detail::coalesced_group_id) {
    return detail::group_factory::tile(
        detail::coalesced_tile_mask(detail::group_factory::mask_of(parent), tile_size));
  }
  if (parent.get_type() == detail::grid_group_id) {
    ::memcarlo::host::detail::invalid_use(
        "cooperative groups tiled_partition(parent, size) partitions a thread block, a tile or a "
        "coalesced group, not a grid",
        where);
  }
  return detail::group_factory::tile(detail::block_tile_mask(tile_size));
}

template <class Group>
void sync(const Group& group, ::memcarlo::host::CallSite where = {}) {
  group.sync(where);
}
template <class Group>
unsigned long long thread_rank(const Group& group) {
  return static_cast<unsigned long long>(group.thread_rank());
}
template <class Group>
unsigned long long group_size(const Group& group) {
  return static_cast<unsigned long long>(group.num_threads());
}

}  // namespace cooperative_groups

#include "cooperative_groups/reduce.h"
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
