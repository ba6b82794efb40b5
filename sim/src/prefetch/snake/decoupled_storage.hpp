// Snake's decoupled storage (Mostofi et al., MICRO 2023, section 3.2), on the prefetcher's L1
// storage hooks (memcarlo/sim/prefetch/prefetcher.hpp: before_fill, on_fill, on_evict,
// on_prefetch_used): the SM side only tells it what happens in the L1 and frees the ways it
// chooses. A per-set mask of the ways whose prefetched line no demand access used yet tells the
// prefetch side from the demand side; a demand hit on such a line only moves it to the demand
// side. Per set (the engine's L1 is set-associative; the paper's rules are for the whole unified
// cache):
// - while the SM's Snake trains (until it has promoted a stride, for at most `training_cycles`
//   (10) cycles from the SM's first demand fill of the launch: the paper's "until the prefetcher
//   is trained", which "takes an average of 3 cycles (up to 10 cycles)", its "designated
//   10-cycle period" (§3.5), so that a kernel where nothing trains keeps its whole L1), a demand
//   fill that finds `demand_percent` (50) of the set's ways holding demand data replaces one of
//   those;
// - a fill that finds the set full, with unused prefetched lines in it (else plain replacement:
//   there is no side to choose), first frees `free_percent` (25) of its ways by the replacement
//   order from one side: the demand side when more than `transfer_percent` (80) of the
//   prefetched lines that left the SM's prefetch side went to demand (were used rather than
//   evicted unused), else the prefetch side.
// Lines a store or the L2 invalidates are not reported: a mask bit of a way that no longer
// holds a line is ignored (L1Set::held) and cleared by the way's next fill.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "../common.hpp"

namespace memcarlo::sim::prefetch {

inline constexpr KeySpec kSnakeDecoupled{
    "prefetch.snake.decoupled", "boolean", "true",
    "snake: decoupled storage in the L1 (false: prefetched lines replaced as demand ones; with "
    "throttle=false the paper's Snake-DT)"};
inline constexpr KeySpec kSnakeDemandPercent{
    "prefetch.snake.demand_percent", "integer", "50",
    "snake (decoupled): % of a set's ways demand data may hold until the SM's Snake is trained, "
    "1 to 100"};
inline constexpr KeySpec kSnakeTrainingCycles{
    "prefetch.snake.training_cycles", "integer", "10",
    "snake (decoupled): cycles from an SM's first demand fill of the launch during which demand "
    "data keeps to demand_percent of a set unless a stride was promoted first (the paper: "
    "training takes 3 cycles on average, at most 10), 0 to 1000000000"};
inline constexpr KeySpec kSnakeFreePercent{
    "prefetch.snake.free_percent", "integer", "25",
    "snake (decoupled): % of a full set's ways freed (LRU) from one side, 1 to 100"};
inline constexpr KeySpec kSnakeTransferPercent{
    "prefetch.snake.transfer_percent", "integer", "80",
    "snake (decoupled): over this % of prefetched lines used by demand (of those used or "
    "evicted), a full set frees demand ways, else prefetched ones, 0 to 100"};

/// `key`'s value, true or false (a std::invalid_argument naming the key otherwise).
inline bool boolean_key(const HierarchyConfig& config, const KeySpec& key) {
  const std::string value = config.params.text(key);
  if (value == "true") {
    return true;
  }
  if (value == "false") {
    return false;
  }
  throw std::invalid_argument(std::string(key.name) + ": expected true or false; got " + value);
}

class SnakeStorage {
 public:
  explicit SnakeStorage(const HierarchyConfig& config)
      : sets_(config.l1.sets()),
        decoupled_(boolean_key(config, kSnakeDecoupled)),
        demand_percent_(bounded_key(config, kSnakeDemandPercent, 1, 100)),
        training_cycles_(bounded_key(config, kSnakeTrainingCycles, 0, 1000000000)),
        free_percent_(bounded_key(config, kSnakeFreePercent, 1, 100)),
        transfer_percent_(bounded_key(config, kSnakeTransferPercent, 0, 100)) {}

