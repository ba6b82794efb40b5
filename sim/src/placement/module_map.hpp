// Where a line lives inside its home module: its L2 sets among the module's slices and its DRAM
// channel, bank and row among the module's channels. Module m holds slices [m x L/M, (m+1) x L/M)
// and channels [m x C/M, (m+1) x C/M). With one module this is the single-chip mapping, bit for
// bit (interleaved's since the first engine).
#pragma once

#include <cstdint>
#include <span>

#include "memcarlo/sim/placement/placement.hpp"

namespace memcarlo::sim::placement {

class ModuleMap {
 public:
  ModuleMap(const HierarchyConfig& config, std::uint64_t page_bytes)
      : dram_(config.dram),
        l2_line_(config.l2.line),
        slices_(config.l2.slices / config.numa.modules),
        sets_per_slice_(config.l2.sets() / config.l2.slices),
        channels_(config.dram.channels / config.numa.modules),
        page_bytes_(page_bytes),
        modules_(config.numa.modules),
        bank_major_(config.dram.mapping == "row_channel_bank_column") {}

  [[nodiscard]] std::uint64_t page_of(std::uint64_t address) const { return address / page_bytes_; }
  [[nodiscard]] std::uint32_t modules() const { return modules_; }

  /// The address inside the module when the page number's module digit (page mod M, or any
  /// bijection of it for fixed page / M) is taken out: pages spread over M modules then fill
  /// each module's sets and rows as a single chip's pages would. The address itself with M = 1.
  [[nodiscard]] std::uint64_t compressed(std::uint64_t address) const {
    return page_of(address) / modules_ * page_bytes_ + address % page_bytes_;
  }

  /// The home of the line at `address` on `module`, its sets and DRAM location decided from
  /// `local` (the address as the module's own slices and channels see it).
  LineHome place(std::uint64_t address, std::uint64_t local, std::uint32_t module,
                 std::span<std::uint32_t> l2_sets) const {
    for (std::size_t part = 0; part < l2_sets.size(); ++part) {
      const std::uint64_t number = (local + part * l2_line_) / l2_line_;
      const std::uint64_t slice = module * slices_ + number % slices_;
      const std::uint64_t set = (number / slices_) % sets_per_slice_;
      l2_sets[part] = static_cast<std::uint32_t>(slice * sets_per_slice_ + set);
    }
    LineHome home;
    home.dram = dram_location(local);
    home.dram.channel = static_cast<std::uint16_t>(home.dram.channel + module * channels_);
    home.module = static_cast<std::uint16_t>(module);
    home.page = static_cast<std::uint32_t>(page_of(address));
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
      channel = (chunk / dram_.banks) % channels_;
      rest = chunk / dram_.banks / channels_;
    } else {  // row_bank_channel_column
      channel = chunk % channels_;
      bank = (chunk / channels_) % dram_.banks;
      rest = chunk / channels_ / dram_.banks;
    }
    return {static_cast<std::uint32_t>(rest / chunks_per_row),
            static_cast<std::uint16_t>(channel), static_cast<std::uint16_t>(bank)};
  }

  DramConfig dram_;
  std::uint64_t l2_line_;
  std::uint64_t slices_;  // per module
  std::uint64_t sets_per_slice_;
  std::uint64_t channels_;  // per module
  std::uint64_t page_bytes_;
  std::uint32_t modules_;
  bool bank_major_;
};

}  // namespace memcarlo::sim::placement
