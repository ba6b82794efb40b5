// What one Monte Carlo trial measures: event counters per static load, per allocation, per kernel
// and overall, the same for each counter group its policies enabled, and the per-load latency
// histograms of its accesses. Plain data; the statistics across trials live in analysis/.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "memcarlo/sim/counters.hpp"

namespace memcarlo::sim {

struct TrialResult {
  std::vector<AccessCounters> loads;        // indexed by static id
  std::vector<AccessCounters> allocations;  // indexed like CompiledTrace::allocation_names
  std::vector<AccessCounters> kernels;      // indexed like CompiledTrace::kernel_names
  AccessCounters overall;
  std::uint64_t transactions = 0;
  std::uint64_t cycles = 0;  // logical cycles until the last SM finished (summed over launches)
  std::uint64_t dram_batches = 0;
  std::uint64_t dram_writes = 0;  // write-throughs on L2 store misses and dirty evictions
  std::uint64_t back_invalidations = 0;
  /// Per counter group (indexed like kCounterGroups), its totals; empty for a group no policy of
  /// the trial enabled.
  std::array<CounterGroupTotals, kCounterGroups.size()> groups;
  /// Per static load, how many of its L1 transactions (the accesses counted in l1_accesses) took
  /// each latency, by the level that served them: [load][level][bin], latency::kRowSize counters
  /// per load (latency_bins.hpp). All zero when the L1 is disabled.
  std::vector<std::uint64_t> latency_histogram;

  /// The trial's total of counter `counter` of `group` (its overall row); 0 when no policy of
  /// the trial enabled the group.
  [[nodiscard]] std::uint64_t group_total(const CounterGroup& group, std::uint32_t counter) const {
    const CounterGroupTotals& totals = groups[counter_group_index(group)];
    return totals.enabled() ? totals.overall[counter] : 0;
  }
};

}  // namespace memcarlo::sim
