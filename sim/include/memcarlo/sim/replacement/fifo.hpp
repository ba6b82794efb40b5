// First in, first out: only fills reorder; the way filled longest ago is the victim.
#pragma once

#include "memcarlo/sim/replacement/policy.hpp"

namespace memcarlo::sim::replacement {

class Fifo {
 public:
  void reset(std::uint32_t sets, std::uint32_t ways) { recency_.reset(sets, ways); }
  void on_fill(std::uint32_t set, std::uint32_t way) { recency_.promote(set, way); }
  void on_hit(std::uint32_t, std::uint32_t) {}
  std::uint32_t victim(std::uint32_t set, TrialRandom&) const { return recency_.oldest(set); }

 private:
  RecencyList recency_;
};

}  // namespace memcarlo::sim::replacement
