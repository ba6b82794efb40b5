// TAFE's hardware tracking of primary-array stores (§4.3): a store's element index goes through
// the inverse TAF to the block whose index range holds it, with a single-entry history buffer
// (one range and its block) so that sequential initialization rarely searches. The paper
// reports a hit rate above 99 %.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "memcarlo/footprint/footprint.hpp"

namespace memcarlo::footprint {

struct HistoryBufferStats {
  std::uint64_t stores = 0;
  std::uint64_t hits = 0;             // the index lay in the buffered block's range
  std::uint64_t misses = 0;           // a search for the block (counted once per store)
  std::uint64_t untracked = 0;        // misses whose index no block's range holds
  std::uint64_t ranges_computed = 0;  // blocks whose range the searches computed
  [[nodiscard]] double hit_rate() const {
    return stores == 0 ? 0.0 : static_cast<double>(hits) / static_cast<double>(stores);
  }
};

/// Replays `store_indices` (element indices, in store order) through the history buffer over
/// `block_ranges` (per block in block order: its least and greatest index). On a miss the
/// hardware increments the block id from the buffered one (wrapping once around the grid),
/// computing each block's range, until a range holds the index; that block and range replace
/// the buffer's entry.
HistoryBufferStats track_primary_stores(const std::vector<Extent>& block_ranges,
                                        std::span<const std::int64_t> store_indices);

}  // namespace memcarlo::footprint
