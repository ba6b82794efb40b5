// What a sweep keeps of a Monte Carlo run: the per-trial values of every reported metric, overall
// and per load, in trial order, and each load's latency histogram pooled over the trials. Enough
// to summarise the run as summarize_run does (overall and loads), to pair it with another run
// trial by trial, and to store it for --resume.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "memcarlo/analysis/summary.hpp"
#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/config.hpp"
#include "memcarlo/sim/trial_result.hpp"

namespace memcarlo::analysis {

/// One scope's metrics: metric name -> its value in each trial (nullopt where undefined).
using MetricSeries = std::map<std::string, std::vector<std::optional<double>>>;

struct RunSeries {
  std::uint64_t trials = 0;
  std::vector<const sim::CounterGroup*> counter_groups;  // as SimulationSummary::counter_groups
  MetricSeries overall;                                  // the reported aggregate metrics
  std::map<std::uint32_t, MetricSeries> loads;  // the reported load metrics of each replayed load
  /// Per replayed load, its latency histogram pooled over the trials (LatencyHistogram::counts):
  /// the pooled counts are all a summary needs, so the per-trial ones are not kept.
  std::map<std::uint32_t, std::vector<std::uint64_t>> latency_histograms;
};

/// The per-trial values of the metrics summarize_run reports for the run and for each load with
/// requests, and of the prefetch group's metrics when the run had no prefetcher (computed from
/// zero counters: coverage 0), so that a sweep pairs a prefetcher with none.
RunSeries run_series(std::span<const sim::TrialResult> trials, const sim::CompiledTrace& trace,
                     const sim::HierarchyConfig& config);

/// The run's summary, overall and per load, exactly as summarize_run gives them (the same values
/// through the same summarize); allocations and kernels stay empty, convergence is the overall
/// headline metrics'.
SimulationSummary summarize_series(const RunSeries& series, const sim::CompiledTrace& trace,
                                   unsigned histogram_bins = 20);

}  // namespace memcarlo::analysis
