// A load's latency histogram pooled over trials: the exact sum of the trials' counts, the same
// from summarize_run and from a sweep's series (summarize_series), and its occupied bins.
#include "memcarlo/analysis/latency_histogram.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "memcarlo/analysis/run_series.hpp"
#include "memcarlo/analysis/summary.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"

namespace memcarlo::analysis {
namespace {

namespace latency = sim::latency;
using latency::Level;

std::size_t at(std::uint32_t load, Level level, std::uint64_t cycles) {
  return load * latency::kRowSize + latency::index_of(level, cycles);
}

/// Two loads (the second never requested), three trials with hand-made histograms.
struct Fixture {
  sim::CompiledTrace trace;
  std::vector<sim::TrialResult> trials;

  Fixture() {
    trace.loads.resize(2);
    trace.loads[0].requests = 4;
    trace.load_info.resize(2);
    for (std::uint64_t t = 0; t < 3; ++t) {
      sim::AccessCounters c;
      c.l1_accesses = 10 + t;
      c.l1_hits = 5;
      sim::TrialResult r;
      r.loads = {c, sim::AccessCounters{}};
      r.overall = c;
      std::vector<std::uint64_t> dense(2 * latency::kRowSize, 0);
      dense[at(0, Level::kL1Hit, 18)] = 5;
      dense[at(0, Level::kL2, 310)] = 2 + t;
      dense[at(0, Level::kDram, 700)] = 3;
      dense[at(1, Level::kL2, 300)] = 1;  // the next load's row is not load 0's
      r.latency_histogram = sim::SparseCounts::from_dense(dense);
      trials.push_back(r);
    }
  }
};

TEST(LatencyHistogramPooling, CountsAreTheSumOverTrials) {
  const Fixture f;
  const LatencyHistogram pooled = pooled_latency_histogram(f.trials, 0);
  EXPECT_EQ(pooled.trials, 3u);
  EXPECT_EQ(pooled.count(Level::kL1Hit, latency::bin_of(18)), 15u);
  EXPECT_EQ(pooled.count(Level::kL2, latency::bin_of(310)), 2u + 3u + 4u);
  EXPECT_EQ(pooled.count(Level::kDram, latency::bin_of(700)), 9u);
  EXPECT_EQ(pooled.accesses(), 15u + 9u + 9u);
  // Equal to the sum of the load's L1 accesses over the trials: 10 + 11 + 12.
  EXPECT_EQ(pooled.accesses(), 33u);
  EXPECT_EQ(pooled.accesses(Level::kL1Hit), 15u);
  EXPECT_EQ(pooled.accesses(Level::kL1Inflight), 0u);
  const auto [first, last] = pooled.occupied_bins();
  EXPECT_EQ(first, latency::bin_of(18));
  EXPECT_EQ(last, latency::bin_of(700) + 1);
  // Load 1's single counter per trial is its own, not load 0's (above: 33 accesses).
  const LatencyHistogram next = pooled_latency_histogram(f.trials, 1);
  EXPECT_EQ(next.accesses(), 3u);
  EXPECT_EQ(next.count(Level::kL2, latency::bin_of(300)), 3u);
  EXPECT_EQ(pooled_latency_histogram(f.trials, 2).occupied_bins(),
            (std::pair<std::size_t, std::size_t>{0, 0}));
}

TEST(LatencyHistogramPooling, SummarizeSeriesGivesTheHistogramSummarizeRunGives) {
  const Fixture f;
  const sim::HierarchyConfig config = sim::load_hierarchy("fermi-c2050");
  const SimulationSummary run = summarize_run(f.trials, f.trace, config);
  const SimulationSummary series = summarize_series(run_series(f.trials, f.trace, config), f.trace);
  ASSERT_EQ(run.loads.size(), 1u);  // load 1 has no requests
  ASSERT_EQ(series.loads.size(), 1u);
  EXPECT_EQ(run.loads[0].latency.trials, 3u);
  EXPECT_EQ(run.loads[0].latency.counts, pooled_latency_histogram(f.trials, 0).counts);
  EXPECT_EQ(series.loads[0].latency.trials, run.loads[0].latency.trials);
  EXPECT_EQ(series.loads[0].latency.counts, run.loads[0].latency.counts);
}

}  // namespace
}  // namespace memcarlo::analysis
