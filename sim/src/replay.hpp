// The replay of one launch in one trial (paper §3.2), split by role. Time advances in epochs:
// every SM issues bulks from its warps up to the epoch's end (the SM side, sm_side.hpp, templated
// on the L1 policy and the prefetcher); then the L2 drains the SM queues in a weighted random
// order and the DRAM serves the L2 misses in random batches (the L2 side, l2_drain.hpp, templated
// on the L2 policy); then fill times flow back to the L1s and the waiting warps (resolve, here)
// and freed block slots take the next blocks of the CTA scheduler's plan (residency.hpp). This
// part knows no policy, so it is compiled once; it reaches the sides through one virtual call
// per SM and epoch.
#pragma once

#include "l2_drain.hpp"
#include "numa.hpp"
#include "residency.hpp"
#include "sm_side.hpp"
#include "trial_state.hpp"

namespace memcarlo::sim {

class Replay {
 public:
  Replay(const CompiledTrace& trace, const HierarchyConfig& config,
         TrialWorkspace::State& state, Residency& residency, SmSide& sm_side, L2Side& l2_side,
         const schedule::CtaScheduler& scheduler, TrialResult& result,
         NumaLinks* numa = nullptr);

  /// Replays `launch`. With `keep_l2`, the L2 (and its dirty lines) is left as the previous
  /// launch left it; the L1s always start empty (the driver invalidates them between grids).
  /// `streams` must be this launch's (LaunchStreams(seed, trial, launch.index)).
  void run_launch(const LaunchTrace& launch, bool keep_l2, LaunchStreams& streams);

 private:
  void setup(const LaunchTrace& launch, bool keep_l2, LaunchStreams& streams);
  void resolve(std::uint64_t epoch_end);
  [[nodiscard]] std::uint64_t epoch_of(std::uint64_t time) const {
    return epoch_shift_ != kNoShift ? time >> epoch_shift_ : time / epoch_cycles_;
  }

  static constexpr std::uint32_t kNoShift = 0xFFFFFFFF;

  const CompiledTrace& trace_;
  const HierarchyConfig& config_;
  TrialWorkspace::State& s_;
  SmSide& sm_side_;
  L2Side& l2_side_;
  const schedule::CtaScheduler& scheduler_;
  TrialResult& result_;
  NumaLinks* numa_;  // null with one module
  Residency& residency_;
  PrivateCacheView l1_{};
  std::uint32_t sm_count_ = 0;
  bool l1_enabled_ = true;
  std::uint64_t t1_ = 0;
  std::uint64_t epoch_cycles_ = 64;
  std::uint32_t epoch_shift_ = kNoShift;
  std::uint64_t trial_epoch_ = 0;  // epochs of this trial so far, over every launch
};

}  // namespace memcarlo::sim
