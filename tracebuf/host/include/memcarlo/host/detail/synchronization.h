// Block barriers, memory fences and warp-level collectives (vote, shuffle, match, reduce) of the
// host backend. Collectives run in lockstep: a lane waits (its fiber yields) until every lane the
// mask names has arrived, then each lane reads its own result.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include "memcarlo/host/detail/call_site.h"

namespace memcarlo::host::detail {

enum class BarrierKind : std::uint8_t { kPlain, kCount, kAnd, kOr };

/// __syncthreads and its predicate forms; returns the count/and/or over the block's threads.
int block_barrier(BarrierKind kind, int predicate, ::memcarlo::host::CallSite where);

enum class WarpOp : std::uint8_t {
  kSync,
  kShuffleIndex,
  kShuffleUp,
  kShuffleDown,
  kShuffleXor,
  kAll,
  kAny,
  kBallot,
  kActiveMask,
  kMatchAny,
  kMatchAll,
  kReduceAddUnsigned,
  kReduceMinUnsigned,
  kReduceMaxUnsigned,
  kReduceMinSigned,
  kReduceMaxSigned,
  kReduceAnd,
  kReduceOr,
  kReduceXor,
};

/// One lane's part of a warp collective. `implicit_mask` is for __activemask and the pre-CUDA-9
/// intrinsics without a mask: the participants are the lanes that reach the same call site.
std::uint64_t warp_collective(WarpOp op, unsigned mask, bool implicit_mask, std::uint64_t value,
                              int parameter, int width, ::memcarlo::host::CallSite where);

/// Lets the other fibers of the block run (spin-wait loops, __nanosleep).
void yield_thread();

/// The barrier of a cooperative-groups tile wider than a warp: returns when every thread of block
/// ranks [first, first + count) that has not exited arrived. `what` names it in deadlock reports.
void tile_barrier(unsigned first, unsigned count, const char* what,
                  ::memcarlo::host::CallSite where);
/// cooperative_groups::grid_group::sync(): returns when every thread of every block of the
/// cooperative launch that has not exited arrived; outside a cooperative launch it ends the
/// program naming the line.
void grid_barrier(::memcarlo::host::CallSite where);
/// Whether the running kernel was launched with cudaLaunchCooperativeKernel.
bool cooperative_launch();
/// Bytes per thread in tile_exchange_slots().
inline constexpr unsigned kTileExchangeSlotBytes = 16;
/// The running block's exchange area for tile collectives wider than a warp: one slot of
/// kTileExchangeSlotBytes per thread, indexed by block rank; like shared memory, per block.
unsigned char* tile_exchange_slots(::memcarlo::host::CallSite where);

template <class Value>
std::uint64_t to_lane_bits(Value value) {
  static_assert(std::is_trivially_copyable_v<Value> && sizeof(Value) <= sizeof(std::uint64_t),
                "warp shuffles and matches take scalars of at most 8 bytes");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(Value));
  return bits;
}

template <class Value>
Value from_lane_bits(std::uint64_t bits) {
  Value value;
  std::memcpy(&value, &bits, sizeof(Value));
  return value;
}

template <class Value>
Value shuffle(WarpOp op, unsigned mask, bool implicit_mask, Value value, int parameter, int width,
              ::memcarlo::host::CallSite where) {
  return from_lane_bits<Value>(
      warp_collective(op, mask, implicit_mask, to_lane_bits(value), parameter, width, where));
}

inline unsigned vote(WarpOp op, unsigned mask, bool implicit_mask, int predicate,
                     ::memcarlo::host::CallSite where) {
  return static_cast<unsigned>(
      warp_collective(op, mask, implicit_mask, predicate != 0 ? 1 : 0, 0, 32, where));
}

template <class Value>
unsigned reduce(WarpOp op, unsigned mask, Value value, ::memcarlo::host::CallSite where) {
  return static_cast<unsigned>(warp_collective(op, mask, false, to_lane_bits(value), 0, 32, where));
}

}  // namespace memcarlo::host::detail

