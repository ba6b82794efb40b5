// Banked DRAM model. Within a batch all requests arrive together; each is served by its bank
// (row hit: tCAS; closed bank: tRCD + tCAS; row conflict: tRP + tRCD + tCAS, after the bank's
// previous access) and then occupies its channel's data bus for one burst per 32 bytes. A
// request's latency is base + its data completion time; the batch latency is their mean. Row
// buffers stay open across batches, so locality between batches is rewarded.
#include "banked.hpp"

#include <algorithm>
#include <limits>

namespace memcarlo::sim::dram {
namespace {

class Banked final : public Model {
 public:
  explicit Banked(const DramConfig& config)
      : config_(config),
        open_row_(std::size_t{config.channels} * config.banks, kClosed),
        bank_ready_(open_row_.size(), 0.0),
        bus_ready_(config.channels, 0.0) {}

  void reset() override { std::fill(open_row_.begin(), open_row_.end(), kClosed); }

  double batch_latency(std::span<const Request> batch) override {
    if (batch.empty()) {
      return config_.base_latency;
    }
    std::fill(bank_ready_.begin(), bank_ready_.end(), 0.0);
    std::fill(bus_ready_.begin(), bus_ready_.end(), 0.0);
    double total = 0;
    for (const Request& r : batch) {
      const std::size_t bank = std::size_t{r.location.channel} * config_.banks + r.location.bank;
      double start = bank_ready_[bank];
      double data;
      if (open_row_[bank] == r.location.row) {
        data = start + config_.t_cas;
      } else if (open_row_[bank] == kClosed) {
        data = start + config_.t_rcd + config_.t_cas;
      } else {
        data = start + config_.t_rp + config_.t_rcd + config_.t_cas;
      }
      open_row_[bank] = r.location.row;
      const double transfer = config_.t_burst * r.bursts;
      const double done = std::max(data, bus_ready_[r.location.channel]) + transfer;
      bus_ready_[r.location.channel] = done;
      // The next column command to this bank may issue one transfer after this one's.
      bank_ready_[bank] = data - config_.t_cas + transfer;
      total += done;
    }
    return config_.base_latency + total / static_cast<double>(batch.size());
  }

 private:
  static constexpr std::uint32_t kClosed = std::numeric_limits<std::uint32_t>::max();
  DramConfig config_;
  std::vector<std::uint32_t> open_row_;
  std::vector<double> bank_ready_;
  std::vector<double> bus_ready_;
};

}  // namespace

std::unique_ptr<Model> make_banked(const DramConfig& config) {
  return std::make_unique<Banked>(config);
}

void register_banked(DramRegistry& registry) {
  registry.add({"banked",
                "channels, banks and row buffers with GDDR/HBM timings",
                {},
                [](const HierarchyConfig& config) { return make_banked(config.dram); }});
}

}  // namespace memcarlo::sim::dram
