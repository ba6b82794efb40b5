// distributed CTA scheduling (distributed.hpp).
#include "distributed.hpp"

#include <numeric>

namespace memcarlo::sim::schedule {
namespace {

class Distributed final : public CtaScheduler {
 public:
  void plan(const CtaPlanInput& input, RandomStream&, CtaPlan& plan) const override {
    const std::uint64_t blocks = input.launch.blocks.size();
    plan.clear(input.sm_count);
    plan.order.resize(blocks);
    std::iota(plan.order.begin(), plan.order.end(), 0u);
    // The blocks are already in chunk order; only the queue bounds cut them.
    for (std::uint64_t module = 1; module <= input.modules; ++module) {
      plan.queue_begin.push_back(static_cast<std::uint32_t>(module * blocks / input.modules));
    }
    for (std::uint32_t sm = 0; sm < input.sm_count; ++sm) {
      plan.queue_of_sm[sm] = module_of_sm(sm, input.sm_count, input.modules);
    }
  }
};

}  // namespace

std::unique_ptr<CtaScheduler> make_distributed(const HierarchyConfig&) {
  return std::make_unique<Distributed>();
}

void register_distributed(CtaRegistry& registry) {
  registry.add(
      {"distributed",
       "the grid in numa.modules contiguous chunks, chunk m on module m's SMs (round-robin "
       "with one module)",
       {},
       make_distributed});
}

}  // namespace memcarlo::sim::schedule
