// run_trial and the policy-free steps of a trial (run_trial.hpp): sizing, the launch loop with
// each launch's random streams and CTA scheduler, and the reduction of the counters.
#include "memcarlo/sim/trial.hpp"

#include <algorithm>
#include <optional>

#include "ldesc/cache_layer.hpp"
#include "numa.hpp"
#include "run_trial.hpp"

namespace memcarlo::sim {
namespace detail {

void begin_trial(const CompiledTrace& trace, const HierarchyConfig& config,
                 TrialWorkspace::State& state, TrialResult& result, std::uint32_t untraced_lines) {
  result.loads.resize(trace.loads.size());
  result.allocations.resize(trace.allocation_names.size());
  result.kernels.resize(trace.kernel_names.size());
  state.dram = dram::make(config);  // cheap; keeps a workspace valid across hierarchies
  state.slot_counters.assign(trace.slots.size(), AccessCounters{});
  // Zeroed in place: the vector keeps its memory from the previous trial.
  state.latency_counts.assign(trace.slots.size() * latency::kRowSize, 0);
  state.counter_groups.disable_all();  // the policies enable what they count
  state.line_space.reset(trace, config, untraced_lines);
}

void replay_launches(const CompiledTrace& trace, const HierarchyConfig& config,
                     std::uint64_t seed, std::uint64_t trial, TrialWorkspace::State& state,
                     Residency& residency, LaunchStreams& streams, SmSide& sm_side,
                     L2Side& l2_side, TrialResult& result) {
  const std::unique_ptr<schedule::CtaScheduler> scheduler = schedule::make(config);
  std::optional<NumaLinks> numa;
  if (config.numa.modules > 1) {
    numa.emplace(trace, config, state);
  }
  Replay replay(trace, config, state, residency, sm_side, l2_side, *scheduler, result,
                numa ? &*numa : nullptr);
  const LaunchTrace* previous = nullptr;
  for (const LaunchTrace& launch : trace.launches) {
    streams = LaunchStreams(seed, trial, launch.index);
    replay.run_launch(launch, keeps_l2(config, previous, launch), streams);
    result.transactions += launch.transactions;
    previous = &launch;
  }
}

void finish_trial(const CompiledTrace& trace, TrialWorkspace::State& state, TrialResult& result) {
  add_slot_counters(trace.slots, state.slot_counters, state.counter_groups, result);
  add_slot_latencies(trace.slots, state.latency_counts, trace.loads.size(), result);
}

std::uint32_t untraced_line_capacity(const HierarchyConfig& config) {
  const std::uint64_t l1_ways =
      config.l1.enabled ? std::uint64_t{config.sm.count} * config.l1.capacity() / config.l1.line : 0;
  const std::uint64_t l2_lines = config.l2.size / config.l1.line + 1;
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(l1_ways + l2_lines + 65536, 1u << 30));
}

TrialResult run_trial_none(const CompiledTrace& trace, const HierarchyConfig& config,
                           std::uint64_t seed, std::uint64_t trial, TrialWorkspace& workspace) {
  if (ldesc::CacheLayer::wanted(trace, config)) {
    return run_trial_ldesc_cache(trace, config, seed, trial, workspace);
  }
  return run_trial_sides(
      trace, config, seed, trial, workspace, prefetch::None{config},
      [&](const LineSpace& line_space) { return NoL1Layer(trace, config, line_space); });
}

}  // namespace detail

bool keeps_l2(const HierarchyConfig& config, const LaunchTrace* previous,
              const LaunchTrace& launch) {
  return config.l2.between_launches == "keep" && previous != nullptr &&
         launch.sequence_in_program == previous->sequence_in_program + 1;
}

TrialWorkspace::TrialWorkspace() : state_(std::make_unique<State>()) {}
TrialWorkspace::~TrialWorkspace() = default;

std::uint64_t TrialWorkspace::bytes() const {
  const State& s = *state_;
  std::uint64_t total = s.slot_counters.capacity() * sizeof(AccessCounters) +
                        s.latency_counts.capacity() * sizeof(std::uint64_t) +
                        s.warps.capacity() * sizeof(WarpSlot) +
                        s.blocks.capacity() * sizeof(BlockSlot) +
                        s.schedulable.capacity() * 8 + s.lines.bytes() +
                        s.requests.capacity() * sizeof(L2Request) +
                        s.drain_order.capacity() * 2 + s.drain_index.capacity() * 4 +
                        s.dram_requests.capacity() * sizeof(dram::Request) +
                        s.dram_meta.capacity() * sizeof(DramMeta) + s.counter_groups.bytes() +
                        s.line_space.bytes() + s.cta_plan.order.capacity() * 4;
  total += s.sms.capacity() * sizeof(SmState);
  std::visit([&](const auto& cache) { total += cache.bytes(); }, s.l1);
  std::visit([&](const auto& cache) { total += cache.bytes(); }, s.l2);
  return total;
}

// Without a prefetcher the trial runs the `none` SM sides compiled here, alone in this unit as
// before the prefetchers came: GCC's inliner budgets growth per translation unit, and with the
// prefetching SM sides beside them it inlined less of the replay's hot path (the replay
// benchmark measured ~5 % fewer transactions per second). The prefetching SM sides are compiled
// in trial_prefetching.cpp, the ldesc.cache ones in trial_ldesc_cache.cpp.
TrialResult run_trial(const CompiledTrace& trace, const HierarchyConfig& config,
                      std::uint64_t seed, std::uint64_t trial, TrialWorkspace& workspace) {
  if (config.prefetch.policy != prefetch::None::kName) {
    return detail::run_trial_prefetching(trace, config, seed, trial, workspace);
  }
  return detail::run_trial_none(trace, config, seed, trial, workspace);
}

}  // namespace memcarlo::sim
