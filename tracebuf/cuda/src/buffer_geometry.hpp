// How big the cuda backend's trace buffer is for one launch (paper §4.2: block buffers of warp
// ring buffers) and where each part lies in the one pinned, mapped host allocation.
#pragma once

#include <cstdint>

#include "ring_buffer_layout.h"

namespace memcarlo::cuda::detail {

/// Lines per ring are chosen in [kMinLinesPerRing, kMaxLinesPerRing].
inline constexpr std::uint32_t kMinLinesPerRing = 4;
inline constexpr std::uint32_t kMaxLinesPerRing = 64;
/// MEMCARLO_CUDA_BUFFER_MB default: pinned host memory for ring lines per traced launch.
inline constexpr std::uint64_t kDefaultBufferBytes = std::uint64_t{256} << 20;

struct BufferGeometry {
  std::uint32_t slot_count = 0;       // block buffers
  std::uint32_t warps_per_block = 0;  // warp rings per block buffer
  std::uint32_t lines_per_ring = 0;

  [[nodiscard]] std::uint64_t ring_count() const {
    return std::uint64_t{slot_count} * warps_per_block;
  }
  /// The ring of warp `warp` of block `block` when the snapshot starts at `first`.
  [[nodiscard]] std::uint64_t ring_of(std::uint64_t block, std::uint64_t first,
                                      std::uint32_t warp) const {
    return (block - first) % slot_count * warps_per_block + warp;
  }
  // One host allocation: the lines, then `consumed` per ring, then the stop flag.
  [[nodiscard]] std::uint64_t lines_bytes() const {
    return ring_count() * lines_per_ring * sizeof(RingLine);
  }
  [[nodiscard]] std::uint64_t consumed_offset() const { return lines_bytes(); }
  [[nodiscard]] std::uint64_t stop_offset() const {
    return consumed_offset() + ring_count() * sizeof(std::uint64_t);
  }
  [[nodiscard]] std::uint64_t host_bytes() const { return stop_offset() + 64; }
  [[nodiscard]] std::uint64_t device_bytes() const { return ring_count() * sizeof(RingState); }
};

/// Sizes the buffers of a launch whose snapshot has `snapshot_blocks` blocks of
/// `warps_per_block` warps, on a GPU that holds at most `gpu_resident_blocks` blocks at once,
/// within `budget_bytes` of ring lines. One block buffer per snapshot block that can run at the
/// same time (more would never all be in use); as many lines per ring as the budget allows up to
/// kMaxLinesPerRing; below kMinLinesPerRing lines, fewer block buffers instead (blocks then share
/// them, which the rings allow, at the cost of contention). At least one block buffer.
BufferGeometry size_buffers(std::uint64_t snapshot_blocks, std::uint32_t warps_per_block,
                            std::uint64_t gpu_resident_blocks, std::uint64_t budget_bytes);

}  // namespace memcarlo::cuda::detail
