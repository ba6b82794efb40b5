// interleaved page placement (interleaved.hpp).
#include "interleaved.hpp"

#include "module_map.hpp"

namespace memcarlo::sim::placement {
namespace {

class Interleaved final : public Placement {
 public:
  explicit Interleaved(const HierarchyConfig& config)
      : map_(config, config.params.integer(kPageBytes)) {}

  LineHome place(ByteAddress line, std::span<std::uint32_t> l2_sets) const override {
    const std::uint64_t address = value_of(line);
    const auto module = static_cast<std::uint32_t>(map_.page_of(address) % map_.modules());
    return map_.place(address, map_.compressed(address), module, l2_sets);
  }

 private:
  ModuleMap map_;
};

}  // namespace

std::unique_ptr<Placement> make_interleaved(const HierarchyConfig& config) {
  return std::make_unique<Interleaved>(config);
}

void register_interleaved(PlacementRegistry& registry) {
  registry.add(
      {"interleaved",
       "page p on module p mod M; in it, L2 slices by line number, DRAM channels and banks "
       "by address bits",
       {kPageBytes, kAllocationPlacements},
       make_interleaved});
}

}  // namespace memcarlo::sim::placement
