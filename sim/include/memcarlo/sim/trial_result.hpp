// What one Monte Carlo trial measures: event counters per static load, per allocation, per kernel
// and overall, the same for each counter group its policies enabled, and the per-load latency
// histograms of its accesses. Plain data; the statistics across trials live in analysis/.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "memcarlo/sim/counters.hpp"

namespace memcarlo::sim {

/// Counters of a dense layout that are mostly zero, kept as their non-zero entries: `index[i]`
/// (ascending) holds `count[i]`. A trial's latency histograms occupy a few dozen of the
/// latency::kRowSize (308) counters of each load, and a run keeps every trial's result, so the
/// dense form would take 2.4 KB per load per trial.
struct SparseCounts {
  std::vector<std::uint32_t> index;
  std::vector<std::uint64_t> count;

  /// The entries of `dense` that are not zero.
  static SparseCounts from_dense(std::span<const std::uint64_t> dense);
  /// The dense layout of `size` counters.
  [[nodiscard]] std::vector<std::uint64_t> dense(std::size_t size) const;
  /// The counter at `i` of the dense layout (0 when absent).
  [[nodiscard]] std::uint64_t at(std::size_t i) const;
  [[nodiscard]] bool operator==(const SparseCounts&) const = default;
};

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
  /// per load (latency_bins.hpp), of which only the non-zero ones are kept. Empty when the L1 is
  /// disabled.
  SparseCounts latency_histogram;

  /// The trial's total of counter `counter` of `group` (its overall row); 0 when no policy of
  /// the trial enabled the group.
  [[nodiscard]] std::uint64_t group_total(const CounterGroup& group, std::uint32_t counter) const {
    const CounterGroupTotals& totals = groups[counter_group_index(group)];
    return totals.enabled() ? totals.overall[counter] : 0;
  }
};

}  // namespace memcarlo::sim
