// assign_clusters (clustering.hpp): a template over the snapshot's block filter.
#pragma once

#include <algorithm>

namespace memcarlo::sim::ldesc {

template <typename Present>
std::vector<std::vector<std::uint64_t>> assign_clusters(const Dim3& grid, const Dim3& cluster,
                                                        std::uint32_t sm_count, Present&& present) {
  std::vector<std::vector<std::uint64_t>> queues(sm_count);
  if (sm_count == 0) {
    return queues;
  }
  const Dim3 count = tiles_over(grid, cluster);
  const std::uint64_t clusters = count.volume();
  const std::uint64_t whole = clusters / sm_count * sm_count;
  const std::uint64_t left = clusters - whole;
  std::vector<std::uint64_t> blocks;
  for (std::uint64_t c = 0; c < clusters; ++c) {
    const std::uint64_t cx = c % count.x;
    const std::uint64_t cy = c / count.x % count.y;
    const std::uint64_t cz = c / (std::uint64_t{count.x} * count.y);
    blocks.clear();
    for (std::uint64_t z = cz * cluster.z;
         z < std::min<std::uint64_t>((cz + 1) * cluster.z, grid.z); ++z) {
      for (std::uint64_t y = cy * cluster.y;
           y < std::min<std::uint64_t>((cy + 1) * cluster.y, grid.y); ++y) {
        for (std::uint64_t x = cx * cluster.x;
             x < std::min<std::uint64_t>((cx + 1) * cluster.x, grid.x); ++x) {
          const std::uint64_t id = (z * grid.y + y) * grid.x + x;
          if (present(id)) {
            blocks.push_back(id);
          }
        }
      }
    }
    if (c < whole) {
      auto& queue = queues[c % sm_count];
      queue.insert(queue.end(), blocks.begin(), blocks.end());
      continue;
    }
    // A cluster left over: SMs [first, first + share) deal its blocks in contiguous parts.
    const std::uint64_t j = c - whole;
    const std::uint64_t first = j * sm_count / left;
    const std::uint64_t share = (j + 1) * sm_count / left - first;
    const std::uint64_t part = (blocks.size() + share - 1) / std::max<std::uint64_t>(share, 1);
    for (std::uint64_t k = 0; k < blocks.size(); ++k) {
      queues[first + std::min(k / std::max<std::uint64_t>(part, 1), share - 1)].push_back(
          blocks[k]);
    }
  }
  return queues;
}

}  // namespace memcarlo::sim::ldesc
