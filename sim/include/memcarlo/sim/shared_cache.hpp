// The shared cache (the L2): set-associative, with a presence map from line to way (in the
// LineTable), so a lookup is one load whatever the associativity, and per way the sector masks
// the L2 write semantics need. The replacement policy is a template argument (no per-access
// dispatch). An L2 line id is its L1 line's id times the L2 lines per L1 line, plus its part.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

#include "memcarlo/sim/hot_path.hpp"
#include "memcarlo/sim/line_table.hpp"
#include "memcarlo/sim/private_caches.hpp"
#include "memcarlo/sim/random.hpp"

namespace memcarlo::sim {

struct SharedWay {
  std::uint32_t line = kNoLine;
  SectorMask valid{};
  SectorMask dirty{};
  SectorMask written{};  // brought in or written by a store (write activation)
  SectorMask reserved{};
};
static_assert(sizeof(SharedWay) == 8);

template <class Policy>
class SharedCache {
 public:
  using policy_type = Policy;

  /// The working handle (see PrivateCaches::View): raw pointers and sizes, valid until the next
  /// reset(), meant to live in a hot loop's locals.
  struct View {
    SharedWay* state;         // [set][way]
    std::uint64_t* invalid;   // per set: bit w set = way w invalid
    std::uint16_t* presence;  // LineTable ways: [(id >> part_shift) * line_stride + part]
    std::uint32_t line_stride;
    std::uint32_t holder_words;  // line_stride minus the parts
    std::uint32_t part_shift;
    std::uint32_t ways;
    typename Policy::View policy;

    /// The presence entry of L2 line `id`: its way or kNoWay. With id = line x parts + part,
    /// line x line_stride + part = id + line x holder_words.
    [[nodiscard]] MEMCARLO_HOT std::uint16_t& way_of(std::uint32_t id) const {
      return presence[id + std::size_t{id >> part_shift} * holder_words];
    }
    /// The presence entries of the L2 lines of L1 line `line`, one per part.
    [[nodiscard]] MEMCARLO_HOT std::uint16_t* ways_of_line(std::uint32_t line) const {
      return presence + std::size_t{line} * line_stride;
    }
    /// Way of L2 line `id`, or kNoWay.
    [[nodiscard]] MEMCARLO_HOT std::uint32_t lookup(std::uint32_t id) const { return way_of(id); }
    /// The ways of `set`.
    [[nodiscard]] MEMCARLO_HOT SharedWay* row(std::uint32_t set) const {
      return state + std::size_t{set} * ways;
    }
    MEMCARLO_HOT void touch(std::uint32_t set, std::uint32_t way) const { policy.on_hit(set, way); }

    /// Places `line` in `set`: an invalid way if any, else the policy's victim, whose line
    /// leaves after `evicted(line, dirty sector bits)` has seen it. Returns the way, its masks
    /// empty.
    template <class OnEviction>
    MEMCARLO_HOT SharedWay& fill(std::uint32_t set, std::uint32_t line, RandomStream& random,
                    OnEviction&& evicted) const {
      const std::uint64_t available = invalid[set];
      std::uint32_t chosen;
      if (available != 0) [[unlikely]] {
        chosen = static_cast<std::uint32_t>(std::countr_zero(available));
        invalid[set] = available & (available - 1);
        policy.on_fill(set, chosen);
      } else {
        chosen = policy.replace(set, random);
      }
      SharedWay& way = row(set)[chosen];
      if (way.line != kNoLine) {
        way_of(way.line) = static_cast<std::uint16_t>(kNoWay);
        evicted(way.line, bits_of(way.dirty));
      }
      way = SharedWay{line, {}, {}, {}, {}};
      way_of(line) = static_cast<std::uint16_t>(chosen);
      return way;
    }
  };

  SharedCache() = default;
  SharedCache(const SharedCache&) = delete;  // views point into its vectors
  SharedCache& operator=(const SharedCache&) = delete;

  /// Sizes everything; `lines` holds 2^part_shift L2 ways per record. Allocates only when sizes
  /// grow.
  void reset(std::uint32_t sets, std::uint32_t ways, LineTable& lines, std::uint32_t part_shift,
             const Policy& policy) {
    policy_ = policy;
    reset(sets, ways, lines, part_shift);
  }
  /// As above, with the policy set_policy gave (a default-constructed one if none).
  void reset(std::uint32_t sets, std::uint32_t ways, LineTable& lines, std::uint32_t part_shift) {
    ways_ = ways;
    part_shift_ = part_shift;
    ways_state_.assign(std::size_t{sets} * ways, SharedWay{});
    invalid_.assign(sets, ways == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << ways) - 1);
    lines_ = &lines;
    policy_.reset(sets, ways);
  }
  /// The policy the next reset() starts (its parameters; its state is reset then).
  void set_policy(Policy policy) { policy_ = std::move(policy); }

  View view() {
    return {ways_state_.data(),
            invalid_.data(),
            lines_->records() + lines_->holder_words(),
            lines_->stride(),
            lines_->holder_words(),
            part_shift_,
            ways_,
            policy_.view()};
  }

  [[nodiscard]] const Policy& policy() const { return policy_; }
  [[nodiscard]] std::uint64_t bytes() const {
    return ways_state_.capacity() * sizeof(SharedWay) + invalid_.capacity() * 8;
  }

 private:
  std::uint32_t ways_ = 0;
  std::uint32_t part_shift_ = 0;
  std::vector<SharedWay> ways_state_;
  std::vector<std::uint64_t> invalid_;
  LineTable* lines_ = nullptr;
  Policy policy_;
};

}  // namespace memcarlo::sim
