// Histogram bins resolve the spread of the trials: they span [min, max] widened by 5 % on each
// side (cut at 0 and 1 for ratios), and a one-value sample gets a narrow window around it.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "memcarlo/analysis/distribution.hpp"

namespace memcarlo::analysis {
namespace {

std::uint64_t total(const Histogram& h) {
  return std::accumulate(h.counts.begin(), h.counts.end(), std::uint64_t{0});
}

TEST(HistogramBins, RatiosClusteredAroundAValueAreSpreadOverEveryBin) {
  // Hit ratios of 32 trials between 0.740 and 0.771: 20 bins over [0, 1] would put them all in
  // one bin; the bins span [0.740 - 0.00155, 0.771 + 0.00155].
  std::vector<double> values;
  for (int t = 0; t < 32; ++t) {
    values.push_back(0.740 + 0.001 * t);
  }
  const Histogram h = make_histogram(values, {20, true});
  ASSERT_EQ(h.edges.size(), 21u);
  EXPECT_NEAR(h.edges.front(), 0.740 - 0.05 * 0.031, 1e-12);
  EXPECT_NEAR(h.edges.back(), 0.771 + 0.05 * 0.031, 1e-12);
  EXPECT_EQ(total(h), 32u);
  EXPECT_GT(h.counts.front(), 0u);  // the extremes lie inside the first and the last bin
  EXPECT_GT(h.counts.back(), 0u);
  const auto used = std::count_if(h.counts.begin(), h.counts.end(), [](auto c) { return c > 0; });
  EXPECT_GE(used, 18);
}

TEST(HistogramBins, RatioEdgesStayInsideZeroAndOne) {
  const std::vector<double> values = {0.98, 0.99, 1.0};
  const Histogram h = make_histogram(values, {10, true});
  EXPECT_NEAR(h.edges.front(), 0.98 - 0.001, 1e-12);
  EXPECT_DOUBLE_EQ(h.edges.back(), 1.0);
  EXPECT_EQ(h.counts.back(), 1u);  // a ratio of exactly 1 is in the last bin
  EXPECT_EQ(total(h), 3u);
}

TEST(HistogramBins, LatenciesAreWidenedWithoutALimit) {
  const std::vector<double> values = {500, 510, 520, 600};
  const Histogram h = make_histogram(values, {20, false});
  EXPECT_DOUBLE_EQ(h.edges.front(), 495);
  EXPECT_DOUBLE_EQ(h.edges.back(), 605);
  EXPECT_EQ(total(h), 4u);
}

TEST(HistogramBins, OneValueGetsANarrowWindowInsideTheUnitInterval) {
  const std::vector<double> ones(8, 1.0);
  const Histogram top = make_histogram(ones, {20, true});
  EXPECT_NEAR(top.edges.front(), 0.999, 1e-12);
  EXPECT_DOUBLE_EQ(top.edges.back(), 1.0);
  EXPECT_EQ(top.counts.back(), 8u);
  const std::vector<double> zeros(8, 0.0);
  const Histogram bottom = make_histogram(zeros, {20, true});
  EXPECT_DOUBLE_EQ(bottom.edges.front(), 0.0);
  EXPECT_NEAR(bottom.edges.back(), 0.001, 1e-12);
  EXPECT_EQ(bottom.counts.front(), 8u);
  const std::vector<double> cycles(4, 300.0);
  const Histogram latency = make_histogram(cycles, {20, false});
  EXPECT_DOUBLE_EQ(latency.edges.front(), 299.5);
  EXPECT_DOUBLE_EQ(latency.edges.back(), 300.5);
  EXPECT_EQ(total(latency), 4u);
}

}  // namespace
}  // namespace memcarlo::analysis
