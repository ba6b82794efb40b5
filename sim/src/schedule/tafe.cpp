// tafe CTA scheduling (tafe.hpp).
#include "tafe.hpp"

#include <algorithm>

#include "memcarlo/footprint/block_order.hpp"

namespace memcarlo::sim::schedule {
namespace {

class Tafe final : public CtaScheduler {
 public:
  void plan(const CtaPlanInput& input, RandomStream&, CtaPlan& plan) const override {
    const LaunchTrace& launch = input.launch;
    footprint::BlockOrder order;
    if (launch.tafe_registered_axes.size() == 3) {  // the program's own taf_register decides
      std::copy(launch.tafe_registered_axes.begin(), launch.tafe_registered_axes.end(),
                order.fastest_first.begin());
      order.from_registration = true;
    } else {
      order = footprint::tafe_block_order(input.loads, launch.kernel, launch.block,
                                          launch.arguments);
    }
    std::vector<std::uint64_t> ids;
    ids.reserve(launch.blocks.size());
    for (const BlockTrace& block : launch.blocks)
      ids.push_back(block.block_id);
    const std::vector<std::uint32_t> module =
        footprint::tafe_block_modules(order, ids, launch.grid, input.modules);
    plan.clear(input.sm_count);
    // Queue m: module m's blocks in the TAFE order.
    std::vector<std::uint32_t> sorted(ids.size());
    for (std::uint32_t i = 0; i < sorted.size(); ++i)
      sorted[i] = i;
    std::stable_sort(sorted.begin(), sorted.end(), [&](std::uint32_t a, std::uint32_t b) {
      return footprint::order_key(order, ids[a], launch.grid) <
             footprint::order_key(order, ids[b], launch.grid);
    });
    for (std::uint32_t m = 0; m < input.modules; ++m) {
      for (const std::uint32_t block : sorted) {
        if (module[block] == m)
          plan.order.push_back(block);
      }
      plan.close_queue();
    }
    for (std::uint32_t sm = 0; sm < input.sm_count; ++sm) {
      plan.queue_of_sm[sm] = module_of_sm(sm, input.sm_count, input.modules);
    }
  }
};

}  // namespace

std::unique_ptr<CtaScheduler> make_tafe(const HierarchyConfig&) {
  return std::make_unique<Tafe>();
}

void register_tafe(CtaRegistry& registry) {
  registry.add({"tafe",
                "TAFE: blocks row/column/depth-major by the first TID_DEP access's block-id "
                "coefficients, cut into numa.modules equal chunks, chunk m on module m's SMs",
                {},
                make_tafe});
}

}  // namespace memcarlo::sim::schedule
