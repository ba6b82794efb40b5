// The statistics of a Monte Carlo run: every metric of the metric table for every static load,
// allocation and kernel and for the whole run, summarised over the trials, plus the convergence
// series.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "memcarlo/analysis/distribution.hpp"
#include "memcarlo/analysis/latency_histogram.hpp"
#include "memcarlo/analysis/metrics.hpp"
#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/config.hpp"
#include "memcarlo/sim/trial_result.hpp"

namespace memcarlo::analysis {

/// One scope's metrics (a load's, or an aggregate's) summarised over the trials, indexed like
/// metric_table(). A metric stays empty when it was undefined in every trial, belongs to the
/// other scope, or reads a counter group the run did not enable.
class MetricDistributions {
 public:
  explicit MetricDistributions(MetricScope scope);

  [[nodiscard]] MetricScope scope() const { return scope_; }
  std::optional<Distribution>& operator[](const Metric& metric);
  const std::optional<Distribution>& operator[](const Metric& metric) const;
  /// By the name of a metric of this scope; throws std::out_of_range for a name the scope lacks.
  std::optional<Distribution>& operator[](std::string_view name);
  const std::optional<Distribution>& operator[](std::string_view name) const;

 private:
  MetricScope scope_;
  std::vector<std::optional<Distribution>> values_;
};

struct LoadSummary {
  std::uint32_t id = 0;
  sim::LoadStatic counts;
  MetricDistributions metrics{MetricScope::kLoad};
  LatencyHistogram latency;  // its L1 transactions' latencies, pooled over the trials
};

struct AllocationSummary {
  std::string name;
  MetricDistributions metrics{MetricScope::kAggregate};
};

struct KernelSummary {
  std::string name;
  std::vector<std::uint32_t> launches;  // trace launch indices of this kernel that were replayed
  MetricDistributions metrics{MetricScope::kAggregate};
};

struct SimulationSummary {
  std::uint64_t trials = 0;
  /// The counter groups the run's policies enabled, in kCounterGroups order; their metrics are
  /// reported, the other groups' are not.
  std::vector<const sim::CounterGroup*> counter_groups;
  MetricDistributions overall{MetricScope::kAggregate};
  std::vector<LoadSummary> loads;              // static loads that appear in the replayed launches
  std::vector<AllocationSummary> allocations;  // allocations that were accessed
  std::vector<KernelSummary> kernels;          // every kernel of the replayed launches
  /// Standard deviation after n = 1..trials trials, per headline aggregate metric name.
  std::map<std::string, std::vector<double>> convergence;

  /// The metrics this run reports in `scope` (kLoad or kAggregate), in table order: those of the
  /// access counters, and those of the counter groups it enabled.
  [[nodiscard]] std::vector<const Metric*> reported_metrics(MetricScope scope) const;
};

SimulationSummary summarize_run(const std::vector<sim::TrialResult>& trials,
                                const sim::CompiledTrace& trace, const sim::HierarchyConfig& config,
                                unsigned histogram_bins = 20);

/// True when every reported 95% interval of a headline metric is narrow enough: half-width at most
/// `epsilon` for ratios and at most `epsilon` x mean for latencies. False while any is undefined
/// (n < 2).
bool intervals_within(const SimulationSummary& summary, double epsilon);

/// The interval furthest from the bound of intervals_within, for progress displays: over the
/// quantities it checks, the largest 95% half-width of a ratio or half-width / |mean| of a
/// latency (comparable with its epsilon), and which quantity that is ("overall
/// l2_read_hit_ratio", "load 3 latency_cycles"). Infinite while an interval is undefined (n < 2).
struct WidestInterval {
  double half_width = 0;
  std::string where;
};
WidestInterval widest_interval(const SimulationSummary& summary);

}  // namespace memcarlo::analysis
