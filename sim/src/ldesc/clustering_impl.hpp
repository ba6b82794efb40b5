// deal_cluster and assign_clusters (clustering.hpp): templates over the block type and the
// snapshot's block filter.
#pragma once

#include <algorithm>

namespace memcarlo::sim::ldesc {

template <typename Visit>
void for_each_block_of_cluster(const Dim3& grid, const Dim3& cluster, std::uint64_t c,
                               Visit&& visit) {
  const Dim3 count = tiles_over(grid, cluster);
  const std::uint64_t cx = c % count.x;
  const std::uint64_t cy = c / count.x % count.y;
  const std::uint64_t cz = c / (std::uint64_t{count.x} * count.y);
  for (std::uint64_t z = cz * cluster.z; z < std::min<std::uint64_t>((cz + 1) * cluster.z, grid.z);
       ++z) {
    for (std::uint64_t y = cy * cluster.y;
         y < std::min<std::uint64_t>((cy + 1) * cluster.y, grid.y); ++y) {
      for (std::uint64_t x = cx * cluster.x;
           x < std::min<std::uint64_t>((cx + 1) * cluster.x, grid.x); ++x) {
        visit(x, y, z, (z * grid.y + y) * grid.x + x);
      }
    }
  }
}

template <typename Block>
void deal_cluster(std::uint64_t c, std::uint64_t clusters, std::uint32_t first_sm,
                  std::uint32_t sms, const std::vector<Block>& blocks,
                  std::vector<std::vector<Block>>& queues) {
  const std::uint64_t whole = clusters / sms * sms;
  if (c < whole) {
    auto& queue = queues[first_sm + c % sms];
    queue.insert(queue.end(), blocks.begin(), blocks.end());
    return;
  }
  // A cluster left over: SMs [first, first + share) deal its blocks in contiguous parts.
  const std::uint64_t left = clusters - whole;
  const std::uint64_t j = c - whole;
  const std::uint64_t first = j * sms / left;
  const std::uint64_t share = std::max<std::uint64_t>((j + 1) * sms / left - first, 1);
  const std::uint64_t part = std::max<std::uint64_t>((blocks.size() + share - 1) / share, 1);
  for (std::uint64_t k = 0; k < blocks.size(); ++k) {
    queues[first_sm + first + std::min(k / part, share - 1)].push_back(blocks[k]);
  }
}

template <typename Present>
std::vector<std::vector<std::uint64_t>> assign_clusters(const Dim3& grid, const Dim3& cluster,
                                                        std::uint32_t sm_count, Present&& present) {
  std::vector<std::vector<std::uint64_t>> queues(sm_count);
  if (sm_count == 0) {
    return queues;
  }
  const Dim3 count = tiles_over(grid, cluster);
  const std::uint64_t clusters = count.volume();
  std::vector<std::uint64_t> blocks;
  for (std::uint64_t c = 0; c < clusters; ++c) {
    blocks.clear();
    for_each_block_of_cluster(grid, cluster, c,
                              [&](std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t id) {
                                if (present(id)) {
                                  blocks.push_back(id);
                                }
                              });
    deal_cluster(c, clusters, 0, sm_count, blocks, queues);
  }
  return queues;
}

}  // namespace memcarlo::sim::ldesc
