// xor page placement (xor_hashed.hpp).
#include "xor_hashed.hpp"

#include <bit>
#include <string>

#include "interleaved.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "module_map.hpp"

namespace memcarlo::sim::placement {
namespace {

class XorHashed final : public Placement {
 public:
  explicit XorHashed(const HierarchyConfig& config)
      : map_(config, config.params.integer(kPageBytes)),
        bits_(static_cast<std::uint32_t>(std::countr_zero(config.numa.modules))) {}

  LineHome place(ByteAddress line, std::span<std::uint32_t> l2_sets) const override {
    const std::uint64_t address = value_of(line);
    std::uint64_t module = 0;
    if (bits_ > 0) {
      // For a fixed page / M, page -> module is a bijection of page mod M (its digit is XORed
      // with the others), so the compressed addresses of a module's pages do not collide.
      for (std::uint64_t page = map_.page_of(address); page != 0; page >>= bits_) {
        module ^= page & ((std::uint64_t{1} << bits_) - 1);
      }
    }
    return map_.place(address, map_.compressed(address), static_cast<std::uint32_t>(module),
                      l2_sets);
  }

 private:
  ModuleMap map_;
  std::uint32_t bits_;
};

}  // namespace

std::unique_ptr<Placement> make_xor_hashed(const HierarchyConfig& config) {
  if (!std::has_single_bit(config.numa.modules)) {
    throw ConfigError("placement.policy: xor needs numa.modules to be a power of two; got " +
                      std::to_string(config.numa.modules));
  }
  return std::make_unique<XorHashed>(config);
}

void register_xor_hashed(PlacementRegistry& registry) {
  registry.add({"xor",
                "a page on the XOR of its page number's log2(M)-bit digits (M a power of two)",
                {},
                make_xor_hashed});
}

}  // namespace memcarlo::sim::placement
