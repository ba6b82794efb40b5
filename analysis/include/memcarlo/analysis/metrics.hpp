// The metric table: every per-trial metric of a report, one line each (its JSON key, scope, unit,
// role and how it is computed from a trial's counters). The summary, the JSON report, the
// terminal tables, the comparison of two reports, sweeps, studies and the HTML page walk it; a new
// metric is one line in metrics.cpp (docs/contributing.md, "Adding a metric"). Among them the hit
// ratios, Tm and the expected access latency of paper §6.1,
//     X = H1·t1 + (1 − H1)·[H2·t2 + (1 − H2)·Tm].
// A ratio whose denominator is zero in a trial is undefined (nullopt) for that trial.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "memcarlo/sim/config.hpp"
#include "memcarlo/sim/trial_result.hpp"
#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::analysis {

/// The latency equation of paper §6.1.
constexpr double expected_latency(double h1, double t1, double h2, double t2, double tm) {
  return h1 * t1 + (1 - h1) * (h2 * t2 + (1 - h2) * tm);
}

/// Tm of a trial: its mean DRAM read latency, or t2 + dram.base_latency if nothing reached DRAM.
double trial_dram_latency(const sim::TrialResult& trial, const sim::HierarchyConfig& config);

/// Where a metric is reported: per static load (`loads[]`), or in the aggregates, which share
/// their keys (`overall`, each of `allocations[]` and each `kernels[].overall`).
enum class MetricScope : std::uint8_t {
  kLoad = 1,
  kAggregate = 2,
  kLoadAndAggregate = 3,
};

/// Whether a metric of `metric_scope` is reported in `scope` (kLoad or kAggregate).
constexpr bool in_scope(MetricScope metric_scope, MetricScope scope) {
  return (static_cast<unsigned>(metric_scope) & static_cast<unsigned>(scope)) != 0;
}

enum class MetricUnit : std::uint8_t {
  kRatio,   // a quotient, intervals judged by their half-width; in [0, 1] (histograms cut there)
            // unless it can pass 1 (stays_in_unit_interval)
  kCycles,  // intervals are judged by their half-width over the mean
  kAmount,  // a count or bytes (>= 0): judged like cycles, but neither a ratio nor a latency
};

/// What a metric is computed from, in one trial, for one load or one aggregate.
struct MetricInputs {
  const sim::AccessCounters& access;
  /// The totals of the metric's counter group for the same load or aggregate, one row in the
  /// group's table order; empty for a metric of the access counters alone.
  std::span<const std::uint64_t> group;
  tracebuf::AccessKind kind = tracebuf::AccessKind::kRead;  // the load's (kRead for aggregates)
  double trial_dram_latency = 0;  // Tm of the whole trial, for a load that reached no DRAM
  const sim::HierarchyConfig& config;
  /// The numa counter group's row for the same load or aggregate, empty with one module: what
  /// the inter-module links added to its misses, which its latency X includes.
  std::span<const std::uint64_t> numa;
};

/// One line of the metric table.
struct Metric {
  std::string_view name;  // the JSON key, unique within each scope
  MetricScope scope;
  MetricUnit unit;
  /// A headline metric is checked by `--until-ci`, tracked in the report's `convergence` (when an
  /// aggregate) and shown by the terminal table under `label`.
  bool headline;
  std::string_view label;
  /// nullptr: computed from the access counters, always reported. Otherwise the counter group it
  /// reads: reported only by runs whose policies enabled that group.
  const sim::CounterGroup* group;
  std::optional<double> (*compute)(const MetricInputs&);
  std::string_view description;
};

/// Every metric, in the order the report lists them. The one list of metrics: the summary, the
/// JSON report, the terminal tables, the comparison of two reports, sweeps, studies and the HTML
/// page (html_report.cpp writes it into the page) all walk it.
std::span<const Metric> metric_table();

/// The unit's name as reports write it: "ratio", "cycles" or "amount".
constexpr std::string_view unit_name(MetricUnit unit) {
  switch (unit) {
    case MetricUnit::kRatio:
      return "ratio";
    case MetricUnit::kCycles:
      return "cycles";
    case MetricUnit::kAmount:
      break;
  }
  return "amount";
}

/// Whether the metric's values cannot leave [0, 1]: a ratio, except the extra reads of
/// prefetching, which are ratios to the demand reads and can pass 1. The others' histograms
/// (summary, run series) are cut at 0 and 1 and the HTML page draws them on a [0, 1] axis.
constexpr bool stays_in_unit_interval(const Metric& metric) {
  return metric.unit == MetricUnit::kRatio && !metric.name.starts_with("prefetch_extra_");
}

/// The table's line named `name` that is reported in `scope` (kLoad or kAggregate); nullptr when
/// there is none. A name can have a load line and an aggregate line that differ
/// (dram_latency_cycles).
const Metric* find_metric(std::string_view name, MetricScope scope);

/// The position of `metric` (a line of metric_table()) in the table.
std::size_t metric_index(const Metric& metric);

}  // namespace memcarlo::analysis
