// The summary of one quantity over the trials: moments, intervals and a histogram.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace memcarlo::analysis {

struct Histogram {
  std::vector<double> edges;  // bins + 1 ascending edges; bin i is [edges[i], edges[i+1])
  std::vector<std::uint64_t> counts;  // the last bin also holds values equal to its upper edge
};

struct Distribution {
  std::uint64_t count = 0;  // trials in which the quantity was defined
  double mean = 0;
  double stddev = 0;  // sample standard deviation of the per-trial values
  std::optional<std::array<double, 2>> ci95;  // Student-t interval of the mean (n >= 2)
  std::array<double, 2> spread_2sigma{};      // [mean - 2 stddev, mean + 2 stddev] (paper §5.2)
  double min = 0;
  double max = 0;
  Histogram histogram;
};

struct HistogramSpec {
  unsigned bins = 20;
  /// Ratios: the edges stay inside [0, 1].
  bool unit_interval = false;
};

/// Histogram of `values` with Boost.Histogram, `spec.bins` equal bins that resolve the spread of
/// the values: they span [min, max] widened by 5 % of max - min on each side (cut at 0 and 1 for
/// ratios), so that neither extreme lies on an edge. When every value is the same, the bins span
/// one cycle around it ([v - 0.5, v + 0.5]), or 0.001 for a ratio (moved inside [0, 1]).
Histogram make_histogram(std::span<const double> values, const HistogramSpec& spec);

/// Summarises `values` (one per trial, in trial order); nullopt if there are none.
std::optional<Distribution> summarize(std::span<const double> values, const HistogramSpec& spec);

/// Standard deviation after the first n values, n = 1..size (the paper's Figure 7).
std::vector<double> convergence_series(std::span<const double> values);

}  // namespace memcarlo::analysis
