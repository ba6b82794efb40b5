// What one Monte Carlo trial measures: event counters per static load, per allocation, per kernel
// and overall, and the same for each counter group its policies enabled. Plain data; the
// statistics across trials live in analysis/.
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
};

}  // namespace memcarlo::sim
