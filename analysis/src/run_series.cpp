// Per-trial metric series of a run and the summary built from them (see run_series.hpp).
#include "memcarlo/analysis/run_series.hpp"

#include <algorithm>

#include "memcarlo/analysis/paired_difference.hpp"

namespace memcarlo::analysis {
namespace {

/// The defined values, in trial order, summarised like summarize_run's samples.
std::optional<Distribution> summarize_defined(const std::vector<std::optional<double>>& values,
                                              const Metric& metric, unsigned bins) {
  std::vector<double> defined;
  for (const auto& value : values) {
    if (value) {
      defined.push_back(*value);
    }
  }
  return summarize(defined, HistogramSpec{bins, stays_in_unit_interval(metric)});
}

/// A counter group whose absence means that its mechanism did nothing, so that its counters are
/// zero rather than unknown: a run without a prefetcher issued and covered no prefetch, and a
/// sweep from `prefetch.policy=none` to a prefetcher pairs the prefetcher's coverage with 0. Not
/// the numa group: one module serves every access locally, which a row of zeros would deny.
bool counts_nothing_when_off(const sim::CounterGroup* group) {
  return group == &sim::kPrefetchGroup;
}

/// The metrics of `scope` a series keeps: those summarize_run reports, and those of the groups
/// that count nothing when off (series only: the summary still leaves them out).
std::vector<const Metric*> series_metrics(const std::vector<const sim::CounterGroup*>& enabled,
                                          MetricScope scope) {
  std::vector<const Metric*> out;
  for (const Metric* metric : difference_metrics(scope)) {
    if (metric->group == nullptr || counts_nothing_when_off(metric->group) ||
        std::find(enabled.begin(), enabled.end(), metric->group) != enabled.end()) {
      out.push_back(metric);
    }
  }
  return out;
}

}  // namespace

RunSeries run_series(std::span<const sim::TrialResult> trials, const sim::CompiledTrace& trace,
                     const sim::HierarchyConfig& config) {
  RunSeries out;
  out.trials = trials.size();
  for (std::size_t g = 0; g < sim::kCounterGroups.size(); ++g) {
    for (const sim::TrialResult& trial : trials) {
      if (trial.groups[g].enabled()) {
        out.counter_groups.push_back(sim::kCounterGroups[g]);
        break;
      }
    }
  }
  for (const Metric* metric : series_metrics(out.counter_groups, MetricScope::kAggregate)) {
    out.overall[std::string(metric->name)] =
        metric_per_trial(*metric, trials, trace, config, std::nullopt, true);
  }
  const auto load_metrics = series_metrics(out.counter_groups, MetricScope::kLoad);
  for (std::uint32_t id = 0; id < trace.loads.size(); ++id) {
    if (trace.loads[id].requests == 0) {
      continue;
    }
    MetricSeries& load = out.loads[id];
    for (const Metric* metric : load_metrics) {
      load[std::string(metric->name)] = metric_per_trial(*metric, trials, trace, config, id, true);
    }
    out.latency_histograms[id] = pooled_latency_histogram(trials, id).counts;
  }
  return out;
}

SimulationSummary summarize_series(const RunSeries& series, const sim::CompiledTrace& trace,
                                   unsigned bins) {
  SimulationSummary summary;
  summary.trials = series.trials;
  summary.counter_groups = series.counter_groups;
  for (const Metric* metric : summary.reported_metrics(MetricScope::kAggregate)) {
    const auto found = series.overall.find(std::string(metric->name));
    if (found == series.overall.end()) {
      continue;
    }
    summary.overall[*metric] = summarize_defined(found->second, *metric, bins);
    if (metric->headline) {
      std::vector<double> defined;
      for (const auto& value : found->second) {
        if (value) {
          defined.push_back(*value);
        }
      }
      summary.convergence[std::string(metric->name)] = convergence_series(defined);
    }
  }
  const auto load_metrics = summary.reported_metrics(MetricScope::kLoad);
  for (const auto& [id, metrics] : series.loads) {
    LoadSummary load{id, trace.loads.at(id), MetricDistributions(MetricScope::kLoad), {}};
    for (const Metric* metric : load_metrics) {
      const auto found = metrics.find(std::string(metric->name));
      if (found != metrics.end()) {
        load.metrics[*metric] = summarize_defined(found->second, *metric, bins);
      }
    }
    load.latency.trials = series.trials;
    if (const auto histogram = series.latency_histograms.find(id);
        histogram != series.latency_histograms.end()) {
      load.latency.counts = histogram->second;
    }
    summary.loads.push_back(std::move(load));
  }
  return summary;
}

}  // namespace memcarlo::analysis
