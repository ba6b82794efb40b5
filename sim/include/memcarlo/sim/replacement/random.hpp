// Random replacement: the victim is drawn uniformly from the set's ways (from the trial's stream,
// so it is reproducible for a seed).
#pragma once

#include "memcarlo/sim/replacement/policy.hpp"

namespace memcarlo::sim::replacement {

class Random {
 public:
  void reset(std::uint32_t, std::uint32_t ways) { ways_ = ways; }
  void on_fill(std::uint32_t, std::uint32_t) {}
  void on_hit(std::uint32_t, std::uint32_t) {}
  std::uint32_t victim(std::uint32_t, TrialRandom& random) const { return random.below(ways_); }

 private:
  std::uint32_t ways_ = 1;
};

}  // namespace memcarlo::sim::replacement
