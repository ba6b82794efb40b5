// Distribution summaries: moments by Welford, Student-t interval, Boost.Histogram bins.
#include "memcarlo/analysis/distribution.hpp"

#include <algorithm>
#include <boost/histogram.hpp>
#include <cmath>

#include "memcarlo/analysis/confidence.hpp"
#include "memcarlo/analysis/running_stats.hpp"

namespace memcarlo::analysis {

Histogram make_histogram(std::span<const double> values, const HistogramSpec& spec) {
  Histogram out;
  if (values.empty() || spec.bins == 0) {
    return out;
  }
  double low = 0;
  double high = 1;
  if (!spec.unit_interval) {
    const auto [min_it, max_it] = std::minmax_element(values.begin(), values.end());
    low = *min_it;
    high = *max_it;
    if (high <= low) {
      high = low + 1;  // all values equal: one visible bin starting at the value
    }
  }
  auto histogram = boost::histogram::make_histogram(
      boost::histogram::axis::regular<>(spec.bins, low, high));
  for (double v : values) {
    // The top edge belongs to the last bin (a hit ratio of exactly 1, the largest latency).
    histogram(v >= high ? std::nextafter(high, low) : v);
  }
  const auto& axis = histogram.axis();
  for (int i = 0; i < axis.size(); ++i) {
    out.edges.push_back(axis.bin(i).lower());
    out.counts.push_back(static_cast<std::uint64_t>(histogram.at(i)));
  }
  out.edges.push_back(high);
  return out;
}

std::optional<Distribution> summarize(std::span<const double> values, const HistogramSpec& spec) {
  if (values.empty()) {
    return std::nullopt;
  }
  RunningStats stats;
  for (double v : values) {
    stats.add(v);
  }
  Distribution d;
  d.count = stats.count();
  d.mean = stats.mean();
  d.stddev = stats.stddev();
  d.ci95 = mean_confidence_interval(stats, 0.95);
  d.spread_2sigma = {d.mean - 2 * d.stddev, d.mean + 2 * d.stddev};
  const auto [min_it, max_it] = std::minmax_element(values.begin(), values.end());
  d.min = *min_it;
  d.max = *max_it;
  d.histogram = make_histogram(values, spec);
  return d;
}

std::vector<double> convergence_series(std::span<const double> values) {
  std::vector<double> out;
  out.reserve(values.size());
  RunningStats stats;
  for (double v : values) {
    stats.add(v);
    out.push_back(stats.stddev());
  }
  return out;
}

}  // namespace memcarlo::analysis
