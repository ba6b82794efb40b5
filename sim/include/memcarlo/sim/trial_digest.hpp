// A checksum of trial results: FNV-1a over every member of TrialResult that its member list
// (for_each_trial_member) marks as digested, every counter of the counter table and of the enabled
// counter groups, of every trial in trial order, so that a change meant only to make the replay
// faster can be checked to leave its results bit-identical (memcarlo-bench-replay --digest).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

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
  /// The digested members of `result` in declaration order (for_each_trial_member: the per-load
  /// and per-allocation counters, the overall ones, the trial-wide totals, then the rows of each
  /// enabled counter group; a trial without groups hashes as before groups existed). The
  /// per-kernel counters are sums of the same slots and are left out, as the member list says.
  void add(const TrialResult& result) {
    for_each_trial_member(result, [this](const auto& member, Digested digested) {
      if (digested == Digested::kYes) {
        add_member(member);
      }
    });
  }
  [[nodiscard]] std::uint64_t value() const { return hash_; }

 private:
  void add_member(std::uint64_t value) { add(value); }
  void add_member(const AccessCounters& counters) { add(counters); }
  template <class T>
  void add_member(const std::vector<T>& values) {
    for (const T& value : values) {
      add_member(value);
    }
  }
  template <class T, std::size_t N>
  void add_member(const std::array<T, N>& values) {
    for (const T& value : values) {
      add_member(value);
    }
  }
  void add_member(const CounterGroupTotals& group) {
    for_each_group_member(group, [this](const auto& member, Digested digested) {
      if (digested == Digested::kYes) {
        add_member(member);
      }
    });
  }

  std::uint64_t hash_ = 0xCBF29CE484222325ull;
};

}  // namespace memcarlo::sim
