// A load's latency histogram pooled over the trials of a run: how many of its L1 transactions
// took each latency (sim/latency_bins.hpp), by the level that served them. Counts are integers,
// so the pooled sum is exact in any order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "memcarlo/sim/latency_bins.hpp"
#include "memcarlo/sim/trial_result.hpp"

namespace memcarlo::analysis {

struct LatencyHistogram {
  std::uint64_t trials = 0;           // trials pooled
  std::vector<std::uint64_t> counts;  // [level][bin], latency::kRowSize; empty: no trial

  /// Accesses in bin `bin` served by `level`.
  [[nodiscard]] std::uint64_t count(sim::latency::Level level, std::size_t bin) const;
  /// Accesses in bin `bin`, all levels.
  [[nodiscard]] std::uint64_t count(std::size_t bin) const;
  /// Accesses served by `level`, all bins.
  [[nodiscard]] std::uint64_t accesses(sim::latency::Level level) const;
  [[nodiscard]] std::uint64_t accesses() const;
  /// The bins from the first to the last that holds an access, as [first, last); {0, 0} when
  /// none does.
  [[nodiscard]] std::pair<std::size_t, std::size_t> occupied_bins() const;
};

/// Load `load`'s histogram summed over `trials` (each TrialResult::latency_histogram).
LatencyHistogram pooled_latency_histogram(std::span<const sim::TrialResult> trials,
                                          std::uint32_t load);

}  // namespace memcarlo::analysis