  [[nodiscard]] bool decoupled() const { return decoupled_; }

  void begin_launch(std::uint32_t sm_count) {
    if (!decoupled_) {
      return;  // no hook touches the tables
    }
    training_started_.assign(sm_count, kNotStarted);
    uses_.assign(sm_count, 0);
    evictions_.assign(sm_count, 0);
    prefetched_ways_.assign(std::size_t{sm_count} * sets_, 0);
  }

  /// The victim choice before a fill of `set`; `trained`: the SM's Snake has promoted a stride.
  template <class Evict>
  void before_fill(const L1Set& set, Evict& evict, bool trained) {
    if (!decoupled_) {
      return;
    }
    const std::uint32_t sm = value_of(set.sm);
    const std::uint64_t prefetched = prefetched_ways_[set.index] & set.held;
    const std::uint64_t demanded = set.held & ~prefetched;
    if (set.demand && holds_demand_share(sm, value_of(set.clock), trained) &&
        std::uint64_t(std::popcount(demanded)) * 100 >= std::uint64_t{set.ways} * demand_percent_) {
      evict(demanded & ~set.pinned, 1);
      return;
    }
    if (std::popcount(set.held) < static_cast<int>(set.ways) || prefetched == 0) {
      return;  // room left, or no prefetch side in this set: plain replacement
    }
    // of the prefetched lines the prefetch side gave up so far (used, or evicted unused)
    const bool demand_side = uses_[sm] * 100 > (uses_[sm] + evictions_[sm]) * transfer_percent_;
    std::uint64_t side = (demand_side ? demanded : prefetched) & ~set.pinned;
    if (side == 0) {
      side = (demand_side ? prefetched : demanded) & ~set.pinned;
    }
    evict(side, std::max<std::uint32_t>(1, set.ways * free_percent_ / 100));
  }

  void on_fill(const L1Fill& fill) {
    if (!decoupled_) {
      return;
    }
    evictions_[value_of(fill.way.sm)] += fill.replaced_unused ? 1 : 0;
    const std::uint64_t bit = std::uint64_t{1} << fill.way.way;
    std::uint64_t& ways = prefetched_ways_[fill.way.set];
    ways = fill.prefetch ? ways | bit : ways & ~bit;
  }

  void on_evict(const L1Way& way, bool unused_prefetch) {
    if (!decoupled_) {
      return;
    }
    evictions_[value_of(way.sm)] += unused_prefetch ? 1 : 0;
    prefetched_ways_[way.set] &= ~(std::uint64_t{1} << way.way);
  }

  /// A demand access used the prefetched line: it moves to the demand side (only the bit).
  void on_prefetch_used(const L1Way& way) {
    if (!decoupled_) {
      return;
    }
    ++uses_[value_of(way.sm)];
    prefetched_ways_[way.set] &= ~(std::uint64_t{1} << way.way);
  }

 private:
  /// Whether a demand fill of SM `sm` at `clock` keeps to demand_percent of its set: while the
  /// SM's Snake is untrained and within training_cycles of its first demand fill (the first
  /// call, which starts the period).
  [[nodiscard]] bool holds_demand_share(std::uint32_t sm, std::uint64_t clock, bool trained) {
    if (trained) {
      return false;
    }
    if (training_started_[sm] == kNotStarted) {
      training_started_[sm] = clock;
    }
    return clock - training_started_[sm] < training_cycles_;
  }

  static constexpr std::uint64_t kNotStarted = ~std::uint64_t{0};
  std::uint32_t sets_;  // per SM
  bool decoupled_;
  std::uint32_t demand_percent_;
  std::uint64_t training_cycles_;
  std::uint32_t free_percent_;
  std::uint32_t transfer_percent_;
  std::vector<std::uint64_t> training_started_;  // per SM: its first demand fill's cycle
  std::vector<std::uint64_t> uses_;              // per SM: prefetched lines a demand access used,
  std::vector<std::uint64_t> evictions_;         // and those evicted unused
  std::vector<std::uint64_t> prefetched_ways_;   // per (SM, set): ways of unused prefetched lines
};

}  // namespace memcarlo::sim::prefetch
