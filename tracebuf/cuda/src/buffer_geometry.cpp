// Sizing the cuda backend's block buffers and warp rings within the pinned-memory budget.
#include "buffer_geometry.hpp"

#include <algorithm>
#include <limits>

namespace memcarlo::cuda::detail {

BufferGeometry size_buffers(std::uint64_t snapshot_blocks, std::uint32_t warps_per_block,
                            std::uint64_t gpu_resident_blocks, std::uint64_t budget_bytes) {
  BufferGeometry geometry;
  geometry.warps_per_block = std::max<std::uint32_t>(warps_per_block, 1);
  const std::uint64_t slots = std::clamp<std::uint64_t>(
      std::min(snapshot_blocks, std::max<std::uint64_t>(gpu_resident_blocks, 1)), 1,
      std::numeric_limits<std::uint32_t>::max());
  const std::uint64_t ring_bytes_per_line =
      std::uint64_t{geometry.warps_per_block} * sizeof(RingLine);
  const std::uint64_t lines = budget_bytes / (slots * ring_bytes_per_line);
  if (lines >= kMinLinesPerRing) {
    geometry.slot_count = static_cast<std::uint32_t>(slots);
    geometry.lines_per_ring =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(lines, kMaxLinesPerRing));
    return geometry;
  }
  geometry.lines_per_ring = kMinLinesPerRing;
  geometry.slot_count = static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>(budget_bytes / (kMinLinesPerRing * ring_bytes_per_line), 1, slots));
  return geometry;
}

}  // namespace memcarlo::cuda::detail
