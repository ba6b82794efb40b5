// ldesc data placement (ldesc.hpp).
#include "ldesc.hpp"

#include <algorithm>
#include <bit>
#include <nlohmann/json.hpp>
#include <string>

#include "interleaved.hpp"
#include "ldesc/descriptors.hpp"
#include "ldesc/numa_mapping.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "module_map.hpp"

namespace memcarlo::sim::placement {
namespace {

class Ldesc final : public Placement {
 public:
  explicit Ldesc(const HierarchyConfig& config)
      : config_(config),
        map_(config, config.params.integer(kPageBytes)),
        zone_bits_(static_cast<std::uint32_t>(std::countr_zero(config.numa.modules))) {}

  void prepare(const tracebuf::TraceReader& reader) override {
    ranges_.clear();
    if (zone_bits_ == 0) {
      return;  // one module: every line on it
    }
    const auto from_file = ldesc::file_descriptors(config_);
    const std::string file_name =
        from_file
            ? nlohmann::json::parse(config_.params.text(ldesc::kDescriptorsFile)).get<std::string>()
            : std::string();
    if (from_file) {
      try {
        ldesc::check_scopes(reader, *from_file, file_name);
      } catch (const tracebuf::DescriptorError&) {
        return;  // the compile reports it
      }
    }
    for (std::uint32_t l = 0; l < reader.launches().size(); ++l) {
      std::vector<tracebuf::LocalityDescriptor> descriptors;
      try {
        descriptors = ldesc::launch_descriptors(reader, l, from_file, file_name);
      } catch (const tracebuf::DescriptorError&) {
        continue;  // the compile reports it for a launch it runs; others do not steer
      }
      if (descriptors.empty()) {
        continue;
      }
      const ldesc::NumaMapping mapping =
          ldesc::map_to_zones(descriptors, reader.launches()[l].info.grid, config_.numa.modules);
      for (std::size_t i = 0; i < descriptors.size(); ++i) {
        const Range range{descriptors[i].address, descriptors[i].address + descriptors[i].size,
                          mapping.bits[i]};
        const bool overlaps = std::any_of(ranges_.begin(), ranges_.end(), [&](const Range& r) {
          return r.begin < range.end && range.begin < r.end;
        });
        if (!overlaps && range.begin < range.end) {
          ranges_.push_back(range);
        }
      }
    }
    std::sort(ranges_.begin(), ranges_.end(),
              [](const Range& a, const Range& b) { return a.begin < b.begin; });
  }

  LineHome place(ByteAddress line, std::span<std::uint32_t> l2_sets) const override {
    const std::uint64_t address = value_of(line);
    const auto after =
        std::upper_bound(ranges_.begin(), ranges_.end(), address,
                         [](std::uint64_t a, const Range& r) { return a < r.begin; });
    if (after != ranges_.begin() && address < std::prev(after)->end) {
      const std::uint32_t bit = std::prev(after)->bit;
      const std::uint64_t low = address & ((std::uint64_t{1} << bit) - 1);
      const std::uint64_t local = ((address >> (bit + zone_bits_)) << bit) | low;
      return map_.place(address, local, ldesc::zone_of(address, bit, map_.modules()), l2_sets);
    }
    const auto module = static_cast<std::uint32_t>(map_.page_of(address) % map_.modules());
    return map_.place(address, map_.compressed(address), module, l2_sets);
  }

 private:
  struct Range {
    std::uint64_t begin;
    std::uint64_t end;
    std::uint32_t bit;  // the lowest zone bit
  };

  HierarchyConfig config_;
  ModuleMap map_;
  std::uint32_t zone_bits_;    // log2(modules)
  std::vector<Range> ranges_;  // sorted by begin, disjoint
};

}  // namespace

std::unique_ptr<Placement> make_ldesc(const HierarchyConfig& config) {
  if (!std::has_single_bit(config.numa.modules)) {
    throw ConfigError(
        "placement.policy: ldesc needs numa.modules to be a power of two "
        "(Algorithm 2's zone bits); got " +
        std::to_string(config.numa.modules));
  }
  return std::make_unique<Ldesc>(config);
}

void register_ldesc(PlacementRegistry& registry) {
  registry.add(
      {"ldesc",
       "Locality Descriptors: a described data structure interleaved over the modules by its "
       "own address bits (Algorithm 2, bits 7-16); other pages interleaved",
       {},
       make_ldesc});
}

}  // namespace memcarlo::sim::placement
