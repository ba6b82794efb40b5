// The history buffer of TAFE's inverse TAF (tracking.hpp).
#include "memcarlo/footprint/tracking.hpp"

namespace memcarlo::footprint {

HistoryBufferStats track_primary_stores(const std::vector<Extent>& block_ranges,
                                        std::span<const std::int64_t> store_indices) {
  HistoryBufferStats stats;
  const std::size_t blocks = block_ranges.size();
  bool buffered = false;
  std::size_t block = 0;
  const auto holds = [&](std::size_t b, std::int64_t index) {
    return block_ranges[b].valid && block_ranges[b].min <= index && index <= block_ranges[b].max;
  };
  for (const std::int64_t index : store_indices) {
    ++stats.stores;
    if (buffered && holds(block, index)) {
      ++stats.hits;
      continue;
    }
    ++stats.misses;
    const std::size_t first = buffered ? block + 1 : 0;
    bool found = false;
    for (std::size_t step = 0; step < blocks && !found; ++step) {
      const std::size_t candidate = (first + step) % blocks;
      ++stats.ranges_computed;
      if (holds(candidate, index)) {
        block = candidate;
        buffered = true;
        found = true;
      }
    }
    if (!found)
      ++stats.untracked;
  }
  return stats;
}

}  // namespace memcarlo::footprint
