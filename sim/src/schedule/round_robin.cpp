// round-robin CTA scheduling (round_robin.hpp).
#include "round_robin.hpp"

#include <numeric>

namespace memcarlo::sim::schedule {
namespace {

class RoundRobin final : public CtaScheduler {
 public:
  void plan(const CtaPlanInput& input, RandomStream&, CtaPlan& plan) const override {
    plan.clear(input.sm_count);
    plan.order.resize(input.launch.blocks.size());
    std::iota(plan.order.begin(), plan.order.end(), 0u);
    plan.close_queue();
  }
};

}  // namespace

std::unique_ptr<CtaScheduler> make_round_robin(const HierarchyConfig&) {
  return std::make_unique<RoundRobin>();
}

void register_round_robin(CtaRegistry& registry) {
  registry.add(
      {"round-robin", "blocks in launch order, block i on SM i mod S first", {}, make_round_robin});
}

}  // namespace memcarlo::sim::schedule
