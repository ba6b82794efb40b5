// Per-trial metric derivation (see metrics.hpp).
#include "memcarlo/analysis/metrics.hpp"

namespace memcarlo::analysis {
namespace {

std::optional<double> ratio(std::uint64_t numerator, std::uint64_t denominator) {
  if (denominator == 0) {
    return std::nullopt;
  }
  return static_cast<double>(numerator) / static_cast<double>(denominator);
}

/// Loads' and stores' L1 sector lookups together (stores' are zero for a load and vice versa).
std::optional<double> sector_lookup_ratio(const sim::AccessCounters& c) {
  return ratio(c.l1_sector_hits + c.l1_store_sector_hits, c.l1_sectors + c.l1_store_sectors);
}

}  // namespace

double trial_dram_latency(const sim::TrialResult& trial, const sim::HierarchyConfig& config) {
  if (trial.overall.dram_reads == 0) {
    return config.l2.latency + config.dram.base_latency;
  }
  return trial.overall.dram_latency_sum / static_cast<double>(trial.overall.dram_reads);
}

LoadMetrics load_metrics(const sim::AccessCounters& c, tracebuf::AccessKind kind, double trial_tm,
                         const sim::HierarchyConfig& config) {
  using tracebuf::AccessKind;
  LoadMetrics m;
  m.l1_hit_ratio = ratio(c.l1_hits, c.l1_accesses);
  m.l1_sector_hit_ratio = ratio(c.l1_sector_hits, c.l1_sectors);
  m.l1_sector_lookup_hit_ratio = sector_lookup_ratio(c);
  m.l1_inflight_ratio = ratio(c.l1_inflight_hits, c.l1_accesses);
  switch (kind) {
    case AccessKind::kWrite:
      m.l2_hit_ratio = ratio(c.l2_write_hits, c.l2_writes);
      m.l2_sector_hit_ratio = ratio(c.l2_write_sector_hits, c.l2_write_sectors);
      break;
    case AccessKind::kAtomic:
      m.l2_hit_ratio = ratio(c.l2_atomic_hits, c.l2_atomics);
      break;
    case AccessKind::kRead:
    case AccessKind::kReadModifyWrite:
      m.l2_hit_ratio = ratio(c.l2_read_hits, c.l2_reads);
      m.l2_sector_hit_ratio = ratio(c.l2_read_sector_hits, c.l2_read_sectors);
      break;
  }
  m.dram_latency_cycles =
      c.dram_reads > 0 ? std::optional(c.dram_latency_sum / static_cast<double>(c.dram_reads))
                       : std::nullopt;
  if (kind == AccessKind::kWrite) {
    return m;  // a store does not make its warp wait: no access latency
  }
  if (!m.l1_hit_ratio && !m.l2_hit_ratio) {
    return m;  // never executed in this trial's launches
  }
  // An access that never reached a level takes that level's ratio as 1 (its term is multiplied
  // by zero anyway); atomics and loads with the L1 disabled never hit in L1.
  const double h1 = kind == AccessKind::kAtomic ? 0.0 : m.l1_hit_ratio.value_or(0.0);
  const double h2 = m.l2_hit_ratio.value_or(1.0);
  const double tm = m.dram_latency_cycles.value_or(trial_tm);
  m.latency_cycles = expected_latency(h1, config.l1.latency, h2, config.l2.latency, tm);
  return m;
}

OverallMetrics overall_metrics(const sim::AccessCounters& c, double trial_tm) {
  OverallMetrics m;
  m.l1_read_hit_ratio = ratio(c.l1_hits, c.l1_accesses);
  m.l1_sector_read_hit_ratio = ratio(c.l1_sector_hits, c.l1_sectors);
  m.l1_sector_lookup_hit_ratio = sector_lookup_ratio(c);
  m.l1_inflight_ratio = ratio(c.l1_inflight_hits, c.l1_accesses);
  m.l2_read_hit_ratio = ratio(c.l2_read_hits, c.l2_reads);
  m.l2_sector_read_hit_ratio = ratio(c.l2_read_sector_hits, c.l2_read_sectors);
  m.l2_write_hit_ratio = ratio(c.l2_write_hits, c.l2_writes);
  m.l2_sector_write_hit_ratio = ratio(c.l2_write_sector_hits, c.l2_write_sectors);
  m.dram_latency_cycles =
      c.dram_reads > 0 ? std::optional(c.dram_latency_sum / static_cast<double>(c.dram_reads))
                       : std::optional(trial_tm);
  if (c.dram_reads == 0 && c.l2_reads == 0 && c.l2_writes == 0) {
    m.dram_latency_cycles.reset();
  }
  return m;
}

}  // namespace memcarlo::analysis
