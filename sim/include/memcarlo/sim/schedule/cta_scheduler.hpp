// CTA scheduling as a policy: once per launch (and trial), a scheduler plans which SM runs which
// block in what order; the replay then only reads that plan. Decide per launch, look up per
// access: the replay never calls the scheduler while it issues.
//
// Contract:
//   plan(input, random, plan)  fills `plan` for one launch: `order` lists every block of the
//                              launch (indices into LaunchTrace::blocks) exactly once, cut into
//                              queues; SM s takes its blocks from queue queue_of_sm[s], in order.
//                              At the start each SM fills its resident slots round by round
//                              (slot 0 of SM 0, 1, ..., then slot 1, ...) from its queue; later a
//                              slot that frees up takes the next block of its SM's queue (slots
//                              free in time order, ties broken at random). A queue with blocks
//                              left must have an SM. May draw from `random` (Purpose::kCtaSchedule
//                              of this launch) and allocate; called once per launch per trial.
//   The input is the launch's shape (its blocks, with their ids and records, and the occupancy)
//   and the machine's (SMs, modules: module m holds SMs [m x S/M, (m + 1) x S/M)). A policy that
//   reads annotations of the trace (TAFE relations, Locality Descriptors) finds them through the
//   launch; the plan stays arrays, so the replay's cost does not depend on the policy.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/config.hpp"
#include "memcarlo/sim/policy_registry.hpp"
#include "memcarlo/sim/random.hpp"

namespace memcarlo::sim::schedule {

struct CtaPlanInput {
  const LaunchTrace& launch;
  std::uint32_t sm_count;
  std::uint32_t resident_blocks;  // per SM
  std::uint32_t modules = 1;      // numa.modules; sm_count is a multiple of it
  /// The trace's loads table (the tafe scheduler derives its block order from it); may be empty.
  std::span<const tracebuf::LoadInfo> loads = {};
  /// The compiled trace the launch belongs to (its warps, bulks and transactions, for a policy
  /// that reads what the blocks touch, e.g. locality); null when there is none.
  const CompiledTrace* trace = nullptr;
};

struct CtaPlan {
  std::vector<std::uint32_t> order;        // block indices, queue after queue
  std::vector<std::uint32_t> queue_begin;  // queue q: order[queue_begin[q], queue_begin[q + 1])
  std::vector<std::uint32_t> queue_of_sm;  // per SM

  /// Empties the plan for `sm_count` SMs (keeps the storage).
  void clear(std::uint32_t sm_count) {
    order.clear();
    queue_begin.assign(1, 0);
    queue_of_sm.assign(sm_count, 0);
  }
  /// Closes the queue made of the blocks appended to `order` since the last one.
  void close_queue() { queue_begin.push_back(static_cast<std::uint32_t>(order.size())); }
  [[nodiscard]] std::uint32_t queue_count() const {
    return static_cast<std::uint32_t>(queue_begin.size() - 1);
  }
};

class CtaScheduler {
 public:
  virtual ~CtaScheduler() = default;
  virtual void plan(const CtaPlanInput& input, RandomStream& random, CtaPlan& plan) const = 0;
};

using CtaFactory = std::unique_ptr<CtaScheduler> (*)(const HierarchyConfig&);
using CtaRegistry = PolicyRegistry<CtaFactory>;

/// The CTA schedulers (hierarchy key schedule.cta); built-in ones are listed in
/// schedule/registry.cpp, one line each.
CtaRegistry& registry();

/// The scheduler config.schedule.cta names (UnknownPolicy if none does).
std::unique_ptr<CtaScheduler> make(const HierarchyConfig& config);

/// Checks a plan against the contract; std::logic_error naming the scheduler otherwise.
void check_plan(const CtaPlan& plan, std::size_t blocks, std::uint32_t sm_count,
                const std::string& scheduler);

}  // namespace memcarlo::sim::schedule
