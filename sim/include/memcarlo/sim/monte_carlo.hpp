// The Monte Carlo driver: runs independent trials in parallel with TBB. Trial t always uses the
// random stream (seed, t) and lands at results[t], so results do not depend on the thread count.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/config.hpp"
#include "memcarlo/sim/trial_result.hpp"

namespace memcarlo::sim {

/// The trials one process of several runs: t with t % count == index (ranks of an MPI job, shards
/// of a job array), where count >= 1 and index < count. The default, {0, 1}, is every trial.
struct TrialShare {
  std::uint32_t index = 0;
  std::uint32_t count = 1;
  [[nodiscard]] bool owns(std::uint32_t trial) const { return trial % count == index; }
};

struct MonteCarloOptions {
  std::uint64_t seed = 1;
  std::uint32_t trials = 32;  // with no stop rule: exactly this many
  unsigned threads = 0;       // 0: all hardware threads
  /// Optional stop rule, asked after the first `trials` and then after every `round` more
  /// trials (round sizes are fixed, so the stopping point does not depend on `threads`).
  std::function<bool(const std::vector<TrialResult>&)> converged;
  std::uint32_t round = 8;
  std::uint32_t max_trials = 1000;
  /// Called after every round with the number of finished trials.
  std::function<void(std::uint32_t)> progress;
  /// Run only the trials of this share; the others of results[first, last) are left empty unless
  /// `gather` fills them.
  TrialShare share;
  /// Called after each round [first, last) has run this share's trials, before the stop rule is
  /// asked: it must fill in the other shares' trials of the round (MPI: an all-gather), so that
  /// every process holds all trials and the stop rule decides the same everywhere. Contract: it
  /// is called the same number of times, with the same rounds, in every process of the share; it
  /// must not change this share's trials.
  std::function<void(std::vector<TrialResult>& results, std::uint32_t first, std::uint32_t last)>
      gather;
};

struct MonteCarloRun {
  std::vector<TrialResult> trials;
  bool converged = false;  // the stop rule was met (false when there is none)
  double wall_seconds = 0;
  unsigned threads = 0;
  std::uint64_t workspace_bytes = 0;  // largest per-thread trial state
};

MonteCarloRun run_monte_carlo(const CompiledTrace& trace, const HierarchyConfig& config,
                              const MonteCarloOptions& options);

}  // namespace memcarlo::sim
