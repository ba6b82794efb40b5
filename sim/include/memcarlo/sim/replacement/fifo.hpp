// First in, first out: only fills reorder; the way filled longest ago is the victim.
#pragma once

#include "memcarlo/sim/replacement/policy.hpp"

namespace memcarlo::sim::replacement {

class Fifo {
 public:
  struct View {
    RecencyRanks::View recency;
    MEMCARLO_HOT void on_fill(std::uint32_t set, std::uint32_t way) const { recency.promote(set, way); }
    MEMCARLO_HOT void on_hit(std::uint32_t, std::uint32_t) const {}
    MEMCARLO_HOT std::uint32_t replace(std::uint32_t set, RandomStream&) const {
      return recency.rotate_oldest(set);
    }
    std::uint32_t replace_excluding(std::uint32_t set, std::uint64_t excluded,
                                    RandomStream&) const {
      return recency.rotate_oldest_excluding(set, excluded);
    }
  };

  void reset(std::uint32_t sets, std::uint32_t ways) { recency_.reset(sets, ways); }
  View view() { return {recency_.view()}; }
  [[nodiscard]] const RecencyRanks& recency() const { return recency_; }

 private:
  RecencyRanks recency_;
};

}  // namespace memcarlo::sim::replacement
