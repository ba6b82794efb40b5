// The SMs' private caches (the L1s) as one structure: per (SM, set) a row of 32-bit line tags
// compared four at a time with SSE2, per way a sector mask and a fill time (in-flight hits), and
// a flags byte (prefetched, pinned), per line a bitmask of the SMs whose L1 holds it (in the LineTable). The holder bits make the
// common case, a miss, one load of 2 bytes per line (per 16 SMs), and make inclusive
// back-invalidation cheap; only a hit scans a tag row. The replacement policy is a template
// argument.
#pragma once

#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "memcarlo/sim/hot_path.hpp"
#include "memcarlo/sim/line_table.hpp"
#include "memcarlo/sim/random.hpp"

namespace memcarlo::sim {

inline constexpr std::uint32_t kNoLine = 0xFFFFFFFF;
inline constexpr std::uint64_t kPendingFill = std::numeric_limits<std::uint64_t>::max();

/// Where one cache instance's bit lives in a line's holder words.
struct Holder {
  std::uint32_t word;
  std::uint16_t bit;
};

/// Per-way flags of a private cache.
enum class WayFlags : std::uint8_t {};
inline constexpr std::uint32_t kPrefetchedWay = 1;  // filled by a GPU prefetch, not yet used
inline constexpr std::uint32_t kPinnedWay = 2;      // replacement must not pick it

constexpr std::uint32_t bits_of(WayFlags flags) { return static_cast<std::uint32_t>(flags); }
constexpr WayFlags way_flags(std::uint32_t bits) { return static_cast<WayFlags>(bits); }

/// Per (instance, set): which ways are invalid (handed out first) and which are pinned
/// (excluded from replacement). Side by side, so a fill reads both from one CPU cache line.
struct SetMasks {
  std::uint64_t invalid;
  std::uint64_t pinned;
};

inline constexpr std::size_t kNoCell = ~std::size_t{0};

/// The policy-free part of the private caches' working handle: raw pointers and sizes, valid
/// until the next reset(). Hot loops copy it into a local so that the compiler keeps it in
/// registers (members of a class reached through a reference would be reloaded after every
/// store the compiler cannot tell apart from them). A way of one instance's set is a cell,
/// addressed as row(instance, set) + way ("slot" is kept for resident warps and blocks).
struct PrivateCacheView {
  std::uint32_t* tags;        // [instance][set][way]: line id or kNoLine
  SectorMask* valid;          // per cell: valid sectors
  std::uint64_t* fill_time;   // per cell: when the last requested sectors arrive
  WayFlags* flags;            // per cell
  SetMasks* masks;            // per (instance, set)
  std::uint16_t* holders;     // LineTable records: [line * line_stride + word]
  std::uint32_t line_stride;
  std::uint32_t words;        // holder words per line
  std::uint32_t sets;
  std::uint32_t row_stride;   // ways rounded up to a multiple of 4 (padding holds kNoLine)

  [[nodiscard]] static Holder holder(std::uint32_t instance) {
    return {instance / 16, static_cast<std::uint16_t>(1u << (instance % 16))};
  }
  /// Holder words per line for `instances` caches (the LineTable's holder_words).
  [[nodiscard]] static std::uint32_t holder_words(std::uint32_t instances) {
    return (instances + 15) / 16;
  }
  [[nodiscard]] MEMCARLO_HOT bool holds(Holder h, std::uint32_t line) const {
    return (holders[std::size_t{line} * line_stride + h.word] & h.bit) != 0;
  }
  [[nodiscard]] MEMCARLO_HOT bool held_anywhere(std::uint32_t line) const {
    const std::uint16_t* record = holders + std::size_t{line} * line_stride;
    if (words == 1) {
      return record[0] != 0;
    }
    std::uint32_t any = 0;
    for (std::uint32_t word = 0; word < words; ++word) {
      any |= record[word];
    }
    return any != 0;
  }
  [[nodiscard]] MEMCARLO_HOT std::uint32_t policy_set(std::uint32_t instance, std::uint32_t set) const {
    return instance * sets + set;
  }
  /// The cell of (instance, set)'s way 0.
  [[nodiscard]] MEMCARLO_HOT std::size_t row(std::uint32_t instance, std::uint32_t set) const {
    return std::size_t{policy_set(instance, set)} * row_stride;
  }

