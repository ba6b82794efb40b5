// Per-trial metrics derived from a trial's counters: hit ratios, the DRAM latency Tm and the
// expected access latency of paper §6.1,
//     X = H1·t1 + (1 − H1)·[H2·t2 + (1 − H2)·Tm].
// A ratio whose denominator is zero in a trial is undefined (nullopt) for that trial.
#pragma once

#include <optional>

#include "memcarlo/sim/config.hpp"
#include "memcarlo/sim/trial_result.hpp"
#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::analysis {

/// The latency equation of paper §6.1.
constexpr double expected_latency(double h1, double t1, double h2, double t2, double tm) {
  return h1 * t1 + (1 - h1) * (h2 * t2 + (1 - h2) * tm);
}

struct LoadMetrics {
  std::optional<double> l1_hit_ratio;
  std::optional<double> l1_sector_hit_ratio;
  // (load + store sector hits) / (load + store sector lookups): Nsight Compute's way of counting
  std::optional<double> l1_sector_lookup_hit_ratio;
  std::optional<double> l1_inflight_ratio;  // in-flight hits / L1 accesses
  std::optional<double> l2_hit_ratio;       // reads for loads, stores for stores, atomics
  std::optional<double> l2_sector_hit_ratio;
  std::optional<double> dram_latency_cycles;  // Tm
  std::optional<double> latency_cycles;       // X; undefined for stores
};

struct OverallMetrics {
  std::optional<double> l1_read_hit_ratio;
  std::optional<double> l1_sector_read_hit_ratio;
  // Every L1 sector lookup, loads and stores (and atomics) alike, as l1tex__t_sector_hit_rate
  // counts them: (l1_sector_hits + l1_store_sector_hits) / (l1_sectors + l1_store_sectors).
  std::optional<double> l1_sector_lookup_hit_ratio;
  std::optional<double> l1_inflight_ratio;
  std::optional<double> l2_read_hit_ratio;
  std::optional<double> l2_sector_read_hit_ratio;
  std::optional<double> l2_write_hit_ratio;
  std::optional<double> l2_sector_write_hit_ratio;
  std::optional<double> dram_latency_cycles;
};

/// Tm of a trial: its mean DRAM read latency, or t2 + dram.base_latency if nothing reached DRAM.
double trial_dram_latency(const sim::TrialResult& trial, const sim::HierarchyConfig& config);

LoadMetrics load_metrics(const sim::AccessCounters& counters, tracebuf::AccessKind kind,
                         double trial_tm, const sim::HierarchyConfig& config);

OverallMetrics overall_metrics(const sim::AccessCounters& counters, double trial_tm);

}  // namespace memcarlo::analysis
