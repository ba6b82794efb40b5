// tafe page placement (tafe.hpp).
#include "tafe.hpp"

#include <algorithm>
#include <bit>
#include <unordered_map>

#include "interleaved.hpp"
#include "memcarlo/footprint/block_order.hpp"
#include "memcarlo/footprint/footprint.hpp"
#include "module_map.hpp"

namespace memcarlo::sim::placement {
namespace {

class Tafe final : public Placement {
 public:
  explicit Tafe(const HierarchyConfig& config)
      : map_(config, config.params.integer(kPageBytes)),
        page_bytes_(config.params.integer(kPageBytes)),
        modules_(config.numa.modules),
        tree_(config.numa.topology == "tree"),
        tid_only_(config.params.text(kTafeTid) == "true") {}

  void prepare(const tracebuf::TraceReader& reader) override {
    // touches[page][module]: estimated (block, page) touches of the module's blocks.
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> touches;
    for (std::uint32_t l = 0; l < reader.launches().size(); ++l) {
      footprint::LaunchFootprint fp;
      try {
        fp = footprint::launch_footprint(reader, l);
      } catch (const footprint::MissingInformation&) {
        return;  // nothing to steer by: every page interleaved
      }
      const tracebuf::LaunchInfo& info = reader.launches()[l].info;
      std::vector<std::uint64_t> ids;
      for (const footprint::BlockFootprint& block : fp.blocks)
        ids.push_back(block.block_id);
      const std::vector<std::uint32_t> module = footprint::tafe_block_modules(
          footprint::tafe_block_order(reader.loads(), info.kernel, info.block, fp.arguments,
                                      footprint::recorded_registrations(reader, l)),
          ids,
          info.grid, modules_);
      std::vector<footprint::ByteRange> shared;  // TAFE-TID: data-dependent arrays
      if (tid_only_) {
        for (const footprint::RelationUse& use : fp.relations) {
          if (use.relation.kind != footprint::RelationKind::kIndirect &&
              use.relation.kind != footprint::RelationKind::kIndirectRange) {
            continue;
          }
          for (const tracebuf::Allocation& allocation : reader.allocations()) {
            if (allocation.name == use.allocation && !use.allocation.empty()) {
              shared.push_back({allocation.base, allocation.base + allocation.size});
            }
          }
        }
      }
      for (std::size_t b = 0; b < fp.blocks.size(); ++b) {
        for (const footprint::ByteRange& range : fp.blocks[b].estimated) {
          for (std::uint64_t page = range.begin / page_bytes_;
               page <= (range.end - 1) / page_bytes_; ++page) {
            std::vector<std::uint32_t>& count = touches[page];
            count.resize(modules_, 0);
            ++count[module[b]];
          }
        }
      }
      for (const footprint::ByteRange& range : shared) {
        for (std::uint64_t page = range.begin / page_bytes_; page <= (range.end - 1) / page_bytes_;
             ++page) {
          touches[page].assign(modules_, 1);
        }
      }
    }
    homes_.clear();
    for (const auto& [page, count] : touches) {
      homes_.emplace_back(page, home_of(count, page));
    }
    std::sort(homes_.begin(), homes_.end());
  }

  LineHome place(ByteAddress line, std::span<std::uint32_t> l2_sets) const override {
    const std::uint64_t address = value_of(line);
    const std::uint64_t page = address / page_bytes_;
    const auto found = std::lower_bound(homes_.begin(), homes_.end(),
                                        std::pair<std::uint64_t, std::uint32_t>{page, 0});
    const std::uint32_t module = found != homes_.end() && found->first == page
                                     ? found->second
                                     : static_cast<std::uint32_t>(page % modules_);
    // The whole address picks the sets inside the module: any page may land on any module.
    return map_.place(address, address, module, l2_sets);
  }

 private:
  [[nodiscard]] std::uint32_t hops(std::uint32_t a, std::uint32_t b) const {
    if (a == b)
      return 0;
    return tree_ ? 2 * static_cast<std::uint32_t>(std::bit_width(a ^ b)) : 1;
  }

  /// The module nearest to all modules that touch the page (NumaLinks' hop counts); a page every
  /// module touches alike keeps its interleaved home.
  [[nodiscard]] std::uint32_t home_of(const std::vector<std::uint32_t>& count,
                                      std::uint64_t page) const {
    if (std::all_of(count.begin(), count.end(), [&](std::uint32_t c) { return c == count[0]; })) {
      return static_cast<std::uint32_t>(page % modules_);
    }
    std::uint32_t best = 0;
    std::uint64_t best_distance = UINT64_MAX;
    std::uint32_t best_count = 0;
    for (std::uint32_t m = 0; m < modules_; ++m) {
      std::uint64_t distance = 0;
      for (std::uint32_t a = 0; a < modules_; ++a) {
        if (count[a] > 0)
          distance += hops(m, a);
      }
      if (distance < best_distance || (distance == best_distance && count[m] > best_count)) {
        best = m;
        best_distance = distance;
        best_count = count[m];
      }
    }
    return best;
  }

  ModuleMap map_;
  std::uint64_t page_bytes_;
  std::uint32_t modules_;
  bool tree_;
  bool tid_only_;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> homes_;  // (page, module), sorted
};

}  // namespace

std::unique_ptr<Placement> make_tafe(const HierarchyConfig& config) {
  return std::make_unique<Tafe>(config);
}

void register_tafe(PlacementRegistry& registry) {
  registry.add(
      {"tafe",
       "TAFE: a page on the module whose blocks (tafe CTA order) are estimated to touch it, "
       "or the one nearest to all of them; other pages interleaved",
       {kTafeTid},
       make_tafe});
}

}  // namespace memcarlo::sim::placement