// ---- block barriers and fences
// -------------------------------------------------------------------

inline void __syncthreads(::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::block_barrier(::memcarlo::host::detail::BarrierKind::kPlain, 0, where);
}
inline int __syncthreads_count(int predicate, ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::block_barrier(::memcarlo::host::detail::BarrierKind::kCount,
                                                 predicate, where);
}
inline int __syncthreads_and(int predicate, ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::block_barrier(::memcarlo::host::detail::BarrierKind::kAnd,
                                                 predicate, where);
}
inline int __syncthreads_or(int predicate, ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::block_barrier(::memcarlo::host::detail::BarrierKind::kOr,
                                                 predicate, where);
}
inline void __threadfence() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
inline void __threadfence_block() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
inline void __threadfence_system() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
inline void __nanosleep(unsigned) {
  ::memcarlo::host::detail::yield_thread();
}

// ---- warp collectives
// ----------------------------------------------------------------------------

inline void __syncwarp(unsigned mask = 0xffffffffu, ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::warp_collective(::memcarlo::host::detail::WarpOp::kSync, mask, false, 0,
                                            0, 32, where);
}
inline unsigned __activemask(::memcarlo::host::CallSite where = {}) {
  return static_cast<unsigned>(::memcarlo::host::detail::warp_collective(
      ::memcarlo::host::detail::WarpOp::kActiveMask, 0xffffffffu, true, 0, 0, 32, where));
}

template <class Value>
Value __shfl_sync(unsigned mask, Value var, int srcLane, int width = 32,
                  ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::shuffle(::memcarlo::host::detail::WarpOp::kShuffleIndex, mask,
                                           false, var, srcLane, width, where);
}
template <class Value>
Value __shfl_up_sync(unsigned mask, Value var, unsigned delta, int width = 32,
                     ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::shuffle(::memcarlo::host::detail::WarpOp::kShuffleUp, mask,
                                           false, var, static_cast<int>(delta), width, where);
}
template <class Value>
Value __shfl_down_sync(unsigned mask, Value var, unsigned delta, int width = 32,
                       ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::shuffle(::memcarlo::host::detail::WarpOp::kShuffleDown, mask,
                                           false, var, static_cast<int>(delta), width, where);
}
template <class Value>
Value __shfl_xor_sync(unsigned mask, Value var, int laneMask, int width = 32,
                      ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::shuffle(::memcarlo::host::detail::WarpOp::kShuffleXor, mask,
                                           false, var, laneMask, width, where);
}
// Pre-CUDA-9 forms without a mask: the participants are the lanes that reach the call together.
template <class Value>
Value __shfl(Value var, int srcLane, int width = 32, ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::shuffle(::memcarlo::host::detail::WarpOp::kShuffleIndex,
                                           0xffffffffu, true, var, srcLane, width, where);
}
template <class Value>
Value __shfl_up(Value var, unsigned delta, int width = 32, ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::shuffle(::memcarlo::host::detail::WarpOp::kShuffleUp,
                                           0xffffffffu, true, var, static_cast<int>(delta), width,
                                           where);
}
template <class Value>
Value __shfl_down(Value var, unsigned delta, int width = 32,
                  ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::shuffle(::memcarlo::host::detail::WarpOp::kShuffleDown,
                                           0xffffffffu, true, var, static_cast<int>(delta), width,
                                           where);
}
template <class Value>
Value __shfl_xor(Value var, int laneMask, int width = 32, ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::shuffle(::memcarlo::host::detail::WarpOp::kShuffleXor,
                                           0xffffffffu, true, var, laneMask, width, where);
}

