// The DRAM model registry: one line per model.
#include "banked.hpp"
#include "fixed.hpp"
#include "memcarlo/sim/policy_registry.hpp"

namespace memcarlo::sim::dram {
namespace {

const Entry kRegistry[] = {
    {"banked", "channels, banks and row buffers with GDDR/HBM timings", make_banked},
    {"fixed", "constant latency dram.base_latency", make_fixed},
};

}  // namespace

std::span<const Entry> registry() { return kRegistry; }

std::vector<std::string> names() {
  std::vector<std::string> out;
  for (const Entry& entry : kRegistry) {
    out.emplace_back(entry.name);
  }
  return out;
}

std::unique_ptr<Model> make(const DramConfig& config) {
  for (const Entry& entry : kRegistry) {
    if (entry.name == config.model) {
      return entry.make(config);
    }
  }
  throw unknown_policy("dram.model", config.model, names(), "model");
}

}  // namespace memcarlo::sim::dram
