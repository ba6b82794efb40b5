// The ranking of proposed Locality Descriptors (descriptor_ranking.hpp).
#include "descriptor_ranking.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/monte_carlo.hpp"

namespace memcarlo::cli {

AccessWeights weigh_accesses(const tracebuf::TraceReader& reader, std::uint32_t launch,
                             const sim::HierarchyConfig& hierarchy) {
  std::map<std::uint32_t, std::uint32_t> original;  // a redundant entry -> the access it repeats
  for (const tracebuf::LoadInfo& entry : reader.loads()) {
    if (entry.redundant_of)
      original[entry.id] = *entry.redundant_of;
  }
  const auto id_of = [&](std::uint32_t id) {
    const auto repeated = original.find(id);
    return repeated != original.end() ? repeated->second : id;
  };
  AccessWeights weights;
  for (const tracebuf::WarpStream& warp : reader.launches()[launch].warps) {
    warp.for_each([&](const tracebuf::RecordView& record) {
      weights.threads[id_of(record.static_id())] += record.active_lanes();
    });
  }
  sim::CompiledTrace compiled;
  try {
    compiled = sim::compile_trace(reader, hierarchy, {.launches = {launch}});
  } catch (const std::invalid_argument& e) {  // a block that fits none of its SMs
    weights.unranked_why = e.what();
    return weights;
  }
  sim::MonteCarloOptions one;
  one.seed = 1;
  one.trials = 1;
  one.threads = 1;
  const sim::MonteCarloRun run = sim::run_monte_carlo(compiled, hierarchy, one);
  const std::vector<sim::AccessCounters>& loads = run.trials.at(0).loads;
  for (std::uint32_t id = 0; id < loads.size(); ++id) {
    const std::uint64_t requests = loads[id].l2_reads + loads[id].l2_writes + loads[id].l2_atomics;
    if (requests != 0)
      weights.l2[id_of(id)] += requests;
  }
  return weights;
}

void rank_descriptors(std::vector<tracebuf::LocalityDescriptor>& proposed,
                      const std::vector<std::vector<std::uint32_t>>& loads,
                      const AccessWeights& weights) {
  const auto sum = [](const std::map<std::uint32_t, std::uint64_t>& by_load,
                      const std::vector<std::uint32_t>& ids) {
    std::uint64_t total = 0;
    for (const std::uint32_t id : ids) {
      const auto found = by_load.find(id);
      total += found != by_load.end() ? found->second : 0;
    }
    return total;
  };
  std::vector<std::pair<std::uint64_t, std::uint64_t>> weight_of;  // L2 requests, threads'
  for (const std::vector<std::uint32_t>& ids : loads) {
    weight_of.emplace_back(sum(weights.l2, ids), sum(weights.threads, ids));
  }
  std::vector<std::size_t> rank(proposed.size());
  std::iota(rank.begin(), rank.end(), std::size_t{0});
  std::stable_sort(rank.begin(), rank.end(), [&](std::size_t a, std::size_t b) {
    if (weight_of[a] != weight_of[b])
      return weight_of[a] > weight_of[b];
    return proposed[a].compute_tile.volume() > proposed[b].compute_tile.volume();
  });
  for (std::size_t r = 0; r < rank.size(); ++r) {
    proposed[rank[r]].priority = static_cast<std::uint32_t>(rank.size() - r);
  }
}

}  // namespace memcarlo::cli
