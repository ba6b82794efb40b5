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
    links_.assign(std::size_t{sets} * ways, Link{});
    ends_.assign(sets, Ends{});
    for (std::uint32_t set = 0; set < sets; ++set) {
      Link* link = links_.data() + std::size_t{set} * ways;
      for (std::uint32_t way = 0; way < ways; ++way) {
        link[way].previous = static_cast<std::uint8_t>(way == 0 ? 0 : way - 1);
        link[way].next = static_cast<std::uint8_t>(way + 1 == ways ? way : way + 1);
      }
      ends_[set] = {0, static_cast<std::uint8_t>(ways - 1)};
    }
    link_ = links_.data();
    end_ = ends_.data();
  }

  /// Makes `way` the most recent. Convention: previous[head] = head, next[tail] = tail.
  void promote(std::uint32_t set, std::uint32_t way) {
    Ends ends = end_[set];
    if (ends.head == way) {
      return;
    }
    Link* link = link_ + std::size_t{set} * ways_;
    const Link moved = link[way];  // moved.previous is valid: `way` is not the head
    if (ends.tail == way) {
      ends.tail = moved.previous;
      link[moved.previous].next = moved.previous;
    } else {
      link[moved.previous].next = moved.next;
      link[moved.next].previous = moved.previous;
    }
    link[ends.head].previous = static_cast<std::uint8_t>(way);
    link[way] = {static_cast<std::uint8_t>(way), ends.head};
    ends.head = static_cast<std::uint8_t>(way);
    end_[set] = ends;
  }

  [[nodiscard]] std::uint32_t oldest(std::uint32_t set) const { return end_[set].tail; }

  /// Ways of `set` from most to least recent (for tests).
  [[nodiscard]] std::vector<std::uint32_t> order(std::uint32_t set) const {
    std::vector<std::uint32_t> out;
    const Link* link = link_ + std::size_t{set} * ways_;
    std::uint32_t way = end_[set].head;
    for (std::uint32_t i = 0; i < ways_; ++i) {
      out.push_back(way);
      way = link[way].next;
    }
    return out;
  }

  RecencyList() = default;
  RecencyList(const RecencyList& other) { *this = other; }
  RecencyList& operator=(const RecencyList& other) {
    ways_ = other.ways_;
    links_ = other.links_;
    ends_ = other.ends_;
    link_ = links_.data();
    end_ = ends_.data();
    return *this;
  }

 private:
  struct Link {
    std::uint8_t previous = 0;
    std::uint8_t next = 0;
  };
  struct Ends {
    std::uint8_t head = 0;
    std::uint8_t tail = 0;
  };
  std::uint32_t ways_ = 0;
  std::vector<Link> links_;
  std::vector<Ends> ends_;
  Link* link_ = nullptr;  // raw views: byte stores through a vector would defeat optimisation
  Ends* end_ = nullptr;
};

}  // namespace memcarlo::sim::replacement
