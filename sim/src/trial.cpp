// run_trial: picks the cache instantiations for the configured replacement policies once, then
// replays every launch of the compiled trace with the trial's own random stream.
#include "memcarlo/sim/trial.hpp"

#include "replay.hpp"
#include "trial_state.hpp"

namespace memcarlo::sim {
namespace {

template <template <class> class Cache>
void select_policy(AnyCache<Cache>& cache, const std::string& name) {
  // Keep the existing storage when the policy is unchanged; switch alternatives otherwise.
  std::visit(
      [&](auto policy) {
        using Policy = decltype(policy);
        if (!std::holds_alternative<Cache<Policy>>(cache)) {
          cache.template emplace<Cache<Policy>>();
        }
      },
      replacement::make(name));
}

}  // namespace

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
                        s.warps.capacity() * sizeof(WarpSlot) +
                        s.blocks.capacity() * sizeof(BlockSlot) +
                        s.schedulable.capacity() * 8 + s.lines.bytes() +
                        s.requests.capacity() * sizeof(L2Request) +
                        s.drain_order.capacity() * 2 + s.drain_index.capacity() * 4 +
                        s.dram_requests.capacity() * sizeof(dram::Request) +
                        s.dram_meta.capacity() * sizeof(DramMeta) + s.counter_groups.bytes();
  total += s.sms.capacity() * sizeof(SmState);
  std::visit([&](const auto& cache) { total += cache.bytes(); }, s.l1);
  std::visit([&](const auto& cache) { total += cache.bytes(); }, s.l2);
  return total;
}

TrialResult run_trial(const CompiledTrace& trace, const HierarchyConfig& config,
                      std::uint64_t seed, std::uint64_t trial, TrialWorkspace& workspace) {
  TrialWorkspace::State& state = workspace.state();
  TrialRandom random(seed, trial);
  TrialResult result;
  result.loads.resize(trace.loads.size());
  result.allocations.resize(trace.allocation_names.size());
  result.kernels.resize(trace.kernel_names.size());
  state.dram = dram::make(config.dram);  // cheap; keeps a workspace valid across hierarchies
  state.slot_counters.assign(trace.slots.size(), AccessCounters{});
  state.counter_groups.disable_all();  // the replay enables what its policies count
  select_policy(state.l1, config.l1.replacement);
  select_policy(state.l2, config.l2.replacement);
  std::visit(
      [&](auto& l1, auto& l2) {
        using L1 = std::decay_t<decltype(l1)>;
        using L2 = std::decay_t<decltype(l2)>;
        Replay<typename L1::policy_type, typename L2::policy_type> replay(trace, config, random,
                                                                          state, l1, l2, result);
        const LaunchTrace* previous = nullptr;
        for (const LaunchTrace& launch : trace.launches) {
          replay.run_launch(launch, keeps_l2(config, previous, launch));
          result.transactions += launch.transactions;
          previous = &launch;
        }
      },
      state.l1, state.l2);
  add_slot_counters(trace.slots, state.slot_counters, state.counter_groups, result);
  return result;
}

}  // namespace memcarlo::sim
