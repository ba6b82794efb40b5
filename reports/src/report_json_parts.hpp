// The pieces of the simulation report's JSON that other reports repeat (the sweep report's
// per-point distributions): one writer each, so that both reports spell them the same way.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "memcarlo/analysis/distribution.hpp"
#include "memcarlo/analysis/summary.hpp"
#include "memcarlo/sim/compiled_trace.hpp"

namespace memcarlo::reports {

/// {"mean", "stddev", "ci95", "spread_2sigma", "min", "max", "trials", "histogram"}; null when the
/// metric was undefined in every trial.
nlohmann::ordered_json distribution(const std::optional<analysis::Distribution>& d);

/// {"unit", "access", "edges", "counts", "by_level", "level_shares", "accesses", "trials"}: a
/// load's pooled latency histogram over its occupied bins (README "Report schema").
nlohmann::ordered_json latency_histogram(const analysis::LatencyHistogram& histogram);

/// Adds the reported metrics of an aggregate (the run, an allocation, a kernel) to `out` (an
/// object, possibly with keys already), in table order.
nlohmann::ordered_json aggregate(const analysis::SimulationSummary& summary,
                                 const analysis::MetricDistributions& metrics,
                                 nlohmann::ordered_json out = nlohmann::ordered_json::object());

/// One entry of the report's `loads`: where the load is, its counts, its metrics and, when its
/// accesses have latencies (the L1 enabled), its latency histogram.
nlohmann::ordered_json load_json(const analysis::LoadSummary& load, const sim::CompiledTrace& trace,
                                 const std::vector<const analysis::Metric*>& load_metrics);

}  // namespace memcarlo::reports
