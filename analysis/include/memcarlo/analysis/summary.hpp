// The statistics of a Monte Carlo run: every metric of every static load, allocation and of the
// whole kernel summarised over the trials, plus the convergence series.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "memcarlo/analysis/distribution.hpp"
#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/config.hpp"
#include "memcarlo/sim/trial_result.hpp"

namespace memcarlo::analysis {

struct LoadDistributions {
  std::optional<Distribution> l1_hit_ratio;
  std::optional<Distribution> l1_sector_hit_ratio;
  std::optional<Distribution> l1_sector_lookup_hit_ratio;
  std::optional<Distribution> l1_inflight_ratio;
  std::optional<Distribution> l2_hit_ratio;
  std::optional<Distribution> l2_sector_hit_ratio;
  std::optional<Distribution> dram_latency_cycles;
  std::optional<Distribution> latency_cycles;
};

struct OverallDistributions {
  std::optional<Distribution> l1_read_hit_ratio;
  std::optional<Distribution> l1_sector_read_hit_ratio;
  std::optional<Distribution> l1_sector_lookup_hit_ratio;
  std::optional<Distribution> l1_inflight_ratio;
  std::optional<Distribution> l2_read_hit_ratio;
  std::optional<Distribution> l2_sector_read_hit_ratio;
  std::optional<Distribution> l2_write_hit_ratio;
  std::optional<Distribution> l2_sector_write_hit_ratio;
  std::optional<Distribution> dram_latency_cycles;
};

struct LoadSummary {
  std::uint32_t id = 0;
  sim::LoadStatic counts;
  LoadDistributions metrics;
};

struct AllocationSummary {
  std::string name;
  OverallDistributions metrics;
};

struct KernelSummary {
  std::string name;
  std::vector<std::uint32_t> launches;  // trace launch indices of this kernel that were replayed
  OverallDistributions metrics;
};

struct SimulationSummary {
  std::uint64_t trials = 0;
  OverallDistributions overall;
  std::vector<LoadSummary> loads;  // static loads that appear in the replayed launches
  std::vector<AllocationSummary> allocations;  // allocations that were accessed
  std::vector<KernelSummary> kernels;  // every kernel of the replayed launches
  /// Standard deviation after n = 1..trials trials, per overall metric name.
  std::map<std::string, std::vector<double>> convergence;
};

SimulationSummary summarize_run(const std::vector<sim::TrialResult>& trials,
                                const sim::CompiledTrace& trace,
                                const sim::HierarchyConfig& config,
                                unsigned histogram_bins = 20);

/// True when every reported 95% interval is narrow enough: half-width at most `epsilon` for
/// ratios and at most `epsilon` x mean for latencies. False while any is undefined (n < 2).
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
