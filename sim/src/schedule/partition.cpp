// partition: the grid in sm.count contiguous chunks along rows or columns, chunk s run by SM s
// alone (one queue per SM). After the row and column partitionings of Li et al., "Locality-Aware
// CTA Clustering for Modern GPUs" (ASPLOS 2017), which the Locality Descriptors paper cites for
// CTA scheduling ([7]): blocks that share rows of a row-major matrix are neighbours along x, those
// that share columns neighbours along y, and a chunk keeps either kind on one SM's L1.
//   schedule.partition.order  row: blocks in linear-id order (x fastest, then y, then z);
//                             column: y fastest, then x, then z.
// Chunk s holds positions [s x B / S, (s + 1) x B / S) of that order (B blocks, S SMs): sizes
// differ by at most one and the smaller chunks come first.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>
#include <stdexcept>
#include <string>

#include "memcarlo/sim/schedule/cta_scheduler.hpp"

namespace memcarlo::sim::schedule {
namespace {

constexpr KeySpec kOrder{"schedule.partition.order", "string", "\"column\"",
                         "partition: the order the grid is cut in, row (x fastest) or column "
                         "(y fastest)"};

class Partition final : public CtaScheduler {
 public:
  explicit Partition(bool columns) : columns_(columns) {}

  void plan(const CtaPlanInput& input, RandomStream&, CtaPlan& plan) const override {
    const std::vector<BlockTrace>& blocks = input.launch.blocks;
    const tracebuf::Dim3 grid = input.launch.grid;
    const auto position = [&](std::uint64_t id) -> std::uint64_t {
      if (!columns_ || grid.x == 0 || grid.y == 0) {
        return id;
      }
      const std::uint64_t x = id % grid.x;
      const std::uint64_t y = id / grid.x % grid.y;
      const std::uint64_t z = id / (std::uint64_t{grid.x} * grid.y);
      return (z * grid.x + x) * grid.y + y;
    };
    plan.clear(input.sm_count);
    plan.order.resize(blocks.size());
    std::iota(plan.order.begin(), plan.order.end(), 0u);
    std::stable_sort(plan.order.begin(), plan.order.end(), [&](std::uint32_t a, std::uint32_t b) {
      return position(blocks[a].block_id) < position(blocks[b].block_id);
    });
    for (std::uint64_t sm = 1; sm <= input.sm_count; ++sm) {
      plan.queue_begin.push_back(static_cast<std::uint32_t>(sm * blocks.size() / input.sm_count));
    }
    std::iota(plan.queue_of_sm.begin(), plan.queue_of_sm.end(), 0u);
  }

 private:
  bool columns_;
};

std::unique_ptr<CtaScheduler> make_partition(const HierarchyConfig& config) {
  const auto order = nlohmann::json::parse(config.params.text(kOrder)).get<std::string>();
  if (order != "row" && order != "column") {
    throw std::invalid_argument(std::string(kOrder.name) +
                                ": expected \"row\" or \"column\"; got \"" + order + "\"");
  }
  return std::make_unique<Partition>(order == "column");
}

}  // namespace

void register_partition(CtaRegistry& registry) {
  registry.add({"partition",
                "the grid cut along rows or columns (schedule.partition.order) into sm.count "
                "contiguous chunks, chunk s on SM s alone (Li et al., ASPLOS 2017)",
                {kOrder},
                make_partition});
}

}  // namespace memcarlo::sim::schedule
