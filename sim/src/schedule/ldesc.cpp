// ldesc CTA scheduling (ldesc.hpp).
#include "ldesc.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <numeric>
#include <string>

#include "ldesc/clustering.hpp"
#include "ldesc/numa_mapping.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"

namespace memcarlo::sim::schedule {
namespace {

using tracebuf::Dim3;

constexpr std::uint32_t kAbsent = std::numeric_limits<std::uint32_t>::max();

/// Deals `clusters` (lists of block indices, in cluster order) over SMs [first_sm, first_sm + sms)
/// as assign_clusters deals a grid's clusters (ldesc::deal_cluster).
void deal(const std::vector<std::vector<std::uint32_t>>& clusters, std::uint32_t first_sm,
          std::uint32_t sms, std::vector<std::vector<std::uint32_t>>& queues) {
  for (std::uint64_t c = 0; c < clusters.size(); ++c) {
    ldesc::deal_cluster(c, clusters.size(), first_sm, sms, clusters[c], queues);
  }
}

/// A snapshot block's index in LaunchTrace::blocks by its linear id, kAbsent for a block the
/// snapshot does not hold (sorted pairs: memory follows the snapshot, not the grid).
class IndexOf {
 public:
  explicit IndexOf(const LaunchTrace& launch) {
    pairs_.reserve(launch.blocks.size());
    for (std::uint32_t i = 0; i < launch.blocks.size(); ++i) {
      pairs_.emplace_back(launch.blocks[i].block_id, i);
    }
    std::sort(pairs_.begin(), pairs_.end());
  }
  std::uint32_t operator()(std::uint64_t id) const {
    const auto found = std::lower_bound(pairs_.begin(), pairs_.end(),
                                        std::pair<std::uint64_t, std::uint32_t>{id, 0});
    return found != pairs_.end() && found->first == id ? found->second : kAbsent;
  }

 private:
  std::vector<std::pair<std::uint64_t, std::uint32_t>> pairs_;
};

class Ldesc final : public CtaScheduler {
 public:
  void plan(const CtaPlanInput& input, RandomStream&, CtaPlan& plan) const override {
    const LaunchTrace& launch = input.launch;
    plan.clear(input.sm_count);
    const Dim3& grid = launch.grid;
    const Dim3 cluster = input.modules <= 1 && !launch.descriptors.empty()
                             ? ldesc::cluster_dims(launch.descriptors, grid, input.sm_count)
                             : Dim3{1, 1, 1};
    // Nothing described, or on one module clusters of one CTA (no C-Tile groups CTAs: every
    // descriptor's D-Tile is one CTA's): nothing to keep together, so the GPU's own dispatch,
    // round-robin from one queue. Dealing single CTAs to per-SM queues would instead fix which
    // CTAs share an SM, and part neighbours that round-robin happens to run on one (hotspot).
    if (launch.descriptors.empty() || (input.modules <= 1 && cluster.volume() == 1)) {
      plan.order.resize(launch.blocks.size());
      std::iota(plan.order.begin(), plan.order.end(), 0u);
      plan.close_queue();
      return;
    }
    // Linear block id -> index into launch.blocks (the snapshot may hold part of the grid).
    const IndexOf index_of(launch);
    std::vector<std::vector<std::uint32_t>> queues(input.sm_count);
    if (input.modules <= 1) {
      const auto by_sm = ldesc::assign_clusters(
          grid, cluster, input.sm_count, [&](std::uint64_t id) { return index_of(id) != kAbsent; });
      for (std::uint32_t sm = 0; sm < input.sm_count; ++sm) {
        for (const std::uint64_t id : by_sm[sm]) {
          queues[sm].push_back(index_of(id));
        }
      }
    } else {
      plan_zones(input, index_of, queues);
    }
    for (std::uint32_t sm = 0; sm < input.sm_count; ++sm) {
      plan.order.insert(plan.order.end(), queues[sm].begin(), queues[sm].end());
      plan.close_queue();
      plan.queue_of_sm[sm] = sm;
    }
  }

 private:
  /// Algorithm 2's CTA partition, then Algorithm 1 inside each zone on its module's SMs.
  static void plan_zones(const CtaPlanInput& input, const IndexOf& index_of,
                         std::vector<std::vector<std::uint32_t>>& queues) {
    const LaunchTrace& launch = input.launch;
    const Dim3& grid = launch.grid;
    const std::uint32_t zones = input.modules;
    const std::uint32_t per_zone = input.sm_count / zones;
    const ldesc::NumaMapping mapping = ldesc::map_to_zones(launch.descriptors, grid, zones);
    const std::uint64_t tiles = mapping.zone_of_tile.size();
    std::vector<std::vector<std::uint32_t>> clusters;
    std::vector<std::uint32_t> blocks;
    for (std::uint32_t zone = 0; zone < zones; ++zone) {
      const auto held = static_cast<std::uint64_t>(
          std::count(mapping.zone_of_tile.begin(), mapping.zone_of_tile.end(), zone));
      if (held == 0) {
        continue;  // no C-Tile here: the module's SMs stay idle
      }
      // Algorithm 1 asks for at least as many clusters as SMs; the zone holds held / tiles of the
      // grid, so the grid must have per_zone x tiles / held clusters for the zone to have
      // per_zone of them (the zone's SM count when the partition is even).
      const auto sms_equivalent =
          static_cast<std::uint32_t>((std::uint64_t{per_zone} * tiles + held - 1) / held);
      const Dim3 cluster = ldesc::cluster_dims(launch.descriptors, grid, sms_equivalent);
      const Dim3 count = ldesc::tiles_over(grid, cluster);
      clusters.clear();
      for (std::uint64_t c = 0; c < count.volume(); ++c) {
        blocks.clear();
        ldesc::for_each_block_of_cluster(
            grid, cluster, c,
            [&](std::uint64_t x, std::uint64_t y, std::uint64_t z, std::uint64_t id) {
              const std::uint32_t index = index_of(id);
              if (index != kAbsent &&
                  mapping.zone_of_block(static_cast<std::uint32_t>(x),
                                        static_cast<std::uint32_t>(y),
                                        static_cast<std::uint32_t>(z), grid) == zone) {
                blocks.push_back(index);
              }
            });
        if (!blocks.empty()) {  // a cluster of another zone, or none of it traced
          clusters.push_back(blocks);
        }
      }
      deal(clusters, zone * per_zone, per_zone, queues);
    }
  }
};

}  // namespace

std::unique_ptr<CtaScheduler> make_ldesc(const HierarchyConfig& config) {
  if (!std::has_single_bit(config.numa.modules)) {
    throw ConfigError(
        "schedule.cta: ldesc needs numa.modules to be a power of two (Algorithm 2's "
        "zone bits); got " +
        std::to_string(config.numa.modules));
  }
  return std::make_unique<Ldesc>();
}

void register_ldesc(CtaRegistry& registry) {
  registry.add(
      {"ldesc",
       "Locality Descriptors: Algorithm 1's clusters one per SM; with numa.modules > 1, "
       "Algorithm 2's zones first, clusters on the zone's module; no descriptors: round-robin",
       {},
       make_ldesc});
}

}  // namespace memcarlo::sim::schedule
