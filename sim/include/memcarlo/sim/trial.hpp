// One Monte Carlo trial: a randomized replay of a compiled trace through the hierarchy
// (paper §3.2). The randomness comes only from TrialRandom(seed, trial).
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/config.hpp"
#include "memcarlo/sim/trial_result.hpp"

namespace memcarlo::sim {

/// Reusable per-thread state (caches, queues); allocation happens when it first grows.
class TrialWorkspace {
 public:
  TrialWorkspace();
  ~TrialWorkspace();
  TrialWorkspace(const TrialWorkspace&) = delete;
  TrialWorkspace& operator=(const TrialWorkspace&) = delete;
  struct State;
  State& state() { return *state_; }
  /// Bytes currently held, for the benchmark's memory report.
  [[nodiscard]] std::uint64_t bytes() const;

 private:
  std::unique_ptr<State> state_;
};

/// Whether `launch` finds the L2 as `previous` (the launch replayed before it, or null) left it:
/// with l2.between_launches = keep, when the program made no launch in between; otherwise the
/// L2 starts cold.
bool keeps_l2(const HierarchyConfig& config, const LaunchTrace* previous,
              const LaunchTrace& launch);

/// Adds a trial's per-slot counters into `result`: each slot's access counters, and its row of
/// every counter group `groups` holds enabled, go to the slot's load, allocation (when it has one)
/// and kernel and to the overall totals. `result.loads`, `.allocations` and `.kernels` must be
/// sized; the groups' totals are sized here (and cleared for the groups not enabled).
void add_slot_counters(std::span<const CounterSlot> slots,
                       std::span<const AccessCounters> slot_counters,
                       const CounterGroupSlots& groups, TrialResult& result);

/// Adds a trial's per-slot latency counts ([slot][level][bin], latency::kRowSize per slot) into
/// `result.latency_histogram` ([load][level][bin]), which is sized here for `load_count` loads.
void add_slot_latencies(std::span<const CounterSlot> slots,
                        std::span<const std::uint64_t> slot_counts, std::size_t load_count,
                        TrialResult& result);

TrialResult run_trial(const CompiledTrace& trace, const HierarchyConfig& config,
                      std::uint64_t seed, std::uint64_t trial, TrialWorkspace& workspace);

}  // namespace memcarlo::sim