inline int __all_sync(unsigned mask, int predicate, ::memcarlo::host::CallSite where = {}) {
  return static_cast<int>(::memcarlo::host::detail::vote(::memcarlo::host::detail::WarpOp::kAll,
                                                         mask, false, predicate, where));
}
inline int __any_sync(unsigned mask, int predicate, ::memcarlo::host::CallSite where = {}) {
  return static_cast<int>(::memcarlo::host::detail::vote(::memcarlo::host::detail::WarpOp::kAny,
                                                         mask, false, predicate, where));
}
inline unsigned __ballot_sync(unsigned mask, int predicate, ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::vote(::memcarlo::host::detail::WarpOp::kBallot, mask, false,
                                        predicate, where);
}
inline int __all(int predicate, ::memcarlo::host::CallSite where = {}) {
  return static_cast<int>(::memcarlo::host::detail::vote(::memcarlo::host::detail::WarpOp::kAll,
                                                         0xffffffffu, true, predicate, where));
}
inline int __any(int predicate, ::memcarlo::host::CallSite where = {}) {
  return static_cast<int>(::memcarlo::host::detail::vote(::memcarlo::host::detail::WarpOp::kAny,
                                                         0xffffffffu, true, predicate, where));
}
inline unsigned __ballot(int predicate, ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::vote(::memcarlo::host::detail::WarpOp::kBallot, 0xffffffffu,
                                        true, predicate, where);
}

template <class Value>
unsigned __match_any_sync(unsigned mask, Value value, ::memcarlo::host::CallSite where = {}) {
  return static_cast<unsigned>(::memcarlo::host::detail::warp_collective(
      ::memcarlo::host::detail::WarpOp::kMatchAny, mask, false,
      ::memcarlo::host::detail::to_lane_bits(value), 0, 32, where));
}
template <class Value>
unsigned __match_all_sync(unsigned mask, Value value, int* predicate,
                          ::memcarlo::host::CallSite where = {}) {
  const auto result = static_cast<unsigned>(::memcarlo::host::detail::warp_collective(
      ::memcarlo::host::detail::WarpOp::kMatchAll, mask, false,
      ::memcarlo::host::detail::to_lane_bits(value), 0, 32, where));
  *predicate = result != 0 ? 1 : 0;
  return result;
}

inline unsigned __reduce_add_sync(unsigned mask, unsigned value,
                                  ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::reduce(::memcarlo::host::detail::WarpOp::kReduceAddUnsigned,
                                          mask, value, where);
}
inline int __reduce_add_sync(unsigned mask, int value, ::memcarlo::host::CallSite where = {}) {
  return static_cast<int>(
      ::memcarlo::host::detail::reduce(::memcarlo::host::detail::WarpOp::kReduceAddUnsigned, mask,
                                       static_cast<unsigned>(value), where));
}
inline unsigned __reduce_min_sync(unsigned mask, unsigned value,
                                  ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::reduce(::memcarlo::host::detail::WarpOp::kReduceMinUnsigned,
                                          mask, value, where);
}
inline int __reduce_min_sync(unsigned mask, int value, ::memcarlo::host::CallSite where = {}) {
  return static_cast<int>(::memcarlo::host::detail::reduce(
      ::memcarlo::host::detail::WarpOp::kReduceMinSigned, mask, value, where));
}
inline unsigned __reduce_max_sync(unsigned mask, unsigned value,
                                  ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::reduce(::memcarlo::host::detail::WarpOp::kReduceMaxUnsigned,
                                          mask, value, where);
}
inline int __reduce_max_sync(unsigned mask, int value, ::memcarlo::host::CallSite where = {}) {
  return static_cast<int>(::memcarlo::host::detail::reduce(
      ::memcarlo::host::detail::WarpOp::kReduceMaxSigned, mask, value, where));
}
inline unsigned __reduce_and_sync(unsigned mask, unsigned value,
                                  ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::reduce(::memcarlo::host::detail::WarpOp::kReduceAnd, mask, value,
                                          where);
}
inline unsigned __reduce_or_sync(unsigned mask, unsigned value,
                                 ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::reduce(::memcarlo::host::detail::WarpOp::kReduceOr, mask, value,
                                          where);
}
inline unsigned __reduce_xor_sync(unsigned mask, unsigned value,
                                  ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::reduce(::memcarlo::host::detail::WarpOp::kReduceXor, mask, value,
                                          where);
}
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
