// Per-load latency histograms pooled over trials (see latency_histogram.hpp).
#include "memcarlo/analysis/latency_histogram.hpp"

#include <algorithm>

namespace memcarlo::analysis {

namespace latency = sim::latency;

std::uint64_t LatencyHistogram::count(latency::Level level, std::size_t bin) const {
  return counts.empty() ? 0 : counts[static_cast<std::size_t>(level) * latency::kBins + bin];
}

std::uint64_t LatencyHistogram::count(std::size_t bin) const {
  std::uint64_t total = 0;
  for (std::size_t level = 0; level < latency::kLevels; ++level) {
    total += count(static_cast<latency::Level>(level), bin);
  }
  return total;
}

std::uint64_t LatencyHistogram::accesses(latency::Level level) const {
  std::uint64_t total = 0;
  for (std::size_t bin = 0; bin < latency::kBins; ++bin) {
    total += count(level, bin);
  }
  return total;
}

std::uint64_t LatencyHistogram::accesses() const {
  std::uint64_t total = 0;
  for (const std::uint64_t value : counts) {
    total += value;
  }
  return total;
}

std::pair<std::size_t, std::size_t> LatencyHistogram::occupied_bins() const {
  std::size_t first = latency::kBins;
  std::size_t last = 0;
  for (std::size_t bin = 0; bin < latency::kBins; ++bin) {
    if (count(bin) != 0) {
      first = std::min(first, bin);
      last = bin + 1;
    }
  }
  return first < last ? std::pair{first, last} : std::pair<std::size_t, std::size_t>{0, 0};
}

LatencyHistogram pooled_latency_histogram(std::span<const sim::TrialResult> trials,
                                          std::uint32_t load) {
  LatencyHistogram out;
  out.trials = trials.size();
  out.counts.assign(latency::kRowSize, 0);
  const std::size_t begin = std::size_t{load} * latency::kRowSize;
  for (const sim::TrialResult& trial : trials) {
    const sim::SparseCounts& counts = trial.latency_histogram;
    auto it = std::lower_bound(counts.index.begin(), counts.index.end(), begin);
    for (; it != counts.index.end() && *it < begin + latency::kRowSize; ++it) {
      out.counts[*it - begin] += counts.count[static_cast<std::size_t>(it - counts.index.begin())];
    }
  }
  return out;
}

}  // namespace memcarlo::analysis
