// Set-associative storage for `instances` identical caches (the SMs' L1s, or one L2), with a
// presence map from dense line id to way so that a lookup is one load whatever the
// associativity. Sector valid/dirty masks and a fill time per way support sectored caches and
// in-flight (MSHR) hits. The replacement policy is a template argument (no per-access dispatch).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "memcarlo/sim/random.hpp"

namespace memcarlo::sim {

inline constexpr std::uint8_t kNoWay = 0xFF;
inline constexpr std::uint32_t kNoLine = 0xFFFFFFFF;
inline constexpr std::uint64_t kPendingFill = std::numeric_limits<std::uint64_t>::max();

struct WayState {
  std::uint32_t line = kNoLine;
  std::uint8_t valid = 0;  // sector mask
  std::uint8_t dirty = 0;  // sector mask
  std::uint8_t written = 0;  // sector mask: brought in or written by a store (L2 write activation)
  std::uint8_t reserved = 0;
  std::uint64_t fill_time = 0;  // when the last requested sectors arrive; kPendingFill: unknown
};

template <class Policy>
class CacheArray {
 public:
  using policy_type = Policy;
  struct Eviction {
    std::uint32_t way;
    std::uint32_t evicted_line;  // kNoLine when the way was invalid
    std::uint8_t evicted_dirty;
  };

  /// Sizes everything for `lines` dense line ids; allocates only when sizes grow.
  void reset(std::uint32_t instances, std::uint32_t sets, std::uint32_t ways, std::uint32_t lines,
             const Policy& policy) {
    instances_ = instances;
    sets_ = sets;
    ways_ = ways;
    lines_ = lines;
    ways_state_.assign(std::size_t{instances} * sets * ways, WayState{});
    invalid_.assign(std::size_t{instances} * sets,
                    ways == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << ways) - 1);
    presence_.assign(std::size_t{lines} * instances, kNoWay);
    policy_ = policy;
    policy_.reset(instances * sets, ways);
  }

  /// Way of `line` in `instance`, or kNoWay.
  [[nodiscard]] std::uint8_t lookup(std::uint32_t instance, std::uint32_t line) const {
    return presence_[std::size_t{line} * instances_ + instance];
  }

  WayState& way(std::uint32_t instance, std::uint32_t set, std::uint32_t way) {
    return ways_state_[(std::size_t{instance} * sets_ + set) * ways_ + way];
  }

  void touch(std::uint32_t instance, std::uint32_t set, std::uint32_t way) {
    policy_.on_hit(instance * sets_ + set, way);
  }

  /// Places `line` in `set` of `instance`: an invalid way if any, else the policy's victim.
  Eviction fill(std::uint32_t instance, std::uint32_t set, std::uint32_t line,
                TrialRandom& random) {
    const std::uint32_t global_set = instance * sets_ + set;
    std::uint64_t& invalid = invalid_[global_set];
    std::uint32_t chosen;
    if (invalid != 0) {
      chosen = static_cast<std::uint32_t>(std::countr_zero(invalid));
      invalid &= invalid - 1;
    } else {
      chosen = policy_.victim(global_set, random);
    }
    WayState& state = ways_state_[std::size_t{global_set} * ways_ + chosen];
    Eviction eviction{chosen, state.line, state.dirty};
    if (state.line != kNoLine) {
      presence_[std::size_t{state.line} * instances_ + instance] = kNoWay;
    }
    state = WayState{};
    state.line = line;
    presence_[std::size_t{line} * instances_ + instance] = static_cast<std::uint8_t>(chosen);
    policy_.on_fill(global_set, chosen);
    return eviction;
  }

  /// Drops `line` from `instance` if present; returns whether it was.
  bool invalidate(std::uint32_t instance, std::uint32_t set, std::uint32_t line) {
    std::uint8_t& slot = presence_[std::size_t{line} * instances_ + instance];
    if (slot == kNoWay) {
      return false;
    }
    const std::uint32_t global_set = instance * sets_ + set;
    ways_state_[std::size_t{global_set} * ways_ + slot] = WayState{};
    invalid_[global_set] |= std::uint64_t{1} << slot;
    slot = kNoWay;
    return true;
  }

  /// Invalidates `line` in every instance (inclusive back-invalidation); returns how many held it.
  std::uint32_t invalidate_everywhere(std::uint32_t set, std::uint32_t line) {
    std::uint32_t count = 0;
    const std::uint8_t* row = &presence_[std::size_t{line} * instances_];
    for (std::uint32_t instance = 0; instance < instances_; ++instance) {
      if (row[instance] != kNoWay) {
        count += invalidate(instance, set, line) ? 1 : 0;
      }
    }
    return count;
  }

  [[nodiscard]] std::uint32_t ways() const { return ways_; }
  [[nodiscard]] std::uint32_t sets() const { return sets_; }
  [[nodiscard]] const Policy& policy() const { return policy_; }
  [[nodiscard]] std::uint64_t bytes() const {
    return ways_state_.capacity() * sizeof(WayState) + invalid_.capacity() * 8 +
           presence_.capacity();
  }

 private:
  std::uint32_t instances_ = 0;
  std::uint32_t sets_ = 0;
  std::uint32_t ways_ = 0;
  std::uint32_t lines_ = 0;
  std::vector<WayState> ways_state_;
  std::vector<std::uint64_t> invalid_;  // per (instance, set): bit w set = way w invalid
  std::vector<std::uint8_t> presence_;  // [line][instance] -> way or kNoWay
  Policy policy_;
};

}  // namespace memcarlo::sim
