// locality CTA scheduling (locality.hpp).
#include "locality.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace memcarlo::sim::schedule {
namespace {

constexpr std::size_t kMaxSharers = 64;

/// Per block of the launch, its neighbours and the lines it shares with each.
using Neighbours = std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>>;

Neighbours line_graph(const CompiledTrace& trace, const LaunchTrace& launch) {
  const auto blocks = static_cast<std::uint32_t>(launch.blocks.size());
  const std::size_t line_count = trace.l1_line_address.size();
  // Each block's distinct lines, found with a stamp per line (one pass over the launch's
  // transactions, no sorting), and how many blocks touch each line.
  std::vector<std::uint32_t> stamp(line_count, 0);
  std::vector<std::uint32_t> owners(line_count + 1, 0);
  std::vector<std::vector<std::uint32_t>> lines_of_block(blocks);
  for (std::uint32_t b = 0; b < blocks; ++b) {
    const BlockTrace& block = launch.blocks[b];
    for (std::uint32_t w = block.first_warp;
         w < block.first_warp + block.warp_count && w < trace.warps.size(); ++w) {
      const WarpTrace& warp = trace.warps[w];
      for (std::uint32_t u = warp.first_bulk; u < warp.first_bulk + warp.bulk_count; ++u) {
        const Bulk& bulk = trace.bulks[u];
        for (std::uint32_t t = bulk.first_transaction;
             t < bulk.first_transaction + bulk.transaction_count; ++t) {
          const std::uint32_t line = trace.transactions[t].line;
          if (stamp[line] == b + 1)
            continue;
          stamp[line] = b + 1;
          ++owners[line];
          lines_of_block[b].push_back(line);
        }
      }
    }
  }
  // The blocks of each line shared by 2 to kMaxSharers blocks, as one array cut per line.
  std::vector<std::uint32_t> line_begin(line_count + 1, 0);
  for (std::size_t line = 0; line < line_count; ++line) {
    const bool kept = owners[line] > 1 && owners[line] <= kMaxSharers;
    line_begin[line + 1] = line_begin[line] + (kept ? owners[line] : 0);
  }
  std::vector<std::uint32_t> sharers(line_begin[line_count]);
  std::vector<std::uint32_t> filled(line_begin.begin(), line_begin.end() - 1);
  for (std::uint32_t b = 0; b < blocks; ++b) {
    std::erase_if(lines_of_block[b],
                  [&](std::uint32_t line) { return line_begin[line + 1] == line_begin[line]; });
    for (const std::uint32_t line : lines_of_block[b])
      sharers[filled[line]++] = b;
  }
  Neighbours neighbours(blocks);
  std::vector<std::uint32_t> count(blocks, 0);
  std::vector<std::uint32_t> touched;
  for (std::uint32_t b = 0; b < blocks; ++b) {
    touched.clear();
    for (const std::uint32_t line : lines_of_block[b]) {
      for (std::uint32_t k = line_begin[line]; k < line_begin[line + 1]; ++k) {
        const std::uint32_t other = sharers[k];
        if (other == b)
          continue;
        if (count[other]++ == 0)
          touched.push_back(other);
      }
    }
    std::sort(touched.begin(), touched.end());  // deterministic order
    for (const std::uint32_t other : touched) {
      neighbours[b].emplace_back(other, count[other]);
      count[other] = 0;
    }
  }
  return neighbours;
}

/// Cuts `members` (ascending) into `parts` groups of at most ceil(n / parts), each grown from its
/// lowest unplaced member by the member with the most weight towards the group.
std::vector<std::vector<std::uint32_t>> partition(const std::vector<std::uint32_t>& members,
                                                  std::uint32_t parts,
                                                  const Neighbours& neighbours) {
  std::vector<std::vector<std::uint32_t>> groups(parts);
  if (members.empty())
    return groups;
  const std::size_t capacity = (members.size() + parts - 1) / parts;
  std::unordered_map<std::uint32_t, std::uint64_t> gain;  // member -> weight towards the group
  std::vector<bool> placed(neighbours.size(), true);
  for (const std::uint32_t m : members)
    placed[m] = false;
  std::size_t next_seed = 0;
  for (std::uint32_t p = 0; p < parts; ++p) {
    gain.clear();
    const auto add = [&](std::uint32_t block) {
      placed[block] = true;
      groups[p].push_back(block);
      gain.erase(block);
      for (const auto& [other, weight] : neighbours[block]) {
        if (!placed[other])
          gain[other] += weight;
      }
    };
    while (groups[p].size() < capacity) {
      std::uint32_t best = 0;
      std::uint64_t best_gain = 0;
      for (const auto& [block, weight] : gain) {
        if (weight > best_gain || (weight == best_gain && block < best)) {
          best = block;
          best_gain = weight;
        }
      }
      if (best_gain == 0) {  // nothing shares with the group: the lowest unplaced block
        while (next_seed < members.size() && placed[members[next_seed]])
          ++next_seed;
        if (next_seed == members.size())
          break;
        best = members[next_seed];
      }
      add(best);
    }
  }
  return groups;
}

class Locality final : public CtaScheduler {
 public:
  void plan(const CtaPlanInput& input, RandomStream&, CtaPlan& plan) const override {
    const auto blocks = static_cast<std::uint32_t>(input.launch.blocks.size());
    plan.clear(input.sm_count);
    if (input.trace == nullptr) {
      plan.order.resize(blocks);
      std::iota(plan.order.begin(), plan.order.end(), 0u);
      plan.close_queue();
      return;
    }
    const Neighbours neighbours = line_graph(*input.trace, input.launch);
    std::vector<std::uint32_t> all(blocks);
    std::iota(all.begin(), all.end(), 0u);
    const std::uint32_t modules = std::max<std::uint32_t>(1, input.modules);
    const std::uint32_t sms_per_module = input.sm_count / modules;
    const auto module_groups = partition(all, modules, neighbours);
    for (std::uint32_t m = 0; m < modules; ++m) {
      std::vector<std::uint32_t> members = module_groups[m];
      std::sort(members.begin(), members.end());
      const auto sm_groups = partition(members, sms_per_module, neighbours);
      for (std::uint32_t s = 0; s < sms_per_module; ++s) {
        const std::uint32_t sm = m * sms_per_module + s;
        plan.queue_of_sm[sm] = sm;
        plan.order.insert(plan.order.end(), sm_groups[s].begin(), sm_groups[s].end());
        plan.close_queue();
      }
    }
  }
};

}  // namespace

std::unique_ptr<CtaScheduler> make_locality(const HierarchyConfig&) {
  return std::make_unique<Locality>();
}

void register_locality(CtaRegistry& registry) {
  registry.add(
      {"locality",
       "blocks clustered by the lines they share (the launch's locality graph) onto one SM "
       "and one module, ceil(B / parts) blocks per part, one queue per SM",
       {},
       make_locality});
}

}  // namespace memcarlo::sim::schedule
