// The CTA scheduler registry: each scheduler registers itself from its own file (the list of
// sim/src/schedule the build generates, sim/CMakeLists.txt).
#include <algorithm>
#include <string>

#include "memcarlo/sim/schedule/cta_scheduler.hpp"

namespace memcarlo::sim::schedule {

CtaRegistry& registry() {
  static CtaRegistry schedulers("schedule.cta", "round-robin", register_builtin);
  return schedulers;
}

std::unique_ptr<CtaScheduler> make(const HierarchyConfig& config) {
  return registry().find(config.schedule.cta).make(config);
}

void check_plan(const CtaPlan& plan, std::size_t blocks, std::uint32_t sm_count,
                const std::string& scheduler) {
  const auto fail = [&](const std::string& what) {
    throw std::logic_error("CTA scheduler " + scheduler + ": " + what);
  };
  if (plan.order.size() != blocks) {
    fail("planned " + std::to_string(plan.order.size()) + " blocks of " + std::to_string(blocks));
  }
  if (plan.queue_begin.empty() || plan.queue_begin.front() != 0 ||
      plan.queue_begin.back() != blocks ||
      !std::is_sorted(plan.queue_begin.begin(), plan.queue_begin.end())) {
    fail("queue bounds do not cut the order into queues");
  }
  if (plan.queue_of_sm.size() != sm_count) {
    fail("queue_of_sm has " + std::to_string(plan.queue_of_sm.size()) + " entries for " +
         std::to_string(sm_count) + " SMs");
  }
  std::vector<bool> seen(blocks, false);
  for (const std::uint32_t block : plan.order) {
    if (block >= blocks || seen[block]) {
      fail("block " + std::to_string(block) + " is planned twice or is not in the launch");
    }
    seen[block] = true;
  }
  std::vector<bool> served(plan.queue_count(), false);
  for (const std::uint32_t queue : plan.queue_of_sm) {
    if (queue >= plan.queue_count()) {
      fail("an SM takes from queue " + std::to_string(queue) + " of " +
           std::to_string(plan.queue_count()));
    }
    served[queue] = true;
  }
  for (std::uint32_t q = 0; q < plan.queue_count(); ++q) {
    if (!served[q] && plan.queue_begin[q + 1] > plan.queue_begin[q]) {
      fail("queue " + std::to_string(q) + " has blocks but no SM");
    }
  }
}

}  // namespace memcarlo::sim::schedule
