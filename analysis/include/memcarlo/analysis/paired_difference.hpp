// The difference between two configurations run with common random numbers: trial t of both used
// the random stream (seed, t), so the per-trial differences are the natural sample.
//
// Method: the paired Student-t interval (e.g. NIST/SEMATECH e-Handbook of Statistical Methods,
// §7.3.1, "paired samples"): with d_t = b_t - a_t over the n trials in which both are defined,
//   mean ± t_{1-(1-L)/2, n-1} · s_d / √n,   s_d the sample standard deviation of the d_t.
// Var(d) = Var(a) + Var(b) - 2 Cov(a, b): the positive correlation that common random numbers
// give makes this interval narrower than Welch's unpaired one (mean_difference.hpp) for the
// same trials. Not defined for n < 2. When every d_t is zero the interval is [0, 0].
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "memcarlo/analysis/metrics.hpp"
#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/config.hpp"
#include "memcarlo/sim/trial_result.hpp"

namespace memcarlo::analysis {

struct PairedDifference {
  std::uint64_t pairs = 0;  // trials in which both sides are defined
  double mean = 0;          // mean of b_t - a_t
  double stddev = 0;        // sample standard deviation of b_t - a_t
  std::optional<std::array<double, 2>> ci95;
};

/// The paired difference b - a over the trials t < min(a.size(), b.size()) in which both are
/// defined; nullopt when there are none.
std::optional<PairedDifference> paired_difference(std::span<const std::optional<double>> a,
                                                  std::span<const std::optional<double>> b,
                                                  double level = 0.95);

/// A metric's value in each trial, in trial order (nullopt where it is undefined), for the load
/// `load_id` (a kLoad metric) or, without one, for the whole run (a kAggregate metric). A metric
/// of a counter group the trials did not enable is undefined, or with
/// `absent_group_counts_nothing` computed from a row of zeros (a prefetcher that is off issued
/// nothing and covered nothing: its coverage is 0, its accuracy 0 / 0, undefined).
std::vector<std::optional<double>> metric_per_trial(const Metric& metric,
                                                    std::span<const sim::TrialResult> trials,
                                                    const sim::CompiledTrace& trace,
                                                    const sim::HierarchyConfig& config,
                                                    std::optional<std::uint32_t> load_id,
                                                    bool absent_group_counts_nothing = false);

/// The metrics a sweep compares with its baseline in `scope` (kLoad or kAggregate): every line of
/// the metric table reported in that scope, in table order. A point compares those that it or
/// the baseline has a series of (run_series: the metrics of the enabled counter groups, and the
/// prefetch group's even when it is off).
std::vector<const Metric*> difference_metrics(MetricScope scope);

}  // namespace memcarlo::analysis
