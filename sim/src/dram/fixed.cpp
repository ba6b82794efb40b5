// Fixed-latency DRAM: no channels, banks or congestion; useful as a baseline and for tests whose
// expected latencies must be exact.
#include "fixed.hpp"

namespace memcarlo::sim::dram {
namespace {

class Fixed final : public Model {
 public:
  explicit Fixed(const DramConfig& config) : latency_(config.base_latency) {}
  void reset() override {}
  double batch_latency(std::span<const Request>) override { return latency_; }

 private:
  double latency_;
};

}  // namespace

std::unique_ptr<Model> make_fixed(const DramConfig& config) {
  return std::make_unique<Fixed>(config);
}

void register_fixed(DramRegistry& registry) {
  registry.add(
      {"fixed", "constant latency dram.base_latency", {}, [](const HierarchyConfig& config) {
         return make_fixed(config.dram);
       }});
}

}  // namespace memcarlo::sim::dram
