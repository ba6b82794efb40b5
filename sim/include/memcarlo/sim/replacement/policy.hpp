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
//     replace_excluding(set, excluded, random)
//                          as replace(), but never picks a way whose bit is set in `excluded`
//                          (pinned ways); kNoWay when every way is excluded (then nothing is
//                          recorded). Only called when some way of the set is excluded, so it
//                          may cost O(ways).
// Hooks must not allocate, and may draw from the replacement stream only in replace() and
// replace_excluding().
#pragma once

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <bit>
#include <cstddef>
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
    WayIndex* ranks;       // [set][way], rows of `stride`, from a 64-byte boundary
    std::uint32_t stride;  // ways rounded up to a multiple of 16
    std::uint32_t ways;

    [[nodiscard]] WayIndex* row(std::uint32_t set) const {
      return ranks + std::size_t{set} * stride;
    }

    /// Makes `way` the most recent.
    MEMCARLO_HOT void promote(std::uint32_t set, std::uint32_t way) const {
      WayIndex* ranks_of = row(set);
#if defined(__SSE2__)
      // The common row sizes get a loop of known length, which the compiler unrolls.
      switch (stride) {
        case 16: promote_row<1>(ranks_of, way); break;
        case 32: promote_row<2>(ranks_of, way); break;
        case 64: promote_row<4>(ranks_of, way); break;
        default: promote_row<0>(ranks_of, way); break;
      }
#else
      const std::uint32_t rank = index_of(ranks_of[way]);
      for (std::uint32_t i = 0; i < ways; ++i) {
        const std::uint32_t r = index_of(ranks_of[i]);
        ranks_of[i] = way_index(r < rank ? r + 1 : r);
      }
      ranks_of[way] = way_index(0);
#endif
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

    /// The least recent way whose bit is clear in `excluded`, made the most recent; kNoWay when
    /// every way is excluded.
    std::uint32_t rotate_oldest_excluding(std::uint32_t set, std::uint64_t excluded) const {
      const WayIndex* ranks_of = row(set);
      std::uint32_t chosen = kNoWay;
      std::uint32_t oldest_rank = 0;
      for (std::uint32_t way = 0; way < ways; ++way) {
        const std::uint32_t rank = index_of(ranks_of[way]);
        if ((excluded >> way & 1) == 0 && (chosen == kNoWay || rank > oldest_rank)) {
          chosen = way;
          oldest_rank = rank;
        }
      }
      if (chosen != kNoWay) {
        promote(set, chosen);
      }
      return chosen;
    }

    /// Makes the least recent way the most recent and returns it: in one pass, every other
    /// rank moves one step down and the oldest becomes 0.
    MEMCARLO_HOT std::uint32_t rotate_oldest(std::uint32_t set) const {
#if defined(__SSE2__)
      WayIndex* ranks_of = row(set);
      // Rows without padding (ways a multiple of 16) need no compare to keep the padding still.
      switch (ways) {
        case 16: return rotate_row<1, false>(ranks_of);
        case 32: return rotate_row<2, false>(ranks_of);
        case 64: return rotate_row<4, false>(ranks_of);
        default: return rotate_row<0, true>(ranks_of);
      }
#else
      const std::uint32_t way = oldest(set);
      promote(set, way);
      return way;
#endif
    }

#if defined(__SSE2__)
   private:
    /// promote() on a row of `Chunks` x 16 ranks (0: stride / 16, known at run time only).
    template <std::uint32_t Chunks>
    MEMCARLO_HOT void promote_row(WayIndex* ranks_of, std::uint32_t way) const {
      const std::uint32_t length = Chunks == 0 ? stride : Chunks * 16;
      const __m128i rank = _mm_set1_epi8(static_cast<char>(index_of(ranks_of[way])));
      for (std::uint32_t i = 0; i < length; i += 16) {
        auto* chunk = reinterpret_cast<__m128i*>(ranks_of + i);
        const __m128i before = _mm_loadu_si128(chunk);
        // Ranks below `rank` move one step down: subtracting the all-ones compare mask adds 1.
        _mm_storeu_si128(chunk, _mm_sub_epi8(before, _mm_cmpgt_epi8(rank, before)));
      }
      ranks_of[way] = way_index(0);
    }

    /// rotate_oldest() on a row of `Chunks` x 16 ranks (0: stride / 16). Without padding every
    /// rank but the oldest is below ways - 1, so all of them move down by one.
    template <std::uint32_t Chunks, bool Padded>
    MEMCARLO_HOT std::uint32_t rotate_row(WayIndex* ranks_of) const {
      const std::uint32_t length = Chunks == 0 ? stride : Chunks * 16;
      const __m128i last = _mm_set1_epi8(static_cast<char>(ways - 1));
      const __m128i all_ones = _mm_set1_epi8(-1);
      std::uint64_t oldest = 0;
      for (std::uint32_t i = 0; i < length; i += 16) {
        auto* chunk = reinterpret_cast<__m128i*>(ranks_of + i);
        const __m128i before = _mm_loadu_si128(chunk);
        const __m128i is_oldest = _mm_cmpeq_epi8(before, last);
        const __m128i older =
            _mm_sub_epi8(before, Padded ? _mm_cmpgt_epi8(last, before) : all_ones);
        _mm_storeu_si128(chunk, _mm_andnot_si128(is_oldest, older));
        oldest |= static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(is_oldest)))
                  << i;
      }
      return static_cast<std::uint32_t>(std::countr_zero(oldest));
    }
#endif
  };

  void reset(std::uint32_t sets, std::uint32_t ways) {
    ways_ = ways;
    stride_ = (ways + 15) & ~15u;
    // Room to start the first row on a 64-byte boundary, so that no 64-way row spans two cache
    // lines.
    storage_.resize(std::size_t{sets} * stride_ + kAlignment);
    const auto address = reinterpret_cast<std::uintptr_t>(storage_.data());
    offset_ = (kAlignment - address % kAlignment) % kAlignment;
    WayIndex* ranks = storage_.data() + offset_;
    // Initial order 0, 1, ..., ways - 1 from most to least recent.
    for (std::uint32_t set = 0; set < sets; ++set) {
      for (std::uint32_t way = 0; way < stride_; ++way) {
        ranks[std::size_t{set} * stride_ + way] = way_index(way < ways ? way : kPad);
      }
    }
  }

  View view() { return {storage_.data() + offset_, stride_, ways_}; }

  /// Ways of `set` from most to least recent (for tests).
  [[nodiscard]] std::vector<std::uint32_t> order(std::uint32_t set) const {
    std::vector<std::uint32_t> out(ways_);
    const WayIndex* ranks = storage_.data() + offset_;
    for (std::uint32_t way = 0; way < ways_; ++way) {
      out[index_of(ranks[std::size_t{set} * stride_ + way])] = way;
    }
    return out;
  }

 private:
  static constexpr std::size_t kAlignment = 64;

  std::uint32_t ways_ = 0;
  std::uint32_t stride_ = 16;
  std::size_t offset_ = 0;
  std::vector<WayIndex> storage_;
};

}  // namespace memcarlo::sim::replacement
