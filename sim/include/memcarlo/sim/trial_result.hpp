// What one Monte Carlo trial measures: event counters per static load, per allocation and
// overall. Plain data; the statistics across trials live in analysis/.
#pragma once

#include <cstdint>
#include <vector>

namespace memcarlo::sim {

struct AccessCounters {
  // L1, loads only (reads, the read half of read-modify-writes).
  std::uint64_t l1_accesses = 0;       // transactions that probed the L1
  std::uint64_t l1_hits = 0;           // all requested sectors present (includes in-flight)
  std::uint64_t l1_inflight_hits = 0;  // ... of which still being filled by an earlier miss
  std::uint64_t l1_sectors = 0;
  std::uint64_t l1_sector_hits = 0;
  // L1 lookups of stores (and of the write half of read-modify-writes) and atomics, per 32-byte
  // sector as Nsight Compute's l1tex__t_sector_hit_rate counts them beside the loads': a store
  // sector hits when the L1 holds it valid before the store; atomics are served at the L2 and
  // always miss.
  std::uint64_t l1_store_sectors = 0;
  std::uint64_t l1_store_sector_hits = 0;
  // L2, per L2 line access (an L1 miss of a 128-byte line is four 32-byte L2 lines on Fermi).
  std::uint64_t l2_reads = 0;
  std::uint64_t l2_read_hits = 0;
  std::uint64_t l2_read_sectors = 0;
  std::uint64_t l2_read_sector_hits = 0;
  std::uint64_t l2_writes = 0;
  std::uint64_t l2_write_hits = 0;
  std::uint64_t l2_write_sectors = 0;
  std::uint64_t l2_write_sector_hits = 0;
  std::uint64_t l2_atomics = 0;
  std::uint64_t l2_atomic_hits = 0;
  // DRAM reads caused by this load's L2 misses, and the full latency each saw (Tm).
  std::uint64_t dram_reads = 0;
  double dram_latency_sum = 0;

  AccessCounters& operator+=(const AccessCounters& other);
};

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
};

}  // namespace memcarlo::sim
