// Summaries across trials: collects each metric's per-trial values in trial order (so the result
// does not depend on which thread ran which trial) and summarises them.
#include "memcarlo/analysis/summary.hpp"

#include <cmath>
#include <limits>

#include "memcarlo/analysis/metrics.hpp"

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
  [[nodiscard]] std::optional<Distribution> summarize(unsigned bins, bool ratio) const {
    return analysis::summarize(values_, HistogramSpec{bins, ratio});
  }
  [[nodiscard]] const std::vector<double>& values() const { return values_; }

 private:
  std::vector<double> values_;
};

struct OverallSamples {
  Samples l1_read, l1_sector_read, l1_sector_lookup, l1_inflight, l2_read, l2_sector_read, l2_write,
      l2_sector_write, dram;

  void add(const OverallMetrics& m) {
    l1_read.add(m.l1_read_hit_ratio);
    l1_sector_read.add(m.l1_sector_read_hit_ratio);
    l1_sector_lookup.add(m.l1_sector_lookup_hit_ratio);
    l1_inflight.add(m.l1_inflight_ratio);
    l2_read.add(m.l2_read_hit_ratio);
    l2_sector_read.add(m.l2_sector_read_hit_ratio);
    l2_write.add(m.l2_write_hit_ratio);
    l2_sector_write.add(m.l2_sector_write_hit_ratio);
    dram.add(m.dram_latency_cycles);
  }

  [[nodiscard]] OverallDistributions summarize(unsigned bins) const {
    return {l1_read.summarize(bins, true),          l1_sector_read.summarize(bins, true),
            l1_sector_lookup.summarize(bins, true), l1_inflight.summarize(bins, true),
            l2_read.summarize(bins, true),          l2_sector_read.summarize(bins, true),
            l2_write.summarize(bins, true),         l2_sector_write.summarize(bins, true),
            dram.summarize(bins, false)};
  }
};

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

}  // namespace

SimulationSummary summarize_run(const std::vector<sim::TrialResult>& trials,
                                const sim::CompiledTrace& trace,
                                const sim::HierarchyConfig& config, unsigned bins) {
  SimulationSummary summary;
  summary.trials = trials.size();
  const std::size_t load_count = trace.loads.size();
  const std::size_t allocation_count = trace.allocation_names.size();

  struct LoadSamples {
    Samples l1, l1_sector, l1_sector_lookup, l1_inflight, l2, l2_sector, dram, latency;
  };
  std::vector<LoadSamples> loads(load_count);
  std::vector<OverallSamples> allocations(allocation_count);
  std::vector<OverallSamples> kernels(trace.kernel_names.size());
  OverallSamples overall;
  for (const sim::TrialResult& trial : trials) {
    const double tm = trial_dram_latency(trial, config);
    overall.add(overall_metrics(trial.overall, tm));
    for (std::size_t id = 0; id < load_count && id < trial.loads.size(); ++id) {
      const LoadMetrics m = load_metrics(trial.loads[id], trace.load_info[id].kind, tm, config);
      LoadSamples& s = loads[id];
      s.l1.add(m.l1_hit_ratio);
      s.l1_sector.add(m.l1_sector_hit_ratio);
      s.l1_sector_lookup.add(m.l1_sector_lookup_hit_ratio);
      s.l1_inflight.add(m.l1_inflight_ratio);
      s.l2.add(m.l2_hit_ratio);
      s.l2_sector.add(m.l2_sector_hit_ratio);
      s.dram.add(m.dram_latency_cycles);
      s.latency.add(m.latency_cycles);
    }
    for (std::size_t a = 0; a < allocation_count && a < trial.allocations.size(); ++a) {
      allocations[a].add(overall_metrics(trial.allocations[a], tm));
    }
    for (std::size_t k = 0; k < kernels.size() && k < trial.kernels.size(); ++k) {
      kernels[k].add(overall_metrics(trial.kernels[k], tm));
    }
  }
  summary.overall = overall.summarize(bins);
  for (std::uint32_t id = 0; id < load_count; ++id) {
    if (trace.loads[id].requests == 0) {
      continue;
    }
    const LoadSamples& s = loads[id];
    summary.loads.push_back(
        {id, trace.loads[id],
         {s.l1.summarize(bins, true), s.l1_sector.summarize(bins, true),
          s.l1_sector_lookup.summarize(bins, true), s.l1_inflight.summarize(bins, true),
          s.l2.summarize(bins, true), s.l2_sector.summarize(bins, true),
          s.dram.summarize(bins, false), s.latency.summarize(bins, false)}});
  }
  for (std::size_t a = 0; a < allocation_count; ++a) {
    OverallDistributions d = allocations[a].summarize(bins);
    if (d.l1_read_hit_ratio || d.l2_read_hit_ratio || d.l2_write_hit_ratio) {
      summary.allocations.push_back({trace.allocation_names[a], std::move(d)});
    }
  }
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    KernelSummary kernel{trace.kernel_names[k], {}, kernels[k].summarize(bins)};
    for (const sim::LaunchTrace& launch : trace.launches) {
      if (launch.kernel_index == k) {
        kernel.launches.push_back(launch.index);
      }
    }
    summary.kernels.push_back(std::move(kernel));
  }
  summary.convergence["l1_read_hit_ratio"] = convergence_series(overall.l1_read.values());
  summary.convergence["l2_read_hit_ratio"] = convergence_series(overall.l2_read.values());
  summary.convergence["l2_write_hit_ratio"] = convergence_series(overall.l2_write.values());
  summary.convergence["dram_latency_cycles"] = convergence_series(overall.dram.values());
  return summary;
}

bool intervals_within(const SimulationSummary& summary, double epsilon) {
  const OverallDistributions& o = summary.overall;
  bool ok = narrow(o.l1_read_hit_ratio, epsilon) && narrow(o.l2_read_hit_ratio, epsilon) &&
            narrow(o.l2_write_hit_ratio, epsilon) &&
            narrow_relative(o.dram_latency_cycles, epsilon);
  for (const LoadSummary& load : summary.loads) {
    ok = ok && narrow(load.metrics.l1_hit_ratio, epsilon) &&
         narrow(load.metrics.l2_hit_ratio, epsilon) &&
         narrow_relative(load.metrics.latency_cycles, epsilon);
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
  const OverallDistributions& o = summary.overall;
  widen(widest, o.l1_read_hit_ratio, false, "overall l1_read_hit_ratio");
  widen(widest, o.l2_read_hit_ratio, false, "overall l2_read_hit_ratio");
  widen(widest, o.l2_write_hit_ratio, false, "overall l2_write_hit_ratio");
  widen(widest, o.dram_latency_cycles, true, "overall dram_latency_cycles");
  for (const LoadSummary& load : summary.loads) {
    const std::string prefix = "load " + std::to_string(load.id) + " ";
    widen(widest, load.metrics.l1_hit_ratio, false, prefix + "l1_hit_ratio");
    widen(widest, load.metrics.l2_hit_ratio, false, prefix + "l2_hit_ratio");
    widen(widest, load.metrics.latency_cycles, true, prefix + "latency_cycles");
  }
  return widest;
}

}  // namespace memcarlo::analysis
