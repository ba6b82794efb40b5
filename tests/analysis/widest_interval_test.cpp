// The interval `simulate --until-ci` shows while it runs: the widest of the quantities the stop
// rule checks, latencies relative to their mean, infinite while one is undefined.
#include <gtest/gtest.h>

#include <cmath>

#include "memcarlo/analysis/summary.hpp"

namespace memcarlo::analysis {
namespace {

Distribution with_interval(double mean, double half) {
  Distribution d;
  d.count = 8;
  d.mean = mean;
  d.ci95 = std::array<double, 2>{mean - half, mean + half};
  return d;
}

TEST(WidestInterval, ComparesRatioHalfWidthsWithLatencyHalfWidthsOverTheirMeans) {
  SimulationSummary summary;
  summary.overall["l1_read_hit_ratio"] = with_interval(0.5, 0.004);
  summary.overall["dram_latency_cycles"] = with_interval(600, 1.2);  // 0.002 relative
  LoadSummary load;
  load.id = 7;
  load.metrics["l2_hit_ratio"] = with_interval(0.2, 0.003);
  load.metrics["latency_cycles"] = with_interval(400, 2.4);  // 0.006 relative: the widest
  summary.loads.push_back(load);
  const WidestInterval widest = widest_interval(summary);
  EXPECT_NEAR(widest.half_width, 0.006, 1e-12);
  EXPECT_EQ(widest.where, "load 7 latency_cycles");
  EXPECT_EQ(intervals_within(summary, 0.006 + 1e-9), true);
  EXPECT_EQ(intervals_within(summary, 0.0059), false);
}

TEST(WidestInterval, IsInfiniteWhileAnIntervalIsUndefined) {
  SimulationSummary summary;
  summary.overall["l1_read_hit_ratio"] = with_interval(0.5, 0.004);
  Distribution one_trial;
  one_trial.count = 1;
  summary.overall["l2_read_hit_ratio"] = one_trial;
  const WidestInterval widest = widest_interval(summary);
  EXPECT_TRUE(std::isinf(widest.half_width));
  EXPECT_EQ(widest.where, "overall l2_read_hit_ratio");
}

}  // namespace
}  // namespace memcarlo::analysis
