// CUB's warp and bit utilities for memcarlo's host backend (CUB's are inline PTX; these are the
// emulation's shuffles and plain C++): cub::LaneId() and cub::WarpId() (in
// cub/detail/memcarlo_cub.cuh), RowMajorTid, WarpMask, ShuffleUp, ShuffleDown and ShuffleIndex over
// logical warps, BFE, BFI, PRMT, LogicShiftLeft and LogicShiftRight.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <cstdint>

#include "detail/memcarlo_cub.cuh"

namespace cub {

inline int RowMajorTid(int block_dim_x, int block_dim_y, int block_dim_z) {
  return (block_dim_z == 1 ? 0 : static_cast<int>(threadIdx.z) * block_dim_x * block_dim_y) +
         (block_dim_y == 1 ? 0 : static_cast<int>(threadIdx.y) * block_dim_x) +
         static_cast<int>(threadIdx.x);
}

/// The lanes of logical warp `warp_id` of `logical_warp_threads` lanes in its hardware warp.
template <int logical_warp_threads>
inline unsigned WarpMask(unsigned warp_id) {
  unsigned member_mask = 0xffffffffu >> (32 - logical_warp_threads);
  if constexpr ((logical_warp_threads & (logical_warp_threads - 1)) == 0 &&
                logical_warp_threads != 32) {
    member_mask <<= warp_id * logical_warp_threads;
  }
  return member_mask;
}

/// The value of the lane src_offset below in the logical warp; lanes whose source would lie
/// before lane first_thread of their logical warp keep their own, as PTX's clamped shfl.up does.
template <int logical_warp_threads, class T>
inline T ShuffleUp(T input, int src_offset, int first_thread, unsigned member_mask) {
  const T shuffled =
      __shfl_up_sync(member_mask, input, static_cast<unsigned>(src_offset), logical_warp_threads);
  const int lane = static_cast<int>(LaneId()) % logical_warp_threads;
  return lane - src_offset >= first_thread ? shuffled : input;
}

/// The value of the lane src_offset above; lanes whose source would lie past lane last_thread of
/// their logical warp keep their own.
template <int logical_warp_threads, class T>
inline T ShuffleDown(T input, int src_offset, int last_thread, unsigned member_mask) {
  const T shuffled =
      __shfl_down_sync(member_mask, input, static_cast<unsigned>(src_offset), logical_warp_threads);
  const int lane = static_cast<int>(LaneId()) % logical_warp_threads;
  return lane + src_offset <= last_thread ? shuffled : input;
}

/// The value of lane src_lane of the caller's logical warp.
template <int logical_warp_threads, class T>
inline T ShuffleIndex(T input, int src_lane, unsigned member_mask) {
  return __shfl_sync(member_mask, input, src_lane, logical_warp_threads);
}

/// Bits [bit_start, bit_start + num_bits) of source.
template <class UnsignedBits>
inline unsigned BFE(UnsignedBits source, unsigned bit_start, unsigned num_bits) {
  const unsigned long long mask = num_bits >= 64 ? ~0ull : (1ull << num_bits) - 1ull;
  return static_cast<unsigned>((static_cast<unsigned long long>(source) >> bit_start) & mask);
}

/// x with bits [bit_start, bit_start + num_bits) replaced by the low bits of y (CUB 2's form sets
/// ret; CUB 1's returns it).
inline void BFI(unsigned& ret, unsigned x, unsigned y, unsigned bit_start, unsigned num_bits) {
  const unsigned field = num_bits >= 32 ? ~0u : (1u << num_bits) - 1u;
  const unsigned mask = bit_start >= 32 ? 0u : field << bit_start;
  ret = (x & ~mask) | ((bit_start >= 32 ? 0u : y << bit_start) & mask);
}
inline unsigned BFI(unsigned x, unsigned y, unsigned bit_start, unsigned num_bits) {
  unsigned ret = 0;
  BFI(ret, x, y, bit_start, num_bits);
  return ret;
}

inline int PRMT(unsigned a, unsigned b, unsigned index) {
  return static_cast<int>(__byte_perm(a, b, index));
}

inline std::uint32_t LogicShiftLeft(std::uint32_t val, std::uint32_t num_bits) {
  return num_bits >= 32 ? 0u : val << num_bits;
}
inline std::uint32_t LogicShiftRight(std::uint32_t val, std::uint32_t num_bits) {
  return num_bits >= 32 ? 0u : val >> num_bits;
}

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
