// Random replacement: the victim is drawn uniformly from the set's ways (from the trial's stream,
// so it is reproducible for a seed).
#pragma once

#include "memcarlo/sim/replacement/policy.hpp"

namespace memcarlo::sim::replacement {

class Random {
 public:
  struct View {
    std::uint32_t ways;
    MEMCARLO_HOT void on_fill(std::uint32_t, std::uint32_t) const {}
    MEMCARLO_HOT void on_hit(std::uint32_t, std::uint32_t) const {}
    MEMCARLO_HOT std::uint32_t replace(std::uint32_t, TrialRandom& random) const { return random.below(ways); }
  };

  void reset(std::uint32_t, std::uint32_t ways) { ways_ = ways; }
  View view() const { return {ways_}; }

 private:
  std::uint32_t ways_ = 1;
};

}  // namespace memcarlo::sim::replacement
