// bcs CTA scheduling (block_clustering.hpp).
#include "block_clustering.hpp"

namespace memcarlo::sim::schedule {
namespace {

class BlockClustering final : public CtaScheduler {
 public:
  void plan(const CtaPlanInput& input, RandomStream&, CtaPlan& plan) const override {
    const auto blocks = static_cast<std::uint32_t>(input.launch.blocks.size());
    const std::uint32_t pairs = (blocks + 1) / 2;
    plan.clear(input.sm_count);
    for (std::uint32_t sm = 0; sm < input.sm_count; ++sm) {
      plan.queue_of_sm[sm] = sm;
      for (std::uint32_t pair = sm; pair < pairs; pair += input.sm_count) {
        plan.order.push_back(2 * pair);
        if (2 * pair + 1 < blocks) {
          plan.order.push_back(2 * pair + 1);
        }
      }
      plan.close_queue();
    }
  }
};

}  // namespace

std::unique_ptr<CtaScheduler> make_block_clustering(const HierarchyConfig&) {
  return std::make_unique<BlockClustering>();
}

void register_block_clustering(CtaRegistry& registry) {
  registry.add({"bcs",
                "block clustering: blocks 2p and 2p + 1 on SM p mod S, one queue per SM",
                {},
                make_block_clustering});
}

}  // namespace memcarlo::sim::schedule
