// The replacement-policy contract. A policy keeps per-set metadata for `sets` x `ways` and is a
// template argument of CacheArray, so its hooks inline into the trial loop (no virtual call per
// access). Adding a policy: a header in this folder, one line in replacement/registry.hpp
// (the variant and the name table), one test, one README line.
//
// Contract:
//   reset(sets, ways)      called once per trial before any access; the only place that allocates.
//   on_fill(set, way)      a line was placed in `way` (after a miss).
//   on_hit(set, way)       an access found its line in `way`.
//   victim(set, random)    a way to evict when every way of `set` is valid. The cache hands out
//                          invalid ways itself before asking, so a policy never sees them here.
// Hooks are O(1), must not allocate, and may draw from the trial's random stream only in victim().
#pragma once

#include <cstdint>
#include <vector>

#include "memcarlo/sim/random.hpp"

namespace memcarlo::sim::replacement {

/// Per-set doubly linked recency list over the ways (most recent at the head): O(1) promote and
/// O(1) oldest, for any associativity up to 255.
class RecencyList {
 public:
  void reset(std::uint32_t sets, std::uint32_t ways) {
    ways_ = ways;
    previous_.assign(std::size_t{sets} * ways, 0);
    next_.assign(std::size_t{sets} * ways, 0);
    head_.assign(sets, 0);
    tail_.assign(sets, 0);
    for (std::uint32_t set = 0; set < sets; ++set) {
      const std::size_t base = std::size_t{set} * ways;
      for (std::uint32_t way = 0; way < ways; ++way) {
        previous_[base + way] = static_cast<std::uint8_t>(way == 0 ? 0 : way - 1);
        next_[base + way] = static_cast<std::uint8_t>(way + 1 == ways ? way : way + 1);
      }
      head_[set] = 0;
      tail_[set] = static_cast<std::uint8_t>(ways - 1);
    }
  }

  /// Makes `way` the most recent. Convention: previous[head] = head, next[tail] = tail.
  void promote(std::uint32_t set, std::uint32_t way) {
    if (head_[set] == way) {
      return;
    }
    const std::size_t base = std::size_t{set} * ways_;
    const std::uint8_t before = previous_[base + way];  // valid: `way` is not the head
    const std::uint8_t after = next_[base + way];
    if (tail_[set] == way) {
      tail_[set] = before;
      next_[base + before] = before;
    } else {
      next_[base + before] = after;
      previous_[base + after] = before;
    }
    const auto moved = static_cast<std::uint8_t>(way);
    previous_[base + head_[set]] = moved;
    next_[base + way] = head_[set];
    previous_[base + way] = moved;
    head_[set] = moved;
  }

  [[nodiscard]] std::uint32_t oldest(std::uint32_t set) const { return tail_[set]; }

  /// Ways of `set` from most to least recent (for tests).
  [[nodiscard]] std::vector<std::uint32_t> order(std::uint32_t set) const {
    std::vector<std::uint32_t> out;
    const std::size_t base = std::size_t{set} * ways_;
    std::uint32_t way = head_[set];
    for (std::uint32_t i = 0; i < ways_; ++i) {
      out.push_back(way);
      way = next_[base + way];
    }
    return out;
  }

 private:
  std::uint32_t ways_ = 0;
  std::vector<std::uint8_t> previous_;
  std::vector<std::uint8_t> next_;
  std::vector<std::uint8_t> head_;
  std::vector<std::uint8_t> tail_;
};

}  // namespace memcarlo::sim::replacement
