// A checksum of trial results: FNV-1a over every counter of the counter table (and of the enabled
// counter groups) of every trial in trial order, so that a change meant only to make the replay
// faster can be checked to leave its results bit-identical (memcarlo-bench-replay --digest).
#pragma once

#include <cstdint>
#include <cstring>

#include "memcarlo/sim/trial_result.hpp"

namespace memcarlo::sim {

class TrialDigest {
 public:
  void add(std::uint64_t value) {
    for (int i = 0; i < 8; ++i) {
      hash_ = (hash_ ^ ((value >> (8 * i)) & 0xFF)) * 0x100000001B3ull;
    }
  }
  void add(double value) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    add(bits);
  }
  void add(const AccessCounters& counters) {
    for_each_access_counter([&](auto member) { add(counters.*member); });
  }
  /// Per-load and per-allocation counters, the overall ones, the trial's scalars, then the totals
  /// of each enabled counter group (a trial without groups hashes as before groups existed). The
  /// per-kernel counters are sums of the same slots and are left out.
  void add(const TrialResult& result) {
    for (const AccessCounters& counters : result.loads) {
      add(counters);
    }
    for (const AccessCounters& counters : result.allocations) {
      add(counters);
    }
    add(result.overall);
    for (const std::uint64_t value : {result.transactions, result.cycles, result.dram_batches,
                                      result.dram_writes, result.back_invalidations}) {
      add(value);
    }
    for (const CounterGroupTotals& group : result.groups) {
      for (const auto* rows : {&group.loads, &group.allocations, &group.overall}) {
        for (const std::uint64_t value : *rows) {
          add(value);
        }
      }
    }
  }
  [[nodiscard]] std::uint64_t value() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xCBF29CE484222325ull;
};

}  // namespace memcarlo::sim
