// Paired differences over common-random-number trials (see paired_difference.hpp for the method).
#include "memcarlo/analysis/paired_difference.hpp"

#include <algorithm>
#include <cmath>

#include "memcarlo/analysis/confidence.hpp"
#include "memcarlo/analysis/running_stats.hpp"

namespace memcarlo::analysis {

std::optional<PairedDifference> paired_difference(std::span<const std::optional<double>> a,
                                                  std::span<const std::optional<double>> b,
                                                  double level) {
  RunningStats stats;
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t t = 0; t < n; ++t) {
    if (a[t] && b[t]) {
      stats.add(*b[t] - *a[t]);
    }
  }
  if (stats.count() == 0) {
    return std::nullopt;
  }
  PairedDifference out;
  out.pairs = stats.count();
  out.mean = stats.mean();
  out.stddev = stats.stddev();
  out.ci95 = mean_confidence_interval(stats, level);
  return out;
}

std::vector<std::optional<double>> metric_per_trial(const Metric& metric,
                                                    std::span<const sim::TrialResult> trials,
                                                    const sim::CompiledTrace& trace,
                                                    const sim::HierarchyConfig& config,
                                                    std::optional<std::uint32_t> load_id,
                                                    bool absent_group_counts_nothing) {
  std::vector<std::optional<double>> out;
  out.reserve(trials.size());
  const std::vector<std::uint64_t> nothing(metric.group != nullptr ? metric.group->width() : 0, 0);
  for (const sim::TrialResult& trial : trials) {
    if (load_id && *load_id >= trial.loads.size()) {
      out.emplace_back();
      continue;
    }
    std::span<const std::uint64_t> group;
    if (metric.group != nullptr) {
      const sim::CounterGroupTotals& totals = trial.groups[sim::counter_group_index(*metric.group)];
      group = load_id ? totals.load(*load_id) : std::span<const std::uint64_t>(totals.overall);
      if (!totals.enabled() && absent_group_counts_nothing) {
        group = nothing;
      }
    }
    const sim::CounterGroupTotals& numa = trial.groups[sim::counter_group_index(sim::kNumaGroup)];
    const MetricInputs in{load_id ? trial.loads[*load_id] : trial.overall,
                          group,
                          load_id ? trace.load_info[*load_id].kind : tracebuf::AccessKind::kRead,
                          trial_dram_latency(trial, config),
                          config,
                          load_id ? numa.load(*load_id) : std::span<const std::uint64_t>(numa.overall)};
    out.push_back(metric.compute(in));
  }
  return out;
}

std::vector<const Metric*> difference_metrics(MetricScope scope) {
  std::vector<const Metric*> out;
  for (const Metric& metric : metric_table()) {
    if (in_scope(metric.scope, scope)) {
      out.push_back(&metric);
    }
  }
  return out;
}

}  // namespace memcarlo::analysis
