// The metric table: its ratios against values worked out by hand from hand-made counters, every
// access counter read by some metric, and the metrics of a counter group reported only by runs
// that enabled the group.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <variant>

#include "memcarlo/analysis/metrics.hpp"
#include "memcarlo/analysis/run_series.hpp"
#include "memcarlo/analysis/summary.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"

namespace memcarlo::analysis {
namespace {

using tracebuf::AccessKind;

const sim::HierarchyConfig& fermi() {
  static const sim::HierarchyConfig config = sim::load_hierarchy("fermi-c2050");  // t1 104, t2 288
  return config;
}

std::optional<double> value(std::string_view name, MetricScope scope, const sim::AccessCounters& c,
                            AccessKind kind = AccessKind::kRead, double trial_tm = 600,
                            std::span<const std::uint64_t> group = {},
                            std::span<const std::uint64_t> numa = {}) {
  const Metric* metric = find_metric(name, scope);
  if (metric == nullptr) {
    ADD_FAILURE() << "no metric " << name;
    return std::nullopt;
  }
  return metric->compute({c, group, kind, trial_tm, fermi(), numa});
}

/// Counters in which every ratio has its own value.
sim::AccessCounters hand_made() {
  sim::AccessCounters c;
  c.l1_accesses = 50;
  c.l1_hits = 20;          // H1 = 0.4
  c.l1_inflight_hits = 5;  // 0.1
  c.l1_sectors = 200;
  c.l1_sector_hits = 90;  // 0.45
  c.l1_store_sectors = 40;
  c.l1_store_sector_hits = 30;  // lookups: (90 + 30) / (200 + 40) = 0.5
  c.l2_reads = 120;
  c.l2_read_hits = 30;  // 0.25
  c.l2_read_sectors = 400;
  c.l2_read_sector_hits = 140;  // 0.35
  c.l2_writes = 10;
  c.l2_write_hits = 6;  // 0.6
  c.l2_write_sectors = 20;
  c.l2_write_sector_hits = 15;  // 0.75
  c.l2_atomics = 8;
  c.l2_atomic_hits = 2;  // atomics: 2 / 8 = 0.25
  c.dram_reads = 90;
  c.dram_latency_sum = 90 * 480.0;  // Tm 480
  return c;
}

TEST(MetricTable, AggregateRatiosAreTheirCountersQuotients) {
  const sim::AccessCounters c = hand_made();
  const auto aggregate = [&](std::string_view name) {
    return *value(name, MetricScope::kAggregate, c);
  };
  EXPECT_DOUBLE_EQ(aggregate("l1_read_hit_ratio"), 0.4);
  EXPECT_DOUBLE_EQ(aggregate("l1_sector_read_hit_ratio"), 0.45);
  EXPECT_DOUBLE_EQ(aggregate("l1_sector_lookup_hit_ratio"), 0.5);
  EXPECT_DOUBLE_EQ(aggregate("l1_inflight_ratio"), 0.1);
  EXPECT_DOUBLE_EQ(aggregate("l2_read_hit_ratio"), 0.25);
  EXPECT_DOUBLE_EQ(aggregate("l2_sector_read_hit_ratio"), 0.35);
  EXPECT_DOUBLE_EQ(aggregate("l2_write_hit_ratio"), 0.6);
  EXPECT_DOUBLE_EQ(aggregate("l2_sector_write_hit_ratio"), 0.75);
  EXPECT_DOUBLE_EQ(aggregate("dram_latency_cycles"), 480.0);
  // X of the loads together: the latency equation on the aggregate's H1, read H2 and Tm.
  EXPECT_DOUBLE_EQ(aggregate("latency_cycles"), 0.4 * 104 + 0.6 * (0.25 * 288 + 0.75 * 480));
}

TEST(MetricTable, AggregateLatencyWithoutL1AccessesIsTheL2PathAndUndefinedWithoutLoads) {
  // The L1 off (no L1 accesses): every load goes to the L2, X = H2 t2 + (1 - H2) Tm.
  sim::AccessCounters l2_only;
  l2_only.l2_reads = 4;
  l2_only.l2_read_hits = 1;
  l2_only.dram_reads = 3;
  l2_only.dram_latency_sum = 3 * 500.0;
  EXPECT_DOUBLE_EQ(*value("latency_cycles", MetricScope::kAggregate, l2_only),
                   0.25 * 288 + 0.75 * 500);
  sim::AccessCounters stores_only;
  stores_only.l2_writes = 5;
  EXPECT_FALSE(value("latency_cycles", MetricScope::kAggregate, stores_only).has_value());
}

TEST(MetricTable, LoadRatiosFollowTheLoadsKind) {
  const sim::AccessCounters c = hand_made();
  const auto load = [&](std::string_view name, AccessKind kind) {
    return value(name, MetricScope::kLoad, c, kind);
  };
  EXPECT_DOUBLE_EQ(*load("l1_hit_ratio", AccessKind::kRead), 0.4);
  EXPECT_DOUBLE_EQ(*load("l1_sector_hit_ratio", AccessKind::kRead), 0.45);
  EXPECT_DOUBLE_EQ(*load("l1_inflight_ratio", AccessKind::kRead), 0.1);
  // H2: reads for loads and read-modify-writes, writes for stores, atomics for atomics.
  EXPECT_DOUBLE_EQ(*load("l2_hit_ratio", AccessKind::kRead), 0.25);
  EXPECT_DOUBLE_EQ(*load("l2_hit_ratio", AccessKind::kReadModifyWrite), 0.25);
  EXPECT_DOUBLE_EQ(*load("l2_hit_ratio", AccessKind::kWrite), 0.6);
  EXPECT_DOUBLE_EQ(*load("l2_hit_ratio", AccessKind::kAtomic), 0.25);
  EXPECT_DOUBLE_EQ(*load("l2_sector_hit_ratio", AccessKind::kRead), 0.35);
  EXPECT_DOUBLE_EQ(*load("l2_sector_hit_ratio", AccessKind::kWrite), 0.75);
  EXPECT_FALSE(load("l2_sector_hit_ratio", AccessKind::kAtomic).has_value());
  EXPECT_DOUBLE_EQ(*load("dram_latency_cycles", AccessKind::kRead), 480.0);
  // X = H1 t1 + (1 - H1)[H2 t2 + (1 - H2) Tm], the load's own H1, H2 and Tm.
  EXPECT_DOUBLE_EQ(*load("latency_cycles", AccessKind::kRead),
                   0.4 * 104 + 0.6 * (0.25 * 288 + 0.75 * 480));
  // Atomics never hit in the L1: X = H2 t2 + (1 - H2) Tm with their own H2 (2 of 8).
  EXPECT_DOUBLE_EQ(*load("latency_cycles", AccessKind::kAtomic), 0.25 * 288 + 0.75 * 480);
  EXPECT_FALSE(load("latency_cycles", AccessKind::kWrite).has_value());
}

TEST(MetricTable, ARatioWithoutDenominatorIsUndefinedAndTmFallsBackToTheTrials) {
  const sim::AccessCounters none;
  EXPECT_FALSE(value("l1_hit_ratio", MetricScope::kLoad, none).has_value());
  EXPECT_FALSE(value("l2_write_hit_ratio", MetricScope::kAggregate, none).has_value());
  EXPECT_FALSE(value("dram_latency_cycles", MetricScope::kAggregate, none).has_value());
  sim::AccessCounters l2_only;
  l2_only.l2_reads = 4;
  l2_only.l2_read_hits = 4;
  EXPECT_DOUBLE_EQ(
      *value("dram_latency_cycles", MetricScope::kAggregate, l2_only, AccessKind::kRead, 555),
      555.0);
  EXPECT_FALSE(value("dram_latency_cycles", MetricScope::kLoad, l2_only).has_value());
  // A load that reached no DRAM takes the trial's Tm in X.
  EXPECT_DOUBLE_EQ(*value("latency_cycles", MetricScope::kLoad, l2_only, AccessKind::kRead, 555),
                   288.0);
}

TEST(MetricTable, EveryAccessCounterIsReadBySomeMetric) {
  // A counter that no metric reads would never reach a report: bump each one in turn and look for
  // a metric of some scope and kind whose value moves.
  const sim::AccessCounters base = hand_made();
  for (const sim::AccessCounterField& field : sim::kAccessCounterFields) {
    sim::AccessCounters bumped = base;
    std::visit([&](auto member) { bumped.*member += 3; }, field.member);
    bool read = false;
    for (const Metric& metric : metric_table()) {
      if (metric.group != nullptr) {
        continue;
      }
      for (const MetricScope scope : {MetricScope::kLoad, MetricScope::kAggregate}) {
        for (const AccessKind kind : {AccessKind::kRead, AccessKind::kWrite, AccessKind::kAtomic}) {
          if (in_scope(metric.scope, scope) &&
              metric.compute({base, {}, kind, 600, fermi(), {}}) !=
                  metric.compute({bumped, {}, kind, 600, fermi(), {}})) {
            read = true;
          }
        }
      }
    }
    EXPECT_TRUE(read) << field.name << " is read by no metric";
  }
}

TEST(MetricTable, NamesAreUniqueWithinEachScope) {
  for (const MetricScope scope : {MetricScope::kLoad, MetricScope::kAggregate}) {
    std::set<std::string_view> names;
    for (const Metric& metric : metric_table()) {
      if (in_scope(metric.scope, scope)) {
        EXPECT_TRUE(names.insert(metric.name).second) << metric.name;
        EXPECT_EQ(find_metric(metric.name, scope), &metric);
      }
    }
  }
}

TEST(NumaMetrics, TheLatencyOfALoadIncludesWhatTheLinksAddedPerAccess) {
  const sim::AccessCounters c = hand_made();  // 50 L1 accesses
  std::array<std::uint64_t, sim::kNumaGroup.width()> numa{};
  numa[sim::kNumaGroup.index_of("crossing_cycles")] = 500;
  const double alone = *value("latency_cycles", MetricScope::kLoad, c);
  // 500 cycles over 50 accesses: X grows by 10, which is what the crossing metric says.
  EXPECT_DOUBLE_EQ(*value("latency_cycles", MetricScope::kLoad, c, AccessKind::kRead, 600, {}, numa),
                   alone + 10);
  EXPECT_DOUBLE_EQ(*value("numa_crossing_latency_cycles", MetricScope::kLoad, c,
                          AccessKind::kRead, 600, numa),
                   10);
  // One module: no numa row, the equation alone.
  EXPECT_DOUBLE_EQ(*value("latency_cycles", MetricScope::kLoad, c, AccessKind::kRead, 600, {}, {}),
                   alone);
}

TEST(PrefetchMetrics, AccuracyCoverageAndLatenessFromTheGroupsCounters) {
  sim::AccessCounters c;
  c.l1_accesses = 100;
  c.l1_hits = 70;
  c.l2_reads = 120;
  c.dram_reads = 30;
  // issued, useful, late, early_evictions, covered, redundant, untraced_lines, dropped,
  // l2_reads, l2_read_hits, dram_reads, covered_late
  const std::array<std::uint64_t, 12> prefetch = {40, 30, 6, 4, 25, 3, 2, 9, 160, 100, 60, 5};
  static_assert(prefetch.size() == sim::kPrefetchGroup.width());
  const auto metric = [&](std::string_view name, MetricScope scope) {
    return value(name, scope, c, AccessKind::kRead, 600, prefetch);
  };
  for (const MetricScope scope : {MetricScope::kLoad, MetricScope::kAggregate}) {
    EXPECT_DOUBLE_EQ(*metric("prefetch_accuracy", scope), 30.0 / 40.0);
    EXPECT_DOUBLE_EQ(*metric("prefetch_coverage", scope), 25.0 / 100.0);
    EXPECT_DOUBLE_EQ(*metric("prefetch_timely_accuracy", scope), (30.0 - 6.0) / 40.0);
    // The Snake paper's accuracy: timely covered demand accesses / demand accesses, not a share
    // of the 40 prefetches issued.
    EXPECT_DOUBLE_EQ(*metric("prefetch_timely_coverage", scope), (25.0 - 5.0) / 100.0);
    EXPECT_DOUBLE_EQ(*metric("prefetch_late_ratio", scope), 6.0 / 30.0);
    EXPECT_DOUBLE_EQ(*metric("prefetch_early_eviction_ratio", scope), 4.0 / 40.0);
    EXPECT_DOUBLE_EQ(*metric("prefetch_useless_ratio", scope), 10.0 / 40.0);
    EXPECT_DOUBLE_EQ(*metric("prefetch_extra_l2_reads", scope), 160.0 / 120.0);
    EXPECT_DOUBLE_EQ(*metric("prefetch_extra_dram_reads", scope), 60.0 / 30.0);
    // Without the group's counters (a run that did not enable it) there is nothing to report.
    EXPECT_FALSE(value("prefetch_accuracy", scope, c).has_value());
  }
  EXPECT_EQ(find_metric("prefetch_accuracy", MetricScope::kLoad)->group, &sim::kPrefetchGroup);
}

/// One load (id 0, a read) in one kernel with one allocation, `trials` trials of hand-made
/// counters: trial t has l1_accesses 100, l1_hits 60 + t and, when `prefetch`, the prefetch group
/// with issued 50 and useful 10 + t (accuracy (10 + t) / 50).
struct OneLoadRun {
  sim::CompiledTrace trace;
  std::vector<sim::TrialResult> trials;

