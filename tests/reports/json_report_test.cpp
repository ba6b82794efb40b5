// The JSON report reads the metric table: every metric of the access counters appears under its
// key, in table order, in each load and in the overall, allocation and kernel objects; the metrics
// of a counter group appear only in reports of runs that enabled the group; the README's report
// schema names every metric.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "memcarlo/reports/report.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/sim/latency_bins.hpp"

namespace memcarlo::reports {
namespace {

using analysis::Metric;
using analysis::MetricScope;
using nlohmann::ordered_json;

/// One read (id 0) in kernel "k" on allocation "a", three trials of hand-made counters, with or
/// without the prefetch group, with or without latency histograms (trial t: 2 + t L1 hits of 18
/// cycles, 4 L2 hits of 310 cycles, 4 - t DRAM reads of 700 cycles).
ordered_json report(bool prefetch, bool latencies = false) {
  static const sim::HierarchyConfig config = sim::load_hierarchy("fermi-c2050");
  sim::CompiledTrace trace;
  trace.loads.resize(1);
  trace.loads[0].requests = 4;
  tracebuf::LoadInfo info;
  info.expression = "x[i]";
  trace.load_info = {info};
  trace.kernel_names = {"k"};
  trace.allocation_names = {"a"};
  std::vector<sim::TrialResult> trials;
  for (std::uint64_t t = 0; t < 3; ++t) {
    sim::AccessCounters c;
    c.l1_accesses = 10;
    c.l1_hits = 2 + t;
    c.l2_reads = 8;
    c.l2_read_hits = 4;
    sim::TrialResult r;
    r.loads = r.allocations = r.kernels = {c};
    r.overall = c;
    if (prefetch) {
      sim::CounterGroupTotals& g = r.groups[sim::counter_group_index(sim::kPrefetchGroup)];
      g.width = sim::kPrefetchGroup.width();
      g.loads = g.allocations = g.kernels = g.overall = {5, 2, 1, 0, 2, 0, 0, 0, 0, 0, 0, 1};
    }
    if (latencies) {
      namespace latency = sim::latency;
      std::vector<std::uint64_t> dense(latency::kRowSize, 0);
      dense[latency::index_of(latency::Level::kL1Hit, 18)] = 2 + t;
      dense[latency::index_of(latency::Level::kL2, 310)] = 4;
      dense[latency::index_of(latency::Level::kDram, 700)] = 4 - t;
      r.latency_histogram = sim::SparseCounts::from_dense(dense);
    }
    trials.push_back(r);
  }
  const analysis::SimulationSummary summary = analysis::summarize_run(trials, trace, config);
  ReportInputs inputs;
  inputs.hierarchy = &config;
  return ordered_json::parse(report_json(inputs, summary, trace, ReportPerformance{}));
}

/// The keys of `object` that are metric names of `scope`, in the object's order.
std::vector<std::string> metric_keys(const ordered_json& object, MetricScope scope) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : object.items()) {
    if (analysis::find_metric(key, scope) != nullptr) {
      keys.push_back(key);
    }
  }
  return keys;
}

/// The table's metrics of `scope`, with or without those of the prefetch group.
std::vector<std::string> table_names(MetricScope scope, bool prefetch) {
  std::vector<std::string> names;
  for (const Metric& metric : analysis::metric_table()) {
    if (analysis::in_scope(metric.scope, scope) &&
        (metric.group == nullptr || (prefetch && metric.group == &sim::kPrefetchGroup))) {
      names.emplace_back(metric.name);
    }
  }
  return names;
}

TEST(JsonReportMetrics, EveryAccessMetricOfTheTableAppearsInTableOrderInEachScope) {
  const ordered_json r = report(false);
  const auto aggregate = table_names(MetricScope::kAggregate, false);
  EXPECT_EQ(metric_keys(r["overall"], MetricScope::kAggregate), aggregate);
  EXPECT_EQ(metric_keys(r["allocations"][0], MetricScope::kAggregate), aggregate);
  EXPECT_EQ(metric_keys(r["kernels"][0]["overall"], MetricScope::kAggregate), aggregate);
  EXPECT_EQ(metric_keys(r["loads"][0], MetricScope::kLoad), table_names(MetricScope::kLoad, false));
  // The values are the summaries: H1 of the trials 0.2, 0.3, 0.4.
  EXPECT_DOUBLE_EQ(r["overall"]["l1_read_hit_ratio"]["mean"].get<double>(), 0.3);
  EXPECT_DOUBLE_EQ(r["loads"][0]["l1_hit_ratio"]["mean"].get<double>(), 0.3);
  EXPECT_TRUE(r["overall"]["l2_write_hit_ratio"].is_null());  // no writes: null, not absent
}

