// Estimators against reference values: Welford moments and their merge, Student-t quantiles and
// intervals (reference values from standard t tables / R's qt() and t.test()), histograms, the
// latency equation of paper §6.1.
#include <gtest/gtest.h>

#include <numeric>

#include "memcarlo/analysis/confidence.hpp"
#include "memcarlo/analysis/distribution.hpp"
#include "memcarlo/analysis/metrics.hpp"
#include "memcarlo/analysis/running_stats.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"

namespace memcarlo::analysis {
namespace {

/// A trial's value of the metric table's line `name` for a load of `kind`.
std::optional<double> load_metric(std::string_view name, const sim::AccessCounters& c,
                                  tracebuf::AccessKind kind, double trial_tm,
                                  const sim::HierarchyConfig& config) {
  return find_metric(name, MetricScope::kLoad)->compute({c, {}, kind, trial_tm, config, {}});
}

/// A trial's value of the metric table's aggregate line `name`.
std::optional<double> aggregate_metric(std::string_view name, const sim::AccessCounters& c,
                                       double trial_tm) {
  static const sim::HierarchyConfig config = sim::load_hierarchy("fermi-c2050");
  return find_metric(name, MetricScope::kAggregate)
      ->compute({c, {}, tracebuf::AccessKind::kRead, trial_tm, config, {}});
}

TEST(RunningStats, MatchesTheTwoPassFormulas) {
  const std::vector<double> values = {0.61, 0.64, 0.59, 0.66, 0.62, 0.63, 0.60};
  RunningStats stats;
  for (double v : values) {
    stats.add(v);
  }
  const double mean = std::accumulate(values.begin(), values.end(), 0.0) / 7;
  double squares = 0;
  for (double v : values) {
    squares += (v - mean) * (v - mean);
  }
  EXPECT_NEAR(stats.mean(), mean, 1e-15);
  EXPECT_NEAR(stats.variance(), squares / 6, 1e-15);
}

TEST(RunningStats, MergingPartsGivesTheSameMomentsAsOnePass) {
  RunningStats all, left, right;
  for (int i = 0; i < 100; ++i) {
    const double v = 1e6 + (i * 37 % 11) * 0.1;  // a large offset: sums of squares would cancel
    all.add(v);
    (i < 30 ? left : right).add(v);
  }
  left += right;
  EXPECT_EQ(left.count(), 100u);
  EXPECT_NEAR(left.mean(), all.mean(), 1e-9);
  EXPECT_NEAR(left.variance(), all.variance(), 1e-9);
  EXPECT_GT(all.variance(), 0.0);
}

TEST(StudentT, QuantilesMatchTheTables) {
  EXPECT_NEAR(student_t_quantile(0.95, 1), 12.7062047, 1e-6);
  EXPECT_NEAR(student_t_quantile(0.95, 4), 2.7764451, 1e-6);
  EXPECT_NEAR(student_t_quantile(0.95, 9), 2.2621572, 1e-6);
  EXPECT_NEAR(student_t_quantile(0.95, 29), 2.0452296, 1e-6);
  EXPECT_NEAR(student_t_quantile(0.99, 20), 2.8453397, 1e-6);
  EXPECT_NEAR(student_t_quantile(0.95, 100000), 1.959964, 1e-4);
}

TEST(StudentT, IntervalOfOneToFiveMatchesRsTTest) {
  // R: t.test(1:5)$conf.int = 1.036757 4.963243
  RunningStats stats;
  for (int v = 1; v <= 5; ++v) {
    stats.add(v);
  }
  const auto interval = mean_confidence_interval(stats);
  ASSERT_TRUE(interval.has_value());
  EXPECT_NEAR((*interval)[0], 1.036757, 1e-6);
  EXPECT_NEAR((*interval)[1], 4.963243, 1e-6);
  RunningStats one;
  one.add(3);
  EXPECT_FALSE(mean_confidence_interval(one).has_value());
}

TEST(Histogram, RatioBinsCoverZeroToOneAndKeepOneInTheLastBin) {
  const std::vector<double> values = {0.0, 0.04, 0.05, 0.5, 0.99, 1.0};
  const Histogram h = make_histogram(values, {20, true});
  ASSERT_EQ(h.edges.size(), 21u);
  EXPECT_DOUBLE_EQ(h.edges.front(), 0.0);
  EXPECT_DOUBLE_EQ(h.edges.back(), 1.0);
  EXPECT_EQ(h.counts[0], 2u);
  EXPECT_EQ(h.counts[1], 1u);
  EXPECT_EQ(h.counts[10], 1u);
  EXPECT_EQ(h.counts[19], 2u);
  EXPECT_EQ(std::accumulate(h.counts.begin(), h.counts.end(), std::uint64_t{0}), values.size());
}

TEST(Distribution, SummaryCarriesTheTwoSigmaSpreadAndTheInterval) {
  const std::vector<double> values = {1, 2, 3, 4, 5};
  const auto d = summarize(values, {10, false});
  ASSERT_TRUE(d.has_value());
  EXPECT_DOUBLE_EQ(d->mean, 3.0);
  EXPECT_NEAR(d->stddev, 1.5811388, 1e-7);
  EXPECT_NEAR(d->spread_2sigma[0], 3 - 2 * 1.5811388, 1e-7);
  EXPECT_NEAR(d->spread_2sigma[1], 3 + 2 * 1.5811388, 1e-7);
  // [min, max] widened by 5 % of the range on each side (histogram_bins_test.cpp).
  EXPECT_DOUBLE_EQ(d->histogram.edges.front(), 0.8);
  EXPECT_DOUBLE_EQ(d->histogram.edges.back(), 5.2);
  EXPECT_FALSE(summarize(std::vector<double>{}, {}).has_value());
}

TEST(Convergence, SeriesIsTheStandardDeviationAfterEachTrial) {
  const std::vector<double> values = {1, 3, 5};
  const auto series = convergence_series(values);
  ASSERT_EQ(series.size(), 3u);
  EXPECT_DOUBLE_EQ(series[0], 0.0);
  EXPECT_DOUBLE_EQ(series[1], std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(series[2], 2.0);
}

TEST(LatencyEquation, CombinesHitRatiosAndLatenciesAsInPaperSection6) {
  // X = H1 t1 + (1 - H1)[H2 t2 + (1 - H2) Tm]
  EXPECT_DOUBLE_EQ(expected_latency(1.0, 100, 0.3, 300, 600), 100.0);
  EXPECT_DOUBLE_EQ(expected_latency(0.0, 100, 1.0, 300, 600), 300.0);
  EXPECT_DOUBLE_EQ(expected_latency(0.0, 100, 0.0, 300, 600), 600.0);
  EXPECT_DOUBLE_EQ(expected_latency(0.5, 100, 0.5, 300, 600), 0.5 * 100 + 0.5 * (150 + 300));
}

TEST(LoadMetrics, PerLoadLatencyUsesItsOwnHitRatiosAndDramLatency) {
  const auto config = sim::load_hierarchy("fermi-c2050");  // t1 = 104, t2 = 288
  sim::AccessCounters c;
  c.l1_accesses = 10;
  c.l1_hits = 4;
  c.l2_reads = 24;  // 6 misses x 4 blocks
  c.l2_read_hits = 6;
  c.dram_reads = 18;
  c.dram_latency_sum = 18 * 500.0;
  const auto m = [&](std::string_view name) {
    return load_metric(name, c, tracebuf::AccessKind::kRead, 999, config);
  };
  EXPECT_DOUBLE_EQ(*m("l1_hit_ratio"), 0.4);
  EXPECT_DOUBLE_EQ(*m("l2_hit_ratio"), 0.25);
  EXPECT_DOUBLE_EQ(*m("dram_latency_cycles"), 500.0);
  EXPECT_DOUBLE_EQ(*m("latency_cycles"), 0.4 * 104 + 0.6 * (0.25 * 288 + 0.75 * 500));
  EXPECT_FALSE(load_metric("latency_cycles", c, tracebuf::AccessKind::kWrite, 999, config)
                   .has_value());
}

TEST(SectorLookupRatio, CountsLoadAndStoreSectorsTogetherAsNsightComputeDoes) {
  sim::AccessCounters c;
  c.l1_sectors = 40;  // loads: 10 of 40 sectors hit
  c.l1_sector_hits = 10;
  c.l1_store_sectors = 10;  // stores: 5 of 10 sectors were valid before the store
  c.l1_store_sector_hits = 5;
  EXPECT_DOUBLE_EQ(*aggregate_metric("l1_sector_read_hit_ratio", c, 500), 0.25);  // loads only
  EXPECT_DOUBLE_EQ(*aggregate_metric("l1_sector_lookup_hit_ratio", c, 500), 15.0 / 50.0);
}

TEST(SectorLookupRatio, IsDefinedForAStoreOnlyKernelAndUndefinedWithoutL1Lookups) {
  sim::AccessCounters stores;
  stores.l1_store_sectors = 8;  // stores that found nothing in the L1
  EXPECT_FALSE(aggregate_metric("l1_sector_read_hit_ratio", stores, 500).has_value());
  ASSERT_TRUE(aggregate_metric("l1_sector_lookup_hit_ratio", stores, 500).has_value());
  EXPECT_DOUBLE_EQ(*aggregate_metric("l1_sector_lookup_hit_ratio", stores, 500), 0.0);
  EXPECT_FALSE(
      aggregate_metric("l1_sector_lookup_hit_ratio", sim::AccessCounters{}, 500).has_value());

  const auto config = sim::load_hierarchy("fermi-c2050");
  sim::AccessCounters store = stores;
  store.l1_store_sector_hits = 2;
  EXPECT_DOUBLE_EQ(
      *load_metric("l1_sector_lookup_hit_ratio", store, tracebuf::AccessKind::kWrite, 500, config),
      0.25);
  EXPECT_FALSE(load_metric("l1_sector_hit_ratio", store, tracebuf::AccessKind::kWrite, 500, config)
                   .has_value());
}

}  // namespace
}  // namespace memcarlo::analysis
