// Summaries across trials: collects each metric's per-trial values in trial order (so the result
// does not depend on which thread ran which trial) and summarises them.
#include "memcarlo/analysis/summary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace memcarlo::analysis {
namespace {

/// Per-trial values of one metric; undefined trials are skipped.
class Samples {
 public:
  void add(const std::optional<double>& value) {
    if (value) {
      values_.push_back(*value);
    }
  }
  /// `unit_interval`: the metric cannot leave [0, 1], so its histogram stays inside it.
  [[nodiscard]] std::optional<Distribution> summarize(unsigned bins, bool unit_interval) const {
    return analysis::summarize(values_, HistogramSpec{bins, unit_interval});
  }
  [[nodiscard]] const std::vector<double>& values() const { return values_; }

 private:
  std::vector<double> values_;
};

/// The per-trial values of a list of metrics (one scope's reported ones) for one load or
/// aggregate.
class ScopeSamples {
 public:
  explicit ScopeSamples(const std::vector<const Metric*>& metrics)
      : metrics_(&metrics), samples_(metrics.size()) {}

  /// Adds one trial: `group_row(group)` gives the totals row of a counter group for the same load
  /// or aggregate.
  template <class GroupRow>
  void add(const sim::AccessCounters& access, GroupRow group_row, tracebuf::AccessKind kind,
           double trial_tm, const sim::HierarchyConfig& config) {
    for (std::size_t m = 0; m < samples_.size(); ++m) {
      const Metric& metric = *(*metrics_)[m];
      const MetricInputs in{
          access,
          metric.group == nullptr ? std::span<const std::uint64_t>() : group_row(*metric.group),
          kind,
          trial_tm,
          config,
          group_row(sim::kNumaGroup)};
      samples_[m].add(metric.compute(in));
    }
  }

  [[nodiscard]] MetricDistributions summarize(MetricScope scope, unsigned bins) const {
    MetricDistributions out(scope);
    for (std::size_t m = 0; m < samples_.size(); ++m) {
      const Metric& metric = *(*metrics_)[m];
      out[metric] = samples_[m].summarize(bins, stays_in_unit_interval(metric));
    }
    return out;
  }

  [[nodiscard]] const Samples& of(const Metric& metric) const {
    for (std::size_t m = 0; m < samples_.size(); ++m) {
      if ((*metrics_)[m] == &metric) {
        return samples_[m];
      }
    }
    throw std::out_of_range("metric not collected: " + std::string(metric.name));
  }

 private:
  const std::vector<const Metric*>* metrics_;
  std::vector<Samples> samples_;
};

/// Whether an allocation was accessed in a trial: a load probed the L1 for it, or a read or a
/// write reached the L2 (atomics alone leave it out of the report, as they always have).
bool accessed(const sim::AccessCounters& c) {
  return c.l1_accesses > 0 || c.l2_reads > 0 || c.l2_writes > 0;
}

bool narrow(const std::optional<Distribution>& d, double limit) {
  if (!d) {
    return true;  // not reported
  }
  if (!d->ci95) {
    return false;
  }
  return ((*d->ci95)[1] - (*d->ci95)[0]) / 2 <= limit;
}

bool narrow_relative(const std::optional<Distribution>& d, double epsilon) {
  return !d || narrow(d, epsilon * std::abs(d->mean));
}

bool narrow_enough(const Metric& metric, const std::optional<Distribution>& d, double epsilon) {
  return metric.unit == MetricUnit::kRatio ? narrow(d, epsilon) : narrow_relative(d, epsilon);
}

}  // namespace

MetricDistributions::MetricDistributions(MetricScope scope)
    : scope_(scope), values_(metric_table().size()) {}

std::optional<Distribution>& MetricDistributions::operator[](const Metric& metric) {
  return values_.at(metric_index(metric));
}

const std::optional<Distribution>& MetricDistributions::operator[](const Metric& metric) const {
  return values_.at(metric_index(metric));
}

std::optional<Distribution>& MetricDistributions::operator[](std::string_view name) {
  const Metric* metric = find_metric(name, scope_);
  if (metric == nullptr) {
    throw std::out_of_range("no metric " + std::string(name) + " in this scope");
  }
  return (*this)[*metric];
}

const std::optional<Distribution>& MetricDistributions::operator[](std::string_view name) const {
  const Metric* metric = find_metric(name, scope_);
  if (metric == nullptr) {
    throw std::out_of_range("no metric " + std::string(name) + " in this scope");
  }
  return (*this)[*metric];
}

std::vector<const Metric*> SimulationSummary::reported_metrics(MetricScope scope) const {
  std::vector<const Metric*> out;
  for (const Metric& metric : metric_table()) {
    const bool group_enabled =
        metric.group == nullptr || std::find(counter_groups.begin(), counter_groups.end(),
                                             metric.group) != counter_groups.end();
    if (in_scope(metric.scope, scope) && group_enabled) {
      out.push_back(&metric);
    }
  }
  return out;
}

