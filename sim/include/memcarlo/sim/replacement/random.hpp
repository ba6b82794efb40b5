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
    MEMCARLO_HOT std::uint32_t replace(std::uint32_t, RandomStream& random) const { return random.below(ways); }
    /// Uniform over the ways not excluded: the k-th clear bit for k drawn below their count.
    std::uint32_t replace_excluding(std::uint32_t, std::uint64_t excluded,
                                    RandomStream& random) const {
      std::uint64_t allowed = ~excluded & (ways == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << ways) - 1);
      const auto count = static_cast<std::uint32_t>(std::popcount(allowed));
      if (count == 0) {
        return kNoWay;
      }
      for (std::uint32_t skip = random.below(count); skip > 0; --skip) {
        allowed &= allowed - 1;
      }
      return static_cast<std::uint32_t>(std::countr_zero(allowed));
    }
  };

  void reset(std::uint32_t, std::uint32_t ways) { ways_ = ways; }
  View view() const { return {ways_}; }

 private:
  std::uint32_t ways_ = 1;
};

}  // namespace memcarlo::sim::replacement
