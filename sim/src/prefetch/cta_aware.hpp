// cta-aware: prefetching for the CTAs an SM will run next, after the prefetcher of Jog, Kayiran,
// Mishra, Kandemir, Mutlu, Iyer, Das, "Orchestrated scheduling and prefetching for GPGPUs",
// ISCA 2013 (Snake's [25]): CTAs of a grid mostly read tiles that lie a fixed distance apart per
// CTA id. Per (SM, PC) the table keeps the lane-0 address of the first warp (warp 0) of the last
// CTA seen on that SM to run the load, and the stride per CTA id between consecutive such CTAs,
// with the gap in CTA ids between them (the SM's step through the grid). Once the same stride is
// seen over three CTAs, every warp's instance prefetches the same warp's instance in the CTAs
// `distance` ... `distance + degree - 1` steps ahead on this SM.
#pragma once

#include <array>

#include "common.hpp"

namespace memcarlo::sim::prefetch {

class CtaAware {
 public:
  static constexpr std::string_view kName = "cta-aware";
  static constexpr std::uint32_t kMaxRequests = kMaxDegree * kMaxLinesPerInstruction;
  static constexpr std::array kKeys{kDegree, kDistance, kTableEntries};

  explicit CtaAware(const HierarchyConfig& config)
      : line_(config.l1.line),
        degree_(bounded_key(config, kDegree, 1, kMaxDegree)),
        distance_(bounded_key(config, kDistance, 1, 1024)),
        entries_(bounded_key(config, kTableEntries, 1, 1024)) {}

  void begin_launch(std::uint32_t sm_count) { table_.reset(sm_count, entries_); }

  template <class Sink>
  void on_access(const L1Access& access, Sink& sink) {
    if (!access.first_of_instruction) {
      return;
    }
    Entry& entry = table_.find_or_insert(value_of(access.sm), value_of(access.load));
    const std::uint64_t block = value_of(access.block);
    if (access.warp_in_block == 0 && (!entry.valid || block != entry.last_block)) {
      const std::uint64_t base = value_of(access.base_address);
      if (entry.valid) {
        const auto blocks = static_cast<std::int64_t>(block - entry.last_block);
        const auto bytes = static_cast<std::int64_t>(base - entry.last_base);
        if (bytes % blocks == 0) {
          entry.stride.observe(bytes / blocks);
          entry.block_step = blocks;
        } else {
          entry.stride = {};
        }
      }
      entry.valid = true;
      entry.last_block = block;
      entry.last_base = base;
    }
    if (!entry.stride.trained()) {
      return;
    }
    for (std::uint32_t k = 0; k < degree_; ++k) {
      const std::int64_t blocks_ahead = entry.block_step * (distance_ + k);
      prefetch_instruction(
          sink, advance(value_of(access.base_address), entry.stride.stride, blocks_ahead), access,
          line_);
    }
  }

 private:
  struct Entry {
    std::uint64_t last_base = 0;
    std::uint64_t last_block = 0;
    std::int64_t block_step = 1;  // CTA ids between the SM's consecutive CTAs of this load
    StrideTrainer stride;         // bytes per CTA id
    bool valid = false;
  };
  std::uint32_t line_;
  std::uint32_t degree_;
  std::uint32_t distance_;
  std::uint32_t entries_;
  LruTable<Entry> table_;
};

}  // namespace memcarlo::sim::prefetch
