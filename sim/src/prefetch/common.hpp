// What the baseline GPU prefetchers share: their keys, a small per-SM table with LRU
// replacement (sized in begin_launch, never grown in on_access), stride training with a
// confirmation count, and the lines of a predicted warp instruction.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "memcarlo/sim/config.hpp"
#include "memcarlo/sim/key_spec.hpp"
#include "memcarlo/sim/prefetch/prefetcher.hpp"

namespace memcarlo::sim::prefetch {

inline constexpr KeySpec kDegree{"prefetch.degree", "integer", "1",
                                 "Prefetchers: instructions (or lines, next-line) prefetched "
                                 "ahead per trigger, 1 to 4"};
inline constexpr KeySpec kDistance{"prefetch.distance", "integer", "1",
                                   "inter-warp, mta, cta-aware: how many warps (CTAs) ahead of "
                                   "the one that triggers the first prefetched one is"};
inline constexpr KeySpec kTableEntries{"prefetch.table_entries", "integer", "32",
                                       "inter-warp, mta, cta-aware: entries per SM of the "
                                       "per-load training table (LRU replacement), 1 to 1024"};
inline constexpr KeySpec kLoadsPerWarp{"prefetch.loads_per_warp", "integer", "8",
                                       "intra-warp, mta: loads each resident warp's stride "
                                       "table remembers (LRU replacement), 1 to 64"};

/// Resident warp slots per SM the per-warp tables have: 64, the most any preset allows (a slot
/// beyond it would share a table modulo 64).
inline constexpr std::uint32_t kWarpTables = 64;

/// Lines one predicted warp instruction may ask for, and the most degree allows: kMaxRequests
/// of every baseline is their product.
inline constexpr std::uint32_t kMaxLinesPerInstruction = 4;
inline constexpr std::uint32_t kMaxDegree = 4;

/// `key`'s value, checked to lie in [low, high] (a std::invalid_argument naming the key; the
/// loader reports it as a ConfigError).
inline std::uint32_t bounded_key(const HierarchyConfig& config, const KeySpec& key,
                                 std::uint64_t low, std::uint64_t high) {
  const std::uint64_t value = config.params.integer(key);
  if (value < low || value > high) {
    throw std::invalid_argument(std::string(key.name) + ": expected an integer from " +
                                std::to_string(low) + " to " + std::to_string(high) + "; got " +
                                std::to_string(value));
  }
  return static_cast<std::uint32_t>(value);
}

/// A table of `Entry` by 64-bit key in `sets` sets (an SM, or an SM's warp) of `entries` each,
/// fully associative within a set, LRU. Linear search: the sets are a few dozen entries, as in
/// the hardware proposals.
template <class Entry>
class LruTable {
 public:
  /// Empties the table and sizes it for `sets` sets of `entries` each (allocates).
  void reset(std::uint32_t sets, std::uint32_t entries) {
    entries_ = entries;
    rows_.assign(std::size_t{sets} * entries, Row{});
    clock_ = 0;
  }

  /// The entry of `key` in set `set`, or null.
  Entry* find(std::uint32_t set, std::uint64_t key) {
    Row* const row = rows_.data() + std::size_t{set} * entries_;
    for (std::uint32_t i = 0; i < entries_; ++i) {
      if (row[i].used && row[i].key == key) {
        row[i].stamp = ++clock_;
        return &row[i].entry;
      }
    }
    return nullptr;
  }

  /// The entry of `key` in set `set`, taking the least recently used one (reset to Entry{})
  /// when the key is new.
  Entry& find_or_insert(std::uint32_t set, std::uint64_t key) {
    if (Entry* found = find(set, key)) {
      return *found;
    }
    Row* const row = rows_.data() + std::size_t{set} * entries_;
    Row* victim = row;
    for (std::uint32_t i = 0; i < entries_; ++i) {
      if (!row[i].used) {
        victim = &row[i];
        break;
      }
      if (row[i].stamp < victim->stamp) {
        victim = &row[i];
      }
    }
    *victim = Row{key, ++clock_, true, Entry{}};
    return victim->entry;
  }

 private:
  struct Row {
    std::uint64_t key = 0;
    std::uint64_t stamp = 0;
    bool used = false;
    Entry entry{};
  };
  std::vector<Row> rows_;
  std::uint32_t entries_ = 0;
  std::uint64_t clock_ = 0;
};

/// A stride and how many times in a row it was seen; trained once seen twice (three addresses
/// in arithmetic progression), as the baselines' confirmation rule.
struct StrideTrainer {
  std::int64_t stride = 0;
  std::uint32_t seen = 0;

  void observe(std::int64_t delta) {
    if (seen > 0 && delta == stride) {
      ++seen;
    } else {
      stride = delta;
      seen = 1;
    }
  }
  [[nodiscard]] bool trained() const { return seen >= 2 && stride != 0; }
};

/// Asks `sink` for the L1 lines of a warp instruction predicted to start at `base` with the
/// lanes of `access` (a uniform lane stride spans 32 lanes; otherwise only base's line), at most
/// kMaxLinesPerInstruction of them, from the lowest address up.
template <class Sink>
void prefetch_instruction(Sink& sink, std::uint64_t base, const L1Access& access,
                          std::uint32_t line_bytes) {
  std::uint64_t low = base;
  std::uint64_t high = base;
  if (access.uniform_stride) {
    const std::int64_t span = std::int64_t{access.lane_stride} * 31;
    (span >= 0 ? high : low) = base + static_cast<std::uint64_t>(span);
  }
  const std::uint64_t first = low / line_bytes;
  const std::uint64_t last = std::min(high / line_bytes, first + kMaxLinesPerInstruction - 1);
  for (std::uint64_t line = first; line <= last; ++line) {
    sink.prefetch(ByteAddress{line * line_bytes});
  }
}

/// `base` moved by `stride` * `times` (wrapping: an address below 0 wraps and is prefetched as
/// an untraced line, as hardware would send it).
inline std::uint64_t advance(std::uint64_t base, std::int64_t stride, std::int64_t times) {
  return base + static_cast<std::uint64_t>(stride * times);
}

}  // namespace memcarlo::sim::prefetch