  /// Way of `line` in the row at `base`, which must hold it.
  [[nodiscard]] MEMCARLO_HOT std::uint32_t find(std::size_t base, std::uint32_t line) const {
    const std::uint32_t* row_tags = tags + base;
#if defined(__SSE2__)
    const __m128i wanted = _mm_set1_epi32(static_cast<int>(line));
    for (std::uint32_t way = 0;; way += 4) {
      const __m128i four = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row_tags + way));
      const int match = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(four, wanted)));
      if (match != 0) {
        return way + static_cast<std::uint32_t>(std::countr_zero(static_cast<unsigned>(match)));
      }
    }
#else
    std::uint32_t way = 0;
    while (row_tags[way] != line) {
      ++way;
    }
    return way;
#endif
  }

  /// Way of `line` in `instance`'s set `set`, or kNoWay.
  [[nodiscard]] std::uint32_t lookup(std::uint32_t instance, std::uint32_t set,
                                     std::uint32_t line) const {
    return holds(holder(instance), line) ? find(row(instance, set), line) : kNoWay;
  }

  /// Excludes (instance, set, way) from replacement, or lets replacement pick it again. The way
  /// must hold a line; invalidating it unpins it.
  void pin(std::uint32_t instance, std::uint32_t set, std::uint32_t way, bool pinned) const {
    const std::uint32_t global_set = policy_set(instance, set);
    const std::size_t cell = std::size_t{global_set} * row_stride + way;
    const std::uint64_t bit = std::uint64_t{1} << way;
    masks[global_set].pinned = pinned ? masks[global_set].pinned | bit
                                      : masks[global_set].pinned & ~bit;
    flags[cell] = way_flags(pinned ? bits_of(flags[cell]) | kPinnedWay
                                   : bits_of(flags[cell]) & ~kPinnedWay);
  }

  /// Drops the line in (instance, set, way).
  void invalidate_way(std::uint32_t instance, std::uint32_t set, std::uint32_t way) const {
    const std::uint32_t global_set = policy_set(instance, set);
    const std::size_t cell = std::size_t{global_set} * row_stride + way;
    const Holder h = holder(instance);
    holders[std::size_t{tags[cell]} * line_stride + h.word] &=
        static_cast<std::uint16_t>(~h.bit);
    tags[cell] = kNoLine;
    valid[cell] = SectorMask{};
    fill_time[cell] = 0;
    flags[cell] = WayFlags{};
    masks[global_set].invalid |= std::uint64_t{1} << way;
    masks[global_set].pinned &= ~(std::uint64_t{1} << way);
  }

  /// Invalidates `line` (of set `set`) in every instance (inclusive back-invalidation);
  /// returns how many held it.
  std::uint32_t invalidate_everywhere(std::uint32_t set, std::uint32_t line) const {
    std::uint32_t count = 0;
    for (std::uint32_t word = 0; word < words; ++word) {
      for (std::uint32_t held = holders[std::size_t{line} * line_stride + word]; held != 0;
           held &= held - 1) {
        const std::uint32_t instance =
            word * 16 + static_cast<std::uint32_t>(std::countr_zero(held));
        invalidate_way(instance, set, find(row(instance, set), line));
        ++count;
      }
    }
    return count;
  }
};

template <class Policy>
class PrivateCaches {
 public:
  using policy_type = Policy;

  /// The working handle with the replacement policy's hooks.
  struct View : PrivateCacheView {
    typename Policy::View policy;

    MEMCARLO_HOT void touch(std::uint32_t instance, std::uint32_t set, std::uint32_t way) const {
      policy.on_hit(policy_set(instance, set), way);
    }