  OneLoadRun(int count, bool prefetch) {
    trace.loads.resize(1);
    trace.loads[0].requests = 10;
    trace.load_info.resize(1);
    trace.load_info[0].kind = AccessKind::kRead;
    trace.kernel_names = {"k"};
    trace.allocation_names = {"a"};
    for (int t = 0; t < count; ++t) {
      sim::TrialResult r;
      sim::AccessCounters c;
      c.l1_accesses = 100;
      c.l1_hits = 60 + static_cast<std::uint64_t>(t);
      r.loads = {c};
      r.allocations = {c};
      r.kernels = {c};
      r.overall = c;
      if (prefetch) {
        sim::CounterGroupTotals& g = r.groups[sim::counter_group_index(sim::kPrefetchGroup)];
        g.width = sim::kPrefetchGroup.width();
        const std::uint64_t useful = 10 + static_cast<std::uint64_t>(t);
        std::vector<std::uint64_t> row = {50, useful, 0, 0, useful, 0, 0, 0, 0, 0, 0, 0};
        g.loads = g.allocations = g.kernels = g.overall = row;
      }
      trials.push_back(r);
    }
  }
};

TEST(PrefetchMetrics, AreReportedOnlyByRunsThatEnabledTheGroup) {
  const OneLoadRun without(4, false);
  const SimulationSummary plain = summarize_run(without.trials, without.trace, fermi());
  EXPECT_TRUE(plain.counter_groups.empty());
  for (const MetricScope scope : {MetricScope::kLoad, MetricScope::kAggregate}) {
    for (const Metric* metric : plain.reported_metrics(scope)) {
      EXPECT_EQ(metric->group, nullptr) << metric->name;
    }
  }
  EXPECT_FALSE(plain.overall["prefetch_accuracy"].has_value());

  const OneLoadRun with(4, true);
  const SimulationSummary s = summarize_run(with.trials, with.trace, fermi());
  ASSERT_EQ(s.counter_groups.size(), 1u);
  EXPECT_EQ(s.counter_groups[0], &sim::kPrefetchGroup);
  // Accuracy per trial 10/50 .. 13/50: mean 11.5 / 50.
  ASSERT_TRUE(s.overall["prefetch_accuracy"].has_value());
  EXPECT_DOUBLE_EQ(s.overall["prefetch_accuracy"]->mean, 11.5 / 50);
  ASSERT_EQ(s.loads.size(), 1u);
  EXPECT_DOUBLE_EQ(s.loads[0].metrics["prefetch_accuracy"]->mean, 11.5 / 50);
  ASSERT_EQ(s.allocations.size(), 1u);
  EXPECT_DOUBLE_EQ(s.allocations[0].metrics["prefetch_accuracy"]->mean, 11.5 / 50);
  EXPECT_DOUBLE_EQ(s.kernels[0].metrics["prefetch_accuracy"]->mean, 11.5 / 50);
  // Coverage of trial t: covered / L1 accesses = (10 + t) / 100.
  EXPECT_DOUBLE_EQ(s.overall["prefetch_coverage"]->mean, 11.5 / 100);
  // The access metrics are the same as without the group.
  EXPECT_DOUBLE_EQ(s.overall["l1_read_hit_ratio"]->mean, plain.overall["l1_read_hit_ratio"]->mean);
  EXPECT_DOUBLE_EQ(s.loads[0].metrics["l1_hit_ratio"]->mean, 0.615);
}

}  // namespace
TEST(PrefetchMetrics, ExtraReadsAboveOneGetHistogramsThatSpanThem) {
  // Trial t: 100 demand L2 reads and 150 + 10 t L2 line reads of prefetches, extra L2 reads 1.5,
  // 1.6, 1.7, 1.8. Not a ratio in [0, 1]: the bins span [1.5 - 0.015, 1.8 + 0.015] like a
  // latency's (cut at 1 they would end below where they start).
  OneLoadRun run(4, true);
  const std::size_t l2_reads = sim::kPrefetchGroup.index_of("l2_reads");
  for (std::size_t t = 0; t < run.trials.size(); ++t) {
    sim::TrialResult& r = run.trials[t];
    r.loads[0].l2_reads = r.allocations[0].l2_reads = r.kernels[0].l2_reads = r.overall.l2_reads =
        100;
    sim::CounterGroupTotals& g = r.groups[sim::counter_group_index(sim::kPrefetchGroup)];
    g.loads[l2_reads] = g.allocations[l2_reads] = g.kernels[l2_reads] = g.overall[l2_reads] =
        150 + 10 * t;
  }
  const auto expect_spans_the_trials = [](const std::optional<Distribution>& d) {
    ASSERT_TRUE(d.has_value());
    EXPECT_DOUBLE_EQ(d->mean, 1.65);
    ASSERT_EQ(d->histogram.edges.size(), 21u);
    EXPECT_NEAR(d->histogram.edges.front(), 1.485, 1e-12);
    EXPECT_NEAR(d->histogram.edges.back(), 1.815, 1e-12);
    // Bins of 0.33 / 20 = 0.0165: 1.5 in the first, 1.8 in the last, 1.6 and 1.7 in bins 6 and
    // 13 ((v - 1.485) / 0.0165 = 6.97 and 13.03).
    const std::vector<std::uint64_t> counts = {1, 0, 0, 0, 0, 0, 1, 0, 0, 0,
                                               0, 0, 0, 1, 0, 0, 0, 0, 0, 1};
    EXPECT_EQ(d->histogram.counts, counts);
  };
  const SimulationSummary s = summarize_run(run.trials, run.trace, fermi());
  expect_spans_the_trials(s.overall["prefetch_extra_l2_reads"]);
  ASSERT_EQ(s.loads.size(), 1u);
  expect_spans_the_trials(s.loads[0].metrics["prefetch_extra_l2_reads"]);
  // A sweep's run series summarises the same values the same way.
  const SimulationSummary series =
      summarize_series(run_series(run.trials, run.trace, fermi()), run.trace);
  expect_spans_the_trials(series.overall["prefetch_extra_l2_reads"]);
  ASSERT_EQ(series.loads.size(), 1u);
  expect_spans_the_trials(series.loads[0].metrics["prefetch_extra_l2_reads"]);
  // The rule is the metric's: accuracy cannot pass 1, the extra reads can.
  EXPECT_TRUE(stays_in_unit_interval(*find_metric("prefetch_accuracy", MetricScope::kAggregate)));
  EXPECT_FALSE(
      stays_in_unit_interval(*find_metric("prefetch_extra_l2_reads", MetricScope::kAggregate)));
}

}  // namespace memcarlo::analysis
