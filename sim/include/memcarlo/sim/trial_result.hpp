// What one Monte Carlo trial measures: event counters per static load, per allocation, per kernel
// and overall, the same for each counter group its policies enabled, and the per-load latency
// histograms of its accesses. Plain data; the statistics across trials live in analysis/.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "memcarlo/sim/counters.hpp"

namespace memcarlo::sim {

/// What the GPU prefetches of a trial did, in total.
struct PrefetchTotals {
  std::uint64_t issued = 0;          // requests sent to the L2
  std::uint64_t redundant = 0;       // asked for lines the L1 held
  std::uint64_t dropped = 0;         // no line id left, or every way of the set pinned
  std::uint64_t useful = 0;          // prefetched ways a demand access then found
  std::uint64_t late = 0;            // ... before their data had arrived
  std::uint64_t untraced_lines = 0;  // lines outside the trace that were given an id
  std::uint64_t l2_reads = 0;        // L2 line accesses of prefetch requests
  std::uint64_t l2_read_hits = 0;
  std::uint64_t dram_reads = 0;      // DRAM reads of prefetch requests
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
  PrefetchTotals prefetch;
  /// Per counter group (indexed like kCounterGroups), its totals; empty for a group no policy of
  /// the trial enabled.
  std::array<CounterGroupTotals, kCounterGroups.size()> groups;
  /// Per static load, how many of its L1 transactions (the accesses counted in l1_accesses) took
  /// each latency, by the level that served them: [load][level][bin], latency::kRowSize counters
  /// per load (latency_bins.hpp). All zero when the L1 is disabled.
  std::vector<std::uint64_t> latency_histogram;
};

}  // namespace memcarlo::sim
