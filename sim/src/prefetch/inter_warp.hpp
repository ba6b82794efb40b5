// inter-warp: a stride prefetcher per (SM, PC) across warps, the inter-warp half of
// Many-Thread-Aware prefetching (Lee et al., MICRO 2010; Snake's [29]): threads of neighbouring
// warps mostly read neighbouring data, so the lane-0 address of a load grows by a fixed stride
// per warp id (warp id = block x warps per block + warp in block). The table keeps per load the
// last warp id and address and the stride per warp between consecutive instances; once the same
// stride is seen over three warps (twice in a row), each instance prefetches for warps
// id + distance ... id + distance + degree - 1, each as the lines its lanes span.
#pragma once

#include <array>

#include "common.hpp"

namespace memcarlo::sim::prefetch {

class InterWarp {
 public:
  static constexpr std::string_view kName = "inter-warp";
  static constexpr std::uint32_t kMaxRequests = kMaxDegree * kMaxLinesPerInstruction;
  static constexpr std::array kKeys{kDegree, kDistance, kTableEntries};

  explicit InterWarp(const HierarchyConfig& config)
      : line_(config.l1.line),
        degree_(bounded_key(config, kDegree, 1, kMaxDegree)),
        distance_(bounded_key(config, kDistance, 1, 1024)),
        entries_(bounded_key(config, kTableEntries, 1, 1024)) {}

  void begin_launch(std::uint32_t sm_count) { table_.reset(sm_count, entries_); }

  /// Trains on the instruction of `access`; true when the load's entry is trained, with the
  /// stride per warp in `stride`.
  bool train(const L1Access& access, std::int64_t& stride) {
    Entry& entry = table_.find_or_insert(value_of(access.sm), value_of(access.load));
    const std::uint64_t base = value_of(access.base_address);
    const std::uint64_t warp = access.global_warp();
    if (entry.valid && warp != entry.last_warp) {
      const auto warps = static_cast<std::int64_t>(warp - entry.last_warp);
      const auto bytes = static_cast<std::int64_t>(base - entry.last_base);
      if (bytes % warps == 0) {
        entry.stride.observe(bytes / warps);
      } else {
        entry.stride = {};
      }
    }
    entry.valid = true;
    entry.last_base = base;
    entry.last_warp = warp;
    stride = entry.stride.stride;
    return entry.stride.trained();
  }

  template <class Sink>
  void prefetch(const L1Access& access, std::int64_t stride, Sink& sink) const {
    for (std::uint32_t k = 0; k < degree_; ++k) {
      prefetch_instruction(sink, advance(value_of(access.base_address), stride, distance_ + k),
                           access, line_);
    }
  }

  template <class Sink>
  void on_access(const L1Access& access, Sink& sink) {
    std::int64_t stride = 0;
    if (access.first_of_instruction && train(access, stride)) {
      prefetch(access, stride, sink);
    }
  }

 private:
  struct Entry {
    std::uint64_t last_base = 0;
    std::uint64_t last_warp = 0;
    StrideTrainer stride;
    bool valid = false;
  };
  std::uint32_t line_;
  std::uint32_t degree_;
  std::uint32_t distance_;
  std::uint32_t entries_;
  LruTable<Entry> table_;
};

}  // namespace memcarlo::sim::prefetch