    /// Places `line` in (instance, set): an invalid way if any, else the policy's victim among
    /// the unpinned ways, whose line leaves. The way's sector mask and fill time are the
    /// caller's to set; its flags are cleared. Returns its cell, or kNoCell when every way is
    /// pinned (the line is not cached). With kNoteEvicted, *evicted_flags gets the flags of the
    /// line that left (none when the way was invalid). Without kPins (no L1 layer that pins:
    /// l1_layer.hpp) the set's pinned mask is not read: it is empty.
    template <bool kNoteEvicted = false, bool kPins = true>
    MEMCARLO_HOT std::size_t fill(std::uint32_t instance, std::uint32_t set, std::uint32_t line,
                                  Holder h, RandomStream& random,
                                  WayFlags* evicted_flags = nullptr) const {
      const std::uint32_t global_set = policy_set(instance, set);
      const SetMasks set_masks = masks[global_set];
      std::uint32_t way;
      if (set_masks.invalid != 0) [[unlikely]] {
        way = static_cast<std::uint32_t>(std::countr_zero(set_masks.invalid));
        masks[global_set].invalid = set_masks.invalid & (set_masks.invalid - 1);
        policy.on_fill(global_set, way);
      } else if (kPins && set_masks.pinned != 0) [[unlikely]] {
        way = policy.replace_excluding(global_set, set_masks.pinned, random);
        if (way == kNoWay) {
          return kNoCell;
        }
      } else {
        way = policy.replace(global_set, random);
      }
      const std::size_t cell = std::size_t{global_set} * row_stride + way;
      const std::uint32_t evicted = tags[cell];
      if (evicted != kNoLine) {
        holders[std::size_t{evicted} * line_stride + h.word] &= static_cast<std::uint16_t>(~h.bit);
      }
      if constexpr (kNoteEvicted) {
        *evicted_flags = evicted != kNoLine ? flags[cell] : WayFlags{};
      }
      tags[cell] = line;
      flags[cell] = WayFlags{};
      holders[std::size_t{line} * line_stride + h.word] |= h.bit;
      return cell;
    }
  };

  PrivateCaches() = default;
  /// Ways of all instances (valid after reset).
  [[nodiscard]] std::size_t cells() const { return flags_.size(); }
  PrivateCaches(const PrivateCaches&) = delete;  // views point into its vectors
  PrivateCaches& operator=(const PrivateCaches&) = delete;

  /// Sizes everything; `lines` was reset for PrivateCacheView::holder_words(instances).
  /// Allocates only when sizes grow.
  void reset(std::uint32_t instances, std::uint32_t sets, std::uint32_t ways, LineTable& lines,
             const Policy& policy) {
    policy_ = policy;
    reset(instances, sets, ways, lines);
  }
  /// As above, with the policy set_policy gave (a default-constructed one if none).
  void reset(std::uint32_t instances, std::uint32_t sets, std::uint32_t ways, LineTable& lines) {
    sets_ = sets;
    row_ = (ways + 3) & ~3u;
    const std::size_t cells = std::size_t{instances} * sets * row_;
    tags_.assign(cells, kNoLine);
    valid_.assign(cells, SectorMask{});
    fill_time_.assign(cells, 0);
    flags_.assign(cells, WayFlags{});
    masks_.assign(std::size_t{instances} * sets,
                  SetMasks{ways == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << ways) - 1, 0});
    lines_ = &lines;
    policy_.reset(instances * sets, ways);
  }
  /// The policy the next reset() starts (its parameters; its state is reset then).
  void set_policy(Policy policy) { policy_ = std::move(policy); }

  /// Valid after reset(); before it (an L1 that is disabled), a view on nothing.
  View view() {
    if (lines_ == nullptr) {
      return {{nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, 0, 0, 0, 0}, policy_.view()};
    }
    return {{tags_.data(), valid_.data(), fill_time_.data(), flags_.data(), masks_.data(),
             lines_->records(), lines_->stride(), lines_->holder_words(), sets_, row_},
            policy_.view()};
  }

  [[nodiscard]] const Policy& policy() const { return policy_; }
  [[nodiscard]] std::uint64_t bytes() const {
    return tags_.capacity() * 4 + valid_.capacity() + fill_time_.capacity() * 8 +
           flags_.capacity() + masks_.capacity() * sizeof(SetMasks);
  }

 private:
  std::uint32_t sets_ = 0;
  std::uint32_t row_ = 0;
  std::vector<std::uint32_t> tags_;
  std::vector<SectorMask> valid_;
  std::vector<std::uint64_t> fill_time_;
  std::vector<WayFlags> flags_;
  std::vector<SetMasks> masks_;
  LineTable* lines_ = nullptr;
  Policy policy_;
};

}  // namespace memcarlo::sim
