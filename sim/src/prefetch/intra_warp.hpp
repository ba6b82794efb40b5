// intra-warp: a stride prefetcher per (SM, warp, PC), the intra-warp half of Many-Thread-Aware
// prefetching (Lee, Lakshminarayana, Kim, Vuduc, "Many-thread aware prefetching mechanisms for
// GPGPU applications", MICRO 2010; Snake's [29]): each resident warp's table remembers, for its
// last `prefetch.loads_per_warp` loads, the last lane-0 address and the stride between the last
// two; once the same stride is seen twice in
// a row, every instance of the load prefetches the warp's next `prefetch.degree` instances
// (base + stride x 1..degree), each as the lines its lanes span. It catches loops in which each
// thread walks an array with a fixed step.
#pragma once

#include <array>

#include "common.hpp"

namespace memcarlo::sim::prefetch {

class IntraWarp {
 public:
  static constexpr std::string_view kName = "intra-warp";
  static constexpr std::uint32_t kMaxRequests = kMaxDegree * kMaxLinesPerInstruction;
  static constexpr std::array kKeys{kDegree, kLoadsPerWarp};

  explicit IntraWarp(const HierarchyConfig& config)
      : line_(config.l1.line),
        degree_(bounded_key(config, kDegree, 1, kMaxDegree)),
        entries_(bounded_key(config, kLoadsPerWarp, 1, 64)) {}

  void begin_launch(std::uint32_t sm_count) { table_.reset(sm_count * kWarpTables, entries_); }

  /// Trains on the instruction of `access` (its first line only); true when the entry is
  /// trained, with the stride in `stride`.
  bool train(const L1Access& access, std::int64_t& stride) {
    const std::uint32_t warp_table =
        value_of(access.sm) * kWarpTables + value_of(access.warp) % kWarpTables;
    Entry& entry = table_.find_or_insert(warp_table, value_of(access.load));
    const std::uint64_t base = value_of(access.base_address);
    if (entry.valid) {
      entry.stride.observe(static_cast<std::int64_t>(base - entry.last_base));
    }
    entry.valid = true;
    entry.last_base = base;
    stride = entry.stride.stride;
    return entry.stride.trained();
  }

  template <class Sink>
  void prefetch(const L1Access& access, std::int64_t stride, Sink& sink) const {
    for (std::uint32_t k = 1; k <= degree_; ++k) {
      prefetch_instruction(sink, advance(value_of(access.base_address), stride, k), access, line_);
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
    StrideTrainer stride;
    bool valid = false;
  };
  std::uint32_t line_;
  std::uint32_t degree_;
  std::uint32_t entries_;
  LruTable<Entry> table_;
};

}  // namespace memcarlo::sim::prefetch
