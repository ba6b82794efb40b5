// Locality Descriptor algorithms by hand (Vijaykumar et al., ISCA'18): Algorithm 1's split and
// merge cases and the histo clusters of Figure 12, Algorithm 2's choice of zone bits in the
// Figure 13 case (bits 16-17 for A, 14-15 for B), and the D-Tile byte counts behind it.
#include <gtest/gtest.h>

#include <vector>

#include "ldesc/clustering.hpp"
#include "ldesc/numa_mapping.hpp"

namespace {

using memcarlo::sim::ldesc::assign_clusters;
using memcarlo::sim::ldesc::cluster_dims;
using memcarlo::sim::ldesc::compute_tile_of_data_tile;
using memcarlo::sim::ldesc::data_tile_of_compute_tile;
using memcarlo::sim::ldesc::map_to_zones;
using memcarlo::sim::ldesc::split_for_sms;
using memcarlo::sim::ldesc::tile_bytes_per_zone;
using memcarlo::tracebuf::Dim3;
using memcarlo::tracebuf::LocalityDescriptor;
using Queues = std::vector<std::vector<std::uint64_t>>;

LocalityDescriptor descriptor(Dim3 compute_tile, std::uint32_t priority = 1) {
  LocalityDescriptor d;
  d.compute_tile = compute_tile;
  d.priority = priority;
  return d;
}

// histo (Figure 12): C-Tile (1, GridDim.y, 1) on a 4 x 3 grid and 3 SMs: four C-Tiles, enough
// for the SMs, so no split; each of the first three column clusters runs whole on one SM and the
// last is spread over all three.
TEST(LdescClustering, HistoColumnsAreTheClustersAndTheLastIsSpread) {
  const Dim3 grid{4, 3, 1};
  const Dim3 cls = cluster_dims({descriptor({1, 3, 1})}, grid, 3);
  EXPECT_EQ(cls, (Dim3{1, 3, 1}));
  const Queues queues = assign_clusters(grid, cls, 3);
  EXPECT_EQ(queues, (Queues{{0, 4, 8, 3}, {1, 5, 9, 7}, {2, 6, 10, 11}}));
}

TEST(LdescClustering, SplitHalvesTheLargestDimensionUntilEverySmHasATile) {
  // 2 C-Tiles of (1, 8) on a 2 x 8 grid for 15 SMs: (1, 4) gives 4, (1, 2) 8, (1, 1) 16.
  EXPECT_EQ(split_for_sms({1, 8, 1}, {2, 8, 1}, 15), (Dim3{1, 1, 1}));
  // A tie (4 x 4) halves X first: (2, 4) gives 2 x 4 = 8 tiles >= 6.
  EXPECT_EQ(split_for_sms({4, 4, 1}, {4, 16, 1}, 6), (Dim3{2, 4, 1}));
  // Enough already: unchanged. One CTA: cannot split further even with too few tiles.
  EXPECT_EQ(split_for_sms({2, 2, 1}, {8, 8, 1}, 16), (Dim3{2, 2, 1}));
  EXPECT_EQ(split_for_sms({1, 1, 1}, {2, 1, 1}, 15), (Dim3{1, 1, 1}));
  // Odd extents round up: 5 -> 3 -> 2.
  EXPECT_EQ(split_for_sms({5, 1, 1}, {5, 1, 1}, 3), (Dim3{2, 1, 1}));
}

TEST(LdescClustering, LowerPriorityTilesMergeOnlyWhileEverySmKeepsACluster) {
  const Dim3 grid{8, 8, 1};
  // (1, 4) clusters (16 of them) merged with (2, 1): (2, 4), 8 clusters >= 4 SMs.
  EXPECT_EQ(cluster_dims({descriptor({1, 4, 1}, 2), descriptor({2, 1, 1})}, grid, 4),
            (Dim3{2, 4, 1}));
  // Merged with (8, 1): (8, 4) leaves 2 clusters < 4 SMs: refused, (1, 4) stays.
  EXPECT_EQ(cluster_dims({descriptor({1, 4, 1}, 2), descriptor({8, 1, 1})}, grid, 4),
            (Dim3{1, 4, 1}));
  // A lower tile smaller than the cluster along a dimension leaves it (max(floor, 1)).
  EXPECT_EQ(cluster_dims({descriptor({4, 4, 1}, 2), descriptor({2, 8, 1})}, grid, 2),
            (Dim3{4, 8, 1}));
}

TEST(LdescClustering, ClustersDivideEvenlyAndOnlyTracedBlocksAreQueued) {
  // 8 clusters of (2, 1) on a 4 x 4 grid over 4 SMs: cluster c to SM c mod 4.
  const Queues all = assign_clusters({4, 4, 1}, {2, 2, 1}, 4);
  EXPECT_EQ(all, (Queues{{0, 1, 4, 5}, {2, 3, 6, 7}, {8, 9, 12, 13}, {10, 11, 14, 15}}));
  const Queues even =
      assign_clusters({4, 4, 1}, {2, 2, 1}, 4, [](std::uint64_t id) { return id % 2 == 0; });
  EXPECT_EQ(even, (Queues{{0, 4}, {2, 6}, {8, 12}, {10, 14}}));
  // 5 clusters on 2 SMs: 4 whole, the fifth split in two halves.
  const Queues spread = assign_clusters({10, 1, 1}, {2, 1, 1}, 2);
  EXPECT_EQ(spread, (Queues{{0, 1, 4, 5, 8}, {2, 3, 6, 7, 9}}));
}

// Figure 13: the CTAs of each zone read one 64 KiB page of A but only a 16 KiB quarter-page of B.
// 16 CTAs, 4 zones; A: 256 KiB of floats, D-Tiles of 64 KiB for C-Tiles of 4 CTAs; B: 64 KiB,
// D-Tiles of 16 KiB for the same C-Tiles. Both page-aligned.
std::vector<LocalityDescriptor> figure13() {
  LocalityDescriptor a;
  a.name = "A";
  a.address = 0x1000000;
  a.size = 256 * 1024;
  a.element_size = 4;
  a.shape = {65536, 1, 1};
  a.data_tile = {16384, 1, 1};
  a.compute_tile = {4, 1, 1};
  a.priority = 2;
  LocalityDescriptor b = a;
  b.name = "B";
  b.address = 0x2000000;
  b.size = 64 * 1024;
  b.shape = {16384, 1, 1};
  b.data_tile = {4096, 1, 1};
  b.priority = 1;
  return {a, b};
}

TEST(LdescNumaMapping, Figure13ChoosesBits16ForAAnd14ForB) {
  const auto mapping = map_to_zones(figure13(), {16, 1, 1}, 4);
  EXPECT_EQ(mapping.bits, (std::vector<std::uint32_t>{16, 14}));
  EXPECT_EQ(mapping.zone_of_tile, (std::vector<std::uint32_t>{0, 1, 2, 3}));
  for (std::uint32_t x = 0; x < 16; ++x) {
    EXPECT_EQ(mapping.zone_of_block(x, 0, 0, {16, 1, 1}), x / 4) << x;
  }
  EXPECT_DOUBLE_EQ(mapping.utility, 2.0 * 1.0 + 1.0 * 1.0);  // every byte local, weights 2 and 1
}

TEST(LdescNumaMapping, TileBytesPerZoneByHand) {
  const auto descriptors = figure13();
  const LocalityDescriptor& a = descriptors[0];
  // A's tile 1 is [64 KiB, 128 KiB) of A: with bits 16-17 all in zone 1; with 15-16 (32 KiB
  // chunks) half in zone 2, half in zone 3.
  EXPECT_EQ(tile_bytes_per_zone(a, 1, 16, 4), (std::vector<std::uint64_t>{0, 65536, 0, 0}));
  EXPECT_EQ(tile_bytes_per_zone(a, 1, 15, 4), (std::vector<std::uint64_t>{0, 0, 32768, 32768}));
  // With 128 B chunks the tile holds 128 whole periods of 512 B: 16 KiB per zone.
  EXPECT_EQ(tile_bytes_per_zone(a, 1, 7, 4), (std::vector<std::uint64_t>(4, 16384)));
  // A 2-D tile: two rows of a 100-element pitch, with 128 B chunks (zone = address / 128 mod 4).
  LocalityDescriptor m;
  m.address = 0;
  m.element_size = 4;
  m.size = 4 * 100 * 2;
  m.shape = {100, 2, 1};
  m.data_tile = {49, 2, 1};
  m.compute_tile = {1, 1, 1};
  // Tile 1: elements 49..97 of both rows, bytes [196, 392) and [596, 792). Row 0: [196, 256) in
  // chunk 1 (zone 1), [256, 384) chunk 2 (zone 2), [384, 392) chunk 3 (zone 3). Row 1:
  // [596, 640) chunk 4 (zone 0), [640, 768) chunk 5 (zone 1), [768, 792) chunk 6 (zone 2).
  EXPECT_EQ(tile_bytes_per_zone(m, 1, 7, 4),
            (std::vector<std::uint64_t>{640 - 596, (256 - 196) + (768 - 640),
                                        (384 - 256) + (792 - 768), 392 - 384}));
}

TEST(LdescNumaMapping, ComputeDataMapOrdersTheCTiles) {
  LocalityDescriptor d;
  d.compute_tile = {1, 1, 1};
  d.shape = {6, 1, 1};
  d.data_tile = {1, 1, 1};
  // Grid 2 x 3: (1, 2, 3) walks X first, so D-Tile 1 is C-Tile (1, 0) = 1; (2, 1, 3) walks Y
  // first, so D-Tile 1 is C-Tile (0, 1) = 2.
  d.compute_data_map = {1, 2, 3};
  EXPECT_EQ(compute_tile_of_data_tile(d, {2, 3, 1}, 1), 1u);
  d.compute_data_map = {2, 1, 3};
  EXPECT_EQ(compute_tile_of_data_tile(d, {2, 3, 1}, 1), 2u);
  EXPECT_EQ(compute_tile_of_data_tile(d, {2, 3, 1}, 3), 1u);
  for (std::uint64_t t = 0; t < 6; ++t) {
    EXPECT_EQ(data_tile_of_compute_tile(d, {2, 3, 1}, compute_tile_of_data_tile(d, {2, 3, 1}, t)),
              t);
  }
}

TEST(LdescNumaMapping, RefusesZonesThatAreNotAPowerOfTwo) {
  EXPECT_THROW(map_to_zones(figure13(), {16, 1, 1}, 3), std::invalid_argument);
  EXPECT_THROW(map_to_zones({}, {16, 1, 1}, 4), std::invalid_argument);
}

}  // namespace
