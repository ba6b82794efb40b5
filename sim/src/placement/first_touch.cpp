// first-touch page placement (first_touch.hpp).
#include "first_touch.hpp"

#include "interleaved.hpp"
#include "module_map.hpp"

namespace memcarlo::sim::placement {
namespace {

class FirstTouch final : public Placement {
 public:
  explicit FirstTouch(const HierarchyConfig& config)
      : map_(config, config.params.integer(kPageBytes)) {}

  LineHome place(ByteAddress line, std::span<std::uint32_t> l2_sets) const override {
    const std::uint64_t address = value_of(line);
    // The whole address picks the sets inside the module: any page may land on any module.
    LineHome home = map_.place(address, address, 0, l2_sets);
    home.module = kHomePerTrial;
    return home;
  }

 private:
  ModuleMap map_;
};

}  // namespace

std::unique_ptr<Placement> make_first_touch(const HierarchyConfig& config) {
  return std::make_unique<FirstTouch>(config);
}

void register_first_touch(PlacementRegistry& registry) {
  registry.add({"first-touch",
                "a page on the module whose SM's request reaches the L2 first, decided per trial",
                {},
                make_first_touch});
}

}  // namespace memcarlo::sim::placement
