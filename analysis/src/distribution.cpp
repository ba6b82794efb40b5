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
  const auto [min_it, max_it] = std::minmax_element(values.begin(), values.end());
  double low = *min_it;
  double high = *max_it;
  if (high > low) {
    const double margin = 0.05 * (high - low);
    low = spec.unit_interval ? std::max(0.0, low - margin) : low - margin;
    high = spec.unit_interval ? std::min(1.0, high + margin) : high + margin;
  } else {
    const double half = spec.unit_interval ? 0.0005 : 0.5;
    low -= half;
    high += half;
    if (spec.unit_interval && low < 0) {  // move the window inside [0, 1]
      high -= low;
      low = 0;
    } else if (spec.unit_interval && high > 1) {
      low -= high - 1;
      high = 1;
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