SimulationSummary summarize_run(const std::vector<sim::TrialResult>& trials,
                                const sim::CompiledTrace& trace, const sim::HierarchyConfig& config,
                                unsigned bins) {
  SimulationSummary summary;
  summary.trials = trials.size();
  for (std::size_t g = 0; g < sim::kCounterGroups.size(); ++g) {
    for (const sim::TrialResult& trial : trials) {
      if (trial.groups[g].enabled()) {
        summary.counter_groups.push_back(sim::kCounterGroups[g]);
        break;
      }
    }
  }
  const std::vector<const Metric*> load_metrics = summary.reported_metrics(MetricScope::kLoad);
  const std::vector<const Metric*> aggregate_metrics =
      summary.reported_metrics(MetricScope::kAggregate);
  const std::size_t load_count = trace.loads.size();
  const std::size_t allocation_count = trace.allocation_names.size();

  std::vector<ScopeSamples> loads(load_count, ScopeSamples(load_metrics));
  std::vector<ScopeSamples> allocations(allocation_count, ScopeSamples(aggregate_metrics));
  std::vector<bool> allocation_accessed(allocation_count, false);
  std::vector<ScopeSamples> kernels(trace.kernel_names.size(), ScopeSamples(aggregate_metrics));
  ScopeSamples overall(aggregate_metrics);
  constexpr auto kAggregateKind = tracebuf::AccessKind::kRead;  // unused by aggregate metrics
  for (const sim::TrialResult& trial : trials) {
    const double tm = trial_dram_latency(trial, config);
    const auto groups = [&](const sim::CounterGroup& group) -> const sim::CounterGroupTotals& {
      return trial.groups[sim::counter_group_index(group)];
    };
    overall.add(
        trial.overall, [&](const sim::CounterGroup& g) { return std::span(groups(g).overall); },
        kAggregateKind, tm, config);
    for (std::size_t id = 0; id < load_count && id < trial.loads.size(); ++id) {
      loads[id].add(
          trial.loads[id], [&](const sim::CounterGroup& g) { return groups(g).load(id); },
          trace.load_info[id].kind, tm, config);
    }
    for (std::size_t a = 0; a < allocation_count && a < trial.allocations.size(); ++a) {
      allocations[a].add(
          trial.allocations[a], [&](const sim::CounterGroup& g) { return groups(g).allocation(a); },
          kAggregateKind, tm, config);
      allocation_accessed[a] = allocation_accessed[a] || accessed(trial.allocations[a]);
    }
    for (std::size_t k = 0; k < kernels.size() && k < trial.kernels.size(); ++k) {
      kernels[k].add(
          trial.kernels[k], [&](const sim::CounterGroup& g) { return groups(g).kernel(k); },
          kAggregateKind, tm, config);
    }
  }
  summary.overall = overall.summarize(MetricScope::kAggregate, bins);
  for (std::uint32_t id = 0; id < load_count; ++id) {
    if (trace.loads[id].requests == 0) {
      continue;
    }
    summary.loads.push_back({id, trace.loads[id], loads[id].summarize(MetricScope::kLoad, bins),
                             pooled_latency_histogram(trials, id)});
  }
  for (std::size_t a = 0; a < allocation_count; ++a) {
    if (allocation_accessed[a]) {
      summary.allocations.push_back(
          {trace.allocation_names[a], allocations[a].summarize(MetricScope::kAggregate, bins)});
    }
  }
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    KernelSummary kernel{
        trace.kernel_names[k], {}, kernels[k].summarize(MetricScope::kAggregate, bins)};
    for (const sim::LaunchTrace& launch : trace.launches) {
      if (launch.kernel_index == k) {
        kernel.launches.push_back(launch.index);
      }
    }
    summary.kernels.push_back(std::move(kernel));
  }
  for (const Metric* metric : aggregate_metrics) {
    if (metric->headline) {
      summary.convergence[std::string(metric->name)] =
          convergence_series(overall.of(*metric).values());
    }
  }
  return summary;
}

bool intervals_within(const SimulationSummary& summary, double epsilon) {
  bool ok = true;
  for (const Metric* metric : summary.reported_metrics(MetricScope::kAggregate)) {
    ok = ok && (!metric->headline || narrow_enough(*metric, summary.overall[*metric], epsilon));
  }
  const std::vector<const Metric*> load_metrics = summary.reported_metrics(MetricScope::kLoad);
  for (const LoadSummary& load : summary.loads) {
    for (const Metric* metric : load_metrics) {
      ok = ok && (!metric->headline || narrow_enough(*metric, load.metrics[*metric], epsilon));
    }
  }
  return ok;
}

namespace {

/// Widens `widest` to the interval of `d` when that is wider; `relative` divides by |mean|.
void widen(WidestInterval& widest, const std::optional<Distribution>& d, bool relative,
           const std::string& where) {
  if (!d) {
    return;
  }
  double half = std::numeric_limits<double>::infinity();
  if (d->ci95) {
    half = ((*d->ci95)[1] - (*d->ci95)[0]) / 2;
    if (relative) {
      half = d->mean == 0 ? (half == 0 ? 0.0 : std::numeric_limits<double>::infinity())
                          : half / std::abs(d->mean);
    }
  }
  if (widest.where.empty() || half > widest.half_width) {
    widest = {half, where};
  }
}

}  // namespace

WidestInterval widest_interval(const SimulationSummary& summary) {
  WidestInterval widest;
  for (const Metric* metric : summary.reported_metrics(MetricScope::kAggregate)) {
    if (metric->headline) {
      widen(widest, summary.overall[*metric], metric->unit == MetricUnit::kCycles,
            "overall " + std::string(metric->name));
    }
  }
  const std::vector<const Metric*> load_metrics = summary.reported_metrics(MetricScope::kLoad);
  for (const LoadSummary& load : summary.loads) {
    const std::string prefix = "load " + std::to_string(load.id) + " ";
    for (const Metric* metric : load_metrics) {
      if (metric->headline) {
        widen(widest, load.metrics[*metric], metric->unit == MetricUnit::kCycles,
              prefix + std::string(metric->name));
      }
    }
  }
  return widest;
}

}  // namespace memcarlo::analysis
