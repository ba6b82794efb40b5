// interleaved page placement (interleaved.hpp).
#include "interleaved.hpp"

namespace memcarlo::sim::placement {
namespace {

class Interleaved final : public Placement {
 public:
  explicit Interleaved(const HierarchyConfig& config)
      : dram_(config.dram),
        l2_line_(config.l2.line),
        slices_(config.l2.slices),
        sets_per_slice_(config.l2.sets() / config.l2.slices),
        page_bytes_(config.params.integer(kPageBytes)),
        bank_major_(config.dram.mapping == "row_channel_bank_column") {}

  LineHome place(ByteAddress line, std::span<std::uint32_t> l2_sets) const override {
    const std::uint64_t address = value_of(line);
    for (std::size_t part = 0; part < l2_sets.size(); ++part) {
      const std::uint64_t number = (address + part * l2_line_) / l2_line_;
      const std::uint64_t slice = number % slices_;
      const std::uint64_t set = (number / slices_) % sets_per_slice_;
      l2_sets[part] = static_cast<std::uint32_t>(slice * sets_per_slice_ + set);
    }
    LineHome home;
    home.dram = dram_location(address);
    home.page = static_cast<std::uint32_t>(address / page_bytes_);
    return home;
  }

 private:
  [[nodiscard]] DramLocation dram_location(std::uint64_t address) const {
    const std::uint64_t chunk = address / dram_.interleave_bytes;
    const std::uint64_t chunks_per_row = dram_.row_bytes / dram_.interleave_bytes;
    std::uint64_t channel = 0;
    std::uint64_t bank = 0;
    std::uint64_t rest = 0;
    if (bank_major_) {
      bank = chunk % dram_.banks;
      channel = (chunk / dram_.banks) % dram_.channels;
      rest = chunk / dram_.banks / dram_.channels;
    } else {  // row_bank_channel_column
      channel = chunk % dram_.channels;
      bank = (chunk / dram_.channels) % dram_.banks;
      rest = chunk / dram_.channels / dram_.banks;
    }
    return {static_cast<std::uint32_t>(rest / chunks_per_row),
            static_cast<std::uint16_t>(channel), static_cast<std::uint16_t>(bank)};
  }

  DramConfig dram_;
  std::uint64_t l2_line_;
  std::uint64_t slices_;
  std::uint64_t sets_per_slice_;
  std::uint64_t page_bytes_;
  bool bank_major_;
};

}  // namespace

std::unique_ptr<Placement> make_interleaved(const HierarchyConfig& config) {
  return std::make_unique<Interleaved>(config);
}

}  // namespace memcarlo::sim::placement
