// The JSON report reads the metric table: every metric of the access counters appears under its
// key, in table order, in each load and in the overall, allocation and kernel objects; the metrics
// of a counter group appear only in reports of runs that enabled the group.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "memcarlo/reports/report.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"

namespace memcarlo::reports {
namespace {

using analysis::Metric;
using analysis::MetricScope;
using nlohmann::ordered_json;

/// One read (id 0) in kernel "k" on allocation "a", three trials of hand-made counters, with or
/// without the prefetch group.
ordered_json report(bool prefetch) {
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
      g.loads = g.allocations = g.kernels = g.overall = {5, 2, 1, 0, 0};
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
    if (analysis::in_scope(metric.scope, scope) && (metric.group == nullptr || prefetch)) {
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

}  // namespace
}  // namespace memcarlo::reports
