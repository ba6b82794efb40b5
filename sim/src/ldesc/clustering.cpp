// Algorithm 1 of the Locality Descriptor paper (see clustering.hpp).
#include "clustering.hpp"

#include <algorithm>
#include <stdexcept>

namespace memcarlo::sim::ldesc {
namespace {

std::uint32_t ceil_div(std::uint32_t a, std::uint32_t b) {
  return b == 0 ? 0 : (a + b - 1) / b;
}

}  // namespace

Dim3 tiles_over(const Dim3& grid, const Dim3& tile) {
  return Dim3{ceil_div(grid.x, tile.x), ceil_div(grid.y, tile.y), ceil_div(grid.z, tile.z)};
}

std::uint64_t tile_count(const Dim3& grid, const Dim3& tile) {
  return tiles_over(grid, tile).volume();
}

Dim3 split_for_sms(const Dim3& compute_tile, const Dim3& grid, std::uint32_t sm_count) {
  Dim3 tile = compute_tile;
  while (tile_count(grid, tile) < sm_count && !(tile == Dim3{1, 1, 1})) {
    std::uint32_t* largest = &tile.x;
    if (tile.y > *largest) {
      largest = &tile.y;
    }
    if (tile.z > *largest) {
      largest = &tile.z;
    }
    *largest = ceil_div(*largest, 2);
  }
  return tile;
}

Dim3 cluster_dims(const std::vector<LocalityDescriptor>& descriptors, const Dim3& grid,
                  std::uint32_t sm_count) {
  if (descriptors.empty()) {
    throw std::invalid_argument("cluster_dims: no Locality Descriptor");
  }
  // Step 1: every descriptor's C-Tile split until there are enough for the SMs.
  std::vector<Dim3> tiles;
  tiles.reserve(descriptors.size());
  for (const LocalityDescriptor& d : descriptors) {
    tiles.push_back(split_for_sms(d.compute_tile, grid, sm_count));
  }
  // Step 2: the highest priority's tiles are the clusters; lower ones merge into them while
  // enough clusters remain for every SM.
  Dim3 cls = tiles.front();
  for (std::size_t i = 1; i < tiles.size(); ++i) {
    const auto merged = [&](std::uint32_t c, std::uint32_t t) { return c * std::max(t / c, 1u); };
    const Dim3 mcls{merged(cls.x, tiles[i].x), merged(cls.y, tiles[i].y),
                    merged(cls.z, tiles[i].z)};
    if (tile_count(grid, mcls) >= sm_count) {
      cls = mcls;
    }
  }
  return cls;
}

std::vector<std::vector<std::uint64_t>> assign_clusters(const Dim3& grid, const Dim3& cluster,
                                                        std::uint32_t sm_count) {
  return assign_clusters(grid, cluster, sm_count, [](std::uint64_t) { return true; });
}

}  // namespace memcarlo::sim::ldesc
