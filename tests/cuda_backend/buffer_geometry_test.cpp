// Sizing of the cuda backend's block buffers and warp rings, and the layout of the pinned
// allocation (paper §4.2).
#include "buffer_geometry.hpp"

#include <gtest/gtest.h>

namespace {

using memcarlo::cuda::detail::BufferGeometry;
using memcarlo::cuda::detail::kMaxLinesPerRing;
using memcarlo::cuda::detail::kMinLinesPerRing;
using memcarlo::cuda::detail::RingLine;
using memcarlo::cuda::detail::size_buffers;

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

TEST(BufferGeometry, OneBlockBufferPerSnapshotBlockWhenTheGpuHoldsThemAll) {
  // The paper's C2050 snapshot: 14 SMs x 8 resident blocks x factor 4, blocks of 8 warps, on an
  // H100 (132 SMs x 32 blocks).
  const BufferGeometry geometry = size_buffers(448, 8, 132 * 32, 256 * kMiB);
  EXPECT_EQ(geometry.slot_count, 448u);
  EXPECT_EQ(geometry.warps_per_block, 8u);
  EXPECT_EQ(geometry.lines_per_ring, kMaxLinesPerRing);
  EXPECT_LE(geometry.lines_bytes(), 256 * kMiB);
}

TEST(BufferGeometry, NoMoreBlockBuffersThanBlocksTheGpuRunsAtOnce) {
  const BufferGeometry geometry = size_buffers(20000, 4, 264, 256 * kMiB);
  EXPECT_EQ(geometry.slot_count, 264u);
}

TEST(BufferGeometry, TheBudgetShortensRingsFirstThenSharesBlockBuffers) {
  const std::uint64_t per_line = 8 * sizeof(RingLine);
  // Room for 10 lines per ring in 100 block buffers: rings get 10 lines.
  BufferGeometry geometry = size_buffers(100, 8, 1000, 100 * 10 * per_line);
  EXPECT_EQ(geometry.slot_count, 100u);
  EXPECT_EQ(geometry.lines_per_ring, 10u);
  // Room for 2 lines per ring in 100 buffers: the minimum ring length in 50 buffers instead.
  geometry = size_buffers(100, 8, 1000, 100 * 2 * per_line);
  EXPECT_EQ(geometry.lines_per_ring, kMinLinesPerRing);
  EXPECT_EQ(geometry.slot_count, 50u);
  EXPECT_LE(geometry.lines_bytes(), 100 * 2 * per_line);
}

TEST(BufferGeometry, AtLeastOneBlockBufferWhateverTheBudget) {
  const BufferGeometry geometry = size_buffers(100, 32, 1000, 1);
  EXPECT_EQ(geometry.slot_count, 1u);
  EXPECT_EQ(geometry.lines_per_ring, kMinLinesPerRing);
  EXPECT_EQ(geometry.ring_count(), 32u);
}

TEST(BufferGeometry, ControlWordsFollowTheLinesInOneAllocation) {
  BufferGeometry geometry;
  geometry.slot_count = 3;
  geometry.warps_per_block = 2;
  geometry.lines_per_ring = 4;
  EXPECT_EQ(geometry.ring_count(), 6u);
  EXPECT_EQ(geometry.lines_bytes(), 6 * 4 * sizeof(RingLine));
  EXPECT_EQ(geometry.consumed_offset(), geometry.lines_bytes());
  EXPECT_EQ(geometry.stop_offset(), geometry.consumed_offset() + 6 * 8);
  EXPECT_GE(geometry.host_bytes(), geometry.stop_offset() + 4);
  EXPECT_EQ(geometry.consumed_offset() % 8, 0u);  // 64-bit counters the device reads
}

TEST(BufferGeometry, BlocksShareBlockBuffersRoundRobinFromTheFirstSnapshotBlock) {
  BufferGeometry geometry;
  geometry.slot_count = 3;
  geometry.warps_per_block = 2;
  geometry.lines_per_ring = 4;
  EXPECT_EQ(geometry.ring_of(10, 10, 0), 0u);
  EXPECT_EQ(geometry.ring_of(10, 10, 1), 1u);
  EXPECT_EQ(geometry.ring_of(12, 10, 1), 5u);
  EXPECT_EQ(geometry.ring_of(13, 10, 0), 0u);  // block 13 shares block 10's buffer
}

}  // namespace
