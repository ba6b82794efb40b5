// Least recently used: hits and fills promote; the oldest way is the victim.
#pragma once

#include "memcarlo/sim/replacement/policy.hpp"

namespace memcarlo::sim::replacement {

class Lru {
 public:
  void reset(std::uint32_t sets, std::uint32_t ways) { recency_.reset(sets, ways); }
  void on_fill(std::uint32_t set, std::uint32_t way) { recency_.promote(set, way); }
  void on_hit(std::uint32_t set, std::uint32_t way) { recency_.promote(set, way); }
  std::uint32_t victim(std::uint32_t set, TrialRandom&) const { return recency_.oldest(set); }
  [[nodiscard]] const RecencyList& recency() const { return recency_; }

 private:
  RecencyList recency_;
};

}  // namespace memcarlo::sim::replacement
