// Set-associative storage for `instances` identical caches (the SMs' L1s, or one L2), with a
// presence map from dense line id to way so that a lookup is one load whatever the
// associativity. Sector valid/dirty masks and a fill time per way support sectored caches and
// in-flight (MSHR) hits. The replacement policy is a template argument (no per-access dispatch).
//
// Hot path note: the arrays are reached through raw pointers cached in members; byte stores
// through a std::vector would otherwise force the compiler to reload every vector's data pointer
// after each store (uint8_t aliases everything).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "memcarlo/sim/random.hpp"

namespace memcarlo::sim {

inline constexpr std::uint8_t kNoWay = 0xFF;
inline constexpr std::uint32_t kNoLine = 0xFFFFFFFF;
inline constexpr std::uint64_t kPendingFill = std::numeric_limits<std::uint64_t>::max();

struct WayState {
  std::uint32_t line = kNoLine;
  std::uint8_t valid = 0;    // sector mask
  std::uint8_t dirty = 0;    // sector mask
  std::uint8_t written = 0;  // sector mask: brought in or written by a store (L2 write activation)
  std::uint8_t reserved = 0;
  std::uint64_t fill_time = 0;  // when the last requested sectors arrive; kPendingFill: unknown
};

template <class Policy>
class CacheArray {
 public:
  using policy_type = Policy;

  CacheArray() = default;
  CacheArray(const CacheArray&) = delete;  // holds raw views into its own vectors
  CacheArray& operator=(const CacheArray&) = delete;

  struct Eviction {
    std::uint32_t way;
    std::uint32_t evicted_line;  // kNoLine when the way was invalid
    std::uint8_t evicted_dirty;
  };

  /// Sizes everything for `lines` dense line ids; allocates only when sizes grow.
  void reset(std::uint32_t instances, std::uint32_t sets, std::uint32_t ways, std::uint32_t lines,
             const Policy& policy) {
    instances_ = instances;
    stride_ = (instances + 15) & ~15u;  // presence rows padded for 16-byte scans
    sets_ = sets;
    ways_ = ways;
    ways_state_.assign(std::size_t{instances} * sets * ways, WayState{});
    invalid_.assign(std::size_t{instances} * sets,
                    ways == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << ways) - 1);
    presence_.assign(std::size_t{lines} * stride_, kNoWay);
    state_ = ways_state_.data();
    invalid_mask_ = invalid_.data();
    present_ = presence_.data();
    policy_ = policy;
    policy_.reset(instances * sets, ways);
  }

  /// Way of `line` in `instance`, or kNoWay.
  [[nodiscard]] std::uint8_t lookup(std::uint32_t instance, std::uint32_t line) const {
    return present_[std::size_t{line} * stride_ + instance];
  }

  WayState& way(std::uint32_t instance, std::uint32_t set, std::uint32_t way) {
    return state_[(std::size_t{instance} * sets_ + set) * ways_ + way];
  }

  void touch(std::uint32_t instance, std::uint32_t set, std::uint32_t way) {
    policy_.on_hit(instance * sets_ + set, way);
  }

  /// Places `line` in `set` of `instance`: an invalid way if any, else the policy's victim.
  Eviction fill(std::uint32_t instance, std::uint32_t set, std::uint32_t line,
                TrialRandom& random) {
    const std::uint32_t global_set = instance * sets_ + set;
    std::uint64_t invalid = invalid_mask_[global_set];
    std::uint32_t chosen;
    if (invalid != 0) {
      chosen = static_cast<std::uint32_t>(std::countr_zero(invalid));
      invalid_mask_[global_set] = invalid & (invalid - 1);
    } else {
      chosen = policy_.victim(global_set, random);
    }
    WayState* state = state_ + std::size_t{global_set} * ways_ + chosen;
    const Eviction eviction{chosen, state->line, state->dirty};
    if (eviction.evicted_line != kNoLine) {
      present_[std::size_t{eviction.evicted_line} * stride_ + instance] = kNoWay;
    }
    *state = WayState{line, 0, 0, 0, 0, 0};
    present_[std::size_t{line} * stride_ + instance] = static_cast<std::uint8_t>(chosen);
    policy_.on_fill(global_set, chosen);
    return eviction;
  }

  /// Drops `line` from `instance` if present; returns whether it was.
  bool invalidate(std::uint32_t instance, std::uint32_t set, std::uint32_t line) {
    std::uint8_t* slot = present_ + std::size_t{line} * stride_ + instance;
    const std::uint8_t way = *slot;
    if (way == kNoWay) {
      return false;
    }
    const std::uint32_t global_set = instance * sets_ + set;
    state_[std::size_t{global_set} * ways_ + way] = WayState{};
    invalid_mask_[global_set] |= std::uint64_t{1} << way;
    *slot = kNoWay;
    return true;
  }

  /// Invalidates `line` in every instance (inclusive back-invalidation); returns how many held it.
  std::uint32_t invalidate_everywhere(std::uint32_t set, std::uint32_t line) {
    std::uint32_t count = 0;
    const std::uint8_t* row = present_ + std::size_t{line} * stride_;
    for (std::uint32_t base = 0; base < stride_; base += 16) {
      std::uint32_t holders = holders_in_16(row + base);
      while (holders != 0) {
        const std::uint32_t instance = base + static_cast<std::uint32_t>(std::countr_zero(holders));
        holders &= holders - 1;
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
  /// Bit i set: byte i of the 16 at `p` is a way (not kNoWay). Padding bytes are kNoWay.
  static std::uint32_t holders_in_16(const std::uint8_t* p) {
#if defined(__SSE2__)
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i absent = _mm_cmpeq_epi8(bytes, _mm_set1_epi8(static_cast<char>(kNoWay)));
    return ~static_cast<std::uint32_t>(_mm_movemask_epi8(absent)) & 0xFFFFu;
#else
    std::uint32_t mask = 0;
    for (int i = 0; i < 16; ++i) {
      mask |= (p[i] != kNoWay ? 1u : 0u) << i;
    }
    return mask;
#endif
  }

  std::uint32_t instances_ = 0;
  std::uint32_t stride_ = 0;
  std::uint32_t sets_ = 0;
  std::uint32_t ways_ = 0;
  std::vector<WayState> ways_state_;
  std::vector<std::uint64_t> invalid_;  // per (instance, set): bit w set = way w invalid
  std::vector<std::uint8_t> presence_;  // [line][instance] -> way or kNoWay, rows of stride_
  WayState* state_ = nullptr;
  std::uint64_t* invalid_mask_ = nullptr;
  std::uint8_t* present_ = nullptr;
  Policy policy_;
};

}  // namespace memcarlo::sim
