// The replacement-policy contract. A policy keeps per-set metadata for `sets` x `ways` and is a
// template argument of the cache structures (PrivateCaches, SharedCache), so its hooks inline into
// the trial loop (no virtual call per access). Adding a policy: a header in this folder, one line
// in replacement/registry.hpp (the variant and the name table), one test, one README line.
//
// Contract:
//   reset(sets, ways)      called once per launch before any access; the only place that
//                          allocates.
//   view()                 a small copyable handle on the metadata (raw pointers and sizes),
//                          valid until the next reset(). The caches copy it into the trial loop's
//                          locals so that the compiler keeps it in registers instead of reloading
//                          members after every store. Its const hooks:
//     on_fill(set, way)    a line was placed in the invalid way `way` (after a miss).
//     on_hit(set, way)     an access found its line in `way`.
//     replace(set, random) every way of `set` is valid and a line must come in: picks the victim,
//                          records the new line's fill in it (as on_fill would) and returns it.
//                          The cache hands out invalid ways itself before asking, so a policy
//                          never sees them here. One call instead of victim-then-fill lets LRU
//                          and FIFO move their oldest way to the front in one step.
// Hooks are O(1), must not allocate, and may draw from the trial's random stream only in
// replace().
#pragma once

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <bit>
#include <cstdint>
#include <vector>

#include "memcarlo/sim/hot_path.hpp"
#include "memcarlo/sim/random.hpp"

namespace memcarlo::sim::replacement {

/// Per-set recency order of the ways as ranks: rank[set][way] = how many ways of the set were used
/// more recently (0: the most recent, ways - 1: the oldest). A set's row is `ways` bytes padded
/// to a multiple of 16 with kPad, so that the order of a 64-way set is one cache line and SSE2
/// updates 16 ranks per instruction: promoting a way of rank r adds one to every rank below r
/// and makes it 0; the oldest way is the one of rank ways - 1. (A linked list needs fewer
/// instructions per promotion but touches three or four cache lines of a larger table, which is
/// what costs in a shared L2 whose metadata does not fit in the CPU's first-level cache.)
class RecencyRanks {
 public:
  static constexpr std::uint8_t kPad = 0x7F;  // above every rank (signed compare): never moves

  struct View {
    WayIndex* ranks;      // [set][way], rows of `stride`
    std::uint32_t stride;  // ways rounded up to a multiple of 16
    std::uint32_t ways;

    [[nodiscard]] WayIndex* row(std::uint32_t set) const {
      return ranks + std::size_t{set} * stride;
    }

    /// Makes `way` the most recent.
    MEMCARLO_HOT void promote(std::uint32_t set, std::uint32_t way) const {
      WayIndex* ranks_of = row(set);
#if defined(__SSE2__)
      const __m128i rank = _mm_set1_epi8(static_cast<char>(index_of(ranks_of[way])));
      for (std::uint32_t i = 0; i < stride; i += 16) {
        auto* chunk = reinterpret_cast<__m128i*>(ranks_of + i);
        const __m128i before = _mm_loadu_si128(chunk);
        // Ranks below `rank` move one step down: subtracting the all-ones compare mask adds 1.
        _mm_storeu_si128(chunk, _mm_sub_epi8(before, _mm_cmpgt_epi8(rank, before)));
      }
#else
      const std::uint32_t rank = index_of(ranks_of[way]);
      for (std::uint32_t i = 0; i < ways; ++i) {
        const std::uint32_t r = index_of(ranks_of[i]);
        ranks_of[i] = way_index(r < rank ? r + 1 : r);
      }
#endif
      ranks_of[way] = way_index(0);
    }

    /// The least recent way.
    [[nodiscard]] MEMCARLO_HOT std::uint32_t oldest(std::uint32_t set) const {
      const WayIndex* ranks_of = row(set);
#if defined(__SSE2__)
      const __m128i last = _mm_set1_epi8(static_cast<char>(ways - 1));
      for (std::uint32_t i = 0;; i += 16) {
        const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(ranks_of + i));
        const int match = _mm_movemask_epi8(_mm_cmpeq_epi8(chunk, last));
        if (match != 0) {
          return i + static_cast<std::uint32_t>(std::countr_zero(static_cast<unsigned>(match)));
        }
      }
#else
      std::uint32_t way = 0;
      while (index_of(ranks_of[way]) != ways - 1) {
        ++way;
      }
      return way;
#endif
    }

    /// Makes the least recent way the most recent and returns it: in one pass, every other
    /// rank moves one step down and the oldest becomes 0.
    MEMCARLO_HOT std::uint32_t rotate_oldest(std::uint32_t set) const {
#if defined(__SSE2__)
      WayIndex* ranks_of = row(set);
      const __m128i last = _mm_set1_epi8(static_cast<char>(ways - 1));
      std::uint64_t oldest = 0;
      for (std::uint32_t i = 0; i < stride; i += 16) {
        auto* chunk = reinterpret_cast<__m128i*>(ranks_of + i);
        const __m128i before = _mm_loadu_si128(chunk);
        const __m128i is_oldest = _mm_cmpeq_epi8(before, last);
        const __m128i older = _mm_sub_epi8(before, _mm_cmpgt_epi8(last, before));
        _mm_storeu_si128(chunk, _mm_andnot_si128(is_oldest, older));
        oldest |= static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(is_oldest)))
                  << i;
      }
      return static_cast<std::uint32_t>(std::countr_zero(oldest));
#else
      const std::uint32_t way = oldest(set);
      promote(set, way);
      return way;
#endif
    }
  };

  void reset(std::uint32_t sets, std::uint32_t ways) {
    ways_ = ways;
    stride_ = (ways + 15) & ~15u;
    ranks_.resize(std::size_t{sets} * stride_);
    // Initial order 0, 1, ..., ways - 1 from most to least recent.
    for (std::uint32_t set = 0; set < sets; ++set) {
      for (std::uint32_t way = 0; way < stride_; ++way) {
        ranks_[std::size_t{set} * stride_ + way] = way_index(way < ways ? way : kPad);
      }
    }
  }

  View view() { return {ranks_.data(), stride_, ways_}; }

  /// Ways of `set` from most to least recent (for tests).
  [[nodiscard]] std::vector<std::uint32_t> order(std::uint32_t set) const {
    std::vector<std::uint32_t> out(ways_);
    for (std::uint32_t way = 0; way < ways_; ++way) {
      out[index_of(ranks_[std::size_t{set} * stride_ + way])] = way;
    }
    return out;
  }

 private:
  std::uint32_t ways_ = 0;
  std::uint32_t stride_ = 16;
  std::vector<WayIndex> ranks_;
};

}  // namespace memcarlo::sim::replacement