// The README's report schema is the product's contract: every metric of the table is named there
// (the per-module shares as numa_module_<k>_share), so a metric added to the table without its
// line in the schema fails here.
TEST(JsonReportMetrics, TheReadmesReportSchemaNamesEveryMetricOfTheTable) {
  std::ifstream in(std::string(MEMCARLO_SOURCE_DIR) + "/README.md");
  ASSERT_TRUE(in) << "README.md";
  const std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const Metric& metric : analysis::metric_table()) {
    std::string name(metric.name);
    if (name.starts_with("numa_module_") && name.ends_with("_share")) {
      name = "numa_module_<k>_share";
    }
    // As a word: latency_cycles inside dram_latency_cycles does not count.
    const auto word_char = [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    bool found = false;
    for (auto at = readme.find(name); at != std::string::npos && !found;
         at = readme.find(name, at + 1)) {
      found = (at == 0 || !word_char(readme[at - 1])) &&
              (at + name.size() == readme.size() || !word_char(readme[at + name.size()]));
    }
    EXPECT_TRUE(found) << metric.name << " is not in the README's report schema";
  }
}

TEST(JsonReportMetrics, ACounterGroupsMetricsAppearOnlyWhenTheRunEnabledTheGroup) {
  const ordered_json without = report(false);
  for (const auto* object : {&without["overall"], &without["loads"][0], &without["allocations"][0],
                             &without["kernels"][0]["overall"]}) {
    EXPECT_FALSE(object->contains("prefetch_accuracy"));
    EXPECT_FALSE(object->contains("prefetch_coverage"));
  }
  const ordered_json with = report(true);
  EXPECT_EQ(metric_keys(with["overall"], MetricScope::kAggregate),
            table_names(MetricScope::kAggregate, true));
  EXPECT_EQ(metric_keys(with["loads"][0], MetricScope::kLoad),
            table_names(MetricScope::kLoad, true));
  EXPECT_DOUBLE_EQ(with["overall"]["prefetch_accuracy"]["mean"].get<double>(), 2.0 / 5);
  EXPECT_DOUBLE_EQ(with["loads"][0]["prefetch_late_ratio"]["mean"].get<double>(), 1.0 / 2);
  EXPECT_DOUBLE_EQ(with["kernels"][0]["overall"]["prefetch_accuracy"]["mean"].get<double>(), 0.4);
  // The access metrics do not change with the group.
  EXPECT_EQ(with["overall"]["l1_read_hit_ratio"], without["overall"]["l1_read_hit_ratio"]);
}

TEST(JsonReportLatencyHistogram, ALoadsHistogramHasItsOccupiedBinsLevelsAndShares) {
  const ordered_json r = report(false, true);
  const ordered_json& h = r["loads"][0]["latency_histogram"];
  EXPECT_EQ(h["unit"], "cycles");
  EXPECT_EQ(h["access"], "L1 transaction");
  EXPECT_EQ(h["trials"], 3);
  EXPECT_EQ(h["accesses"], 30);  // the load's L1 accesses, 10 per trial
  // From the bin of 18 cycles, [16, 20), to the bin of 700, [640, 768).
  const auto edges = h["edges"].get<std::vector<std::uint64_t>>();
  const auto counts = h["counts"].get<std::vector<std::uint64_t>>();
  ASSERT_EQ(edges.size(), counts.size() + 1);
  EXPECT_EQ(edges.front(), 16u);
  EXPECT_EQ(edges.back(), 768u);
  EXPECT_TRUE(std::is_sorted(edges.begin(), edges.end()));
  EXPECT_EQ(counts.front(), 9u);  // 2 + 3 + 4 L1 hits
  EXPECT_EQ(counts.back(), 9u);   // 4 + 3 + 2 DRAM reads
  std::uint64_t total = 0;
  for (std::size_t bin = 0; bin < counts.size(); ++bin) {
    std::uint64_t levels = 0;
    for (const auto& [name, level_counts] : h["by_level"].items()) {
      ASSERT_EQ(level_counts.size(), counts.size()) << name;
      levels += level_counts[bin].get<std::uint64_t>();
    }
    EXPECT_EQ(levels, counts[bin]);
    total += counts[bin];
  }
  EXPECT_EQ(total, 30u);
  const std::vector<std::string> names = {"l1_hit", "l1_inflight", "l2", "dram"};
  std::vector<std::string> keys;
  double shares = 0;
  for (const auto& [name, share] : h["level_shares"].items()) {
    keys.push_back(name);
    shares += share.get<double>();
  }
  EXPECT_EQ(keys, names);
  EXPECT_DOUBLE_EQ(shares, 1.0);
  // The L1 hit share is the pooled L1 hit ratio (9 of 30), here also the mean of the trials'.
  EXPECT_DOUBLE_EQ(h["level_shares"]["l1_hit"].get<double>(), 0.3);
  EXPECT_DOUBLE_EQ(r["loads"][0]["l1_hit_ratio"]["mean"].get<double>(), 0.3);
  EXPECT_DOUBLE_EQ(h["level_shares"]["l2"].get<double>(), 0.4);
  EXPECT_DOUBLE_EQ(h["level_shares"]["dram"].get<double>(), 0.3);
}

TEST(JsonReportLatencyHistogram, ALoadWithoutLatenciesHasNoHistogram) {
  EXPECT_FALSE(report(false)["loads"][0].contains("latency_histogram"));
}

}  // namespace
}  // namespace memcarlo::reports
