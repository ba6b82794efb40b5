// Counter-based random numbers (Philox4x32-10, Salmon et al., SC'11): trial t with seed s draws
// the stream Philox(key = s, counter = (t, n)) for n = 0, 1, ..., so every trial's randomness is
// fixed by (seed, trial) alone and the report does not depend on how trials map to threads.
#pragma once

#include <array>
#include <cstdint>

namespace memcarlo::sim {

/// One Philox4x32-10 block: 10 rounds of the bijection on a 128-bit counter under a 64-bit key.
constexpr std::array<std::uint32_t, 4> philox4x32_10(std::array<std::uint32_t, 4> counter,
                                                     std::array<std::uint32_t, 2> key) {
  constexpr std::uint32_t kMultiplier0 = 0xD2511F53;
  constexpr std::uint32_t kMultiplier1 = 0xCD9E8D57;
  constexpr std::uint32_t kWeyl0 = 0x9E3779B9;  // golden ratio
  constexpr std::uint32_t kWeyl1 = 0xBB67AE85;  // sqrt(3) - 1
  for (int round = 0; round < 10; ++round) {
    const std::uint64_t product0 = std::uint64_t{kMultiplier0} * counter[0];
    const std::uint64_t product1 = std::uint64_t{kMultiplier1} * counter[2];
    counter = {static_cast<std::uint32_t>(product1 >> 32) ^ counter[1] ^ key[0],
               static_cast<std::uint32_t>(product1),
               static_cast<std::uint32_t>(product0 >> 32) ^ counter[3] ^ key[1],
               static_cast<std::uint32_t>(product0)};
    key[0] += kWeyl0;
    key[1] += kWeyl1;
  }
  return counter;
}

/// The random stream of one trial. Not thread-safe; one per trial.
class TrialRandom {
 public:
  TrialRandom(std::uint64_t seed, std::uint64_t trial)
      : key_{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)},
        trial_(trial) {}

  /// Uniform 32-bit value.
  std::uint32_t next_u32() {
    if (available_ == 0) {
      refill();
    }
    return block_[--available_];
  }
  /// Uniform 64-bit value.
  std::uint64_t next_u64() {
    const std::uint64_t high = next_u32();
    return (high << 32) | next_u32();
  }
  /// Uniform integer in [0, bound) for bound >= 1 (Lemire's multiply-shift; the bias is below
  /// bound / 2^32, negligible for the bounds used here: SM counts, group sizes, ways).
  std::uint32_t below(std::uint32_t bound) {
    return static_cast<std::uint32_t>((std::uint64_t{next_u32()} * bound) >> 32);
  }
  /// Uniform double in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

 private:
  void refill() {
    block_ = philox4x32_10({static_cast<std::uint32_t>(counter_),
                            static_cast<std::uint32_t>(counter_ >> 32),
                            static_cast<std::uint32_t>(trial_),
                            static_cast<std::uint32_t>(trial_ >> 32)},
                           key_);
    ++counter_;
    available_ = 4;
  }

  std::array<std::uint32_t, 2> key_;
  std::uint64_t trial_;
  std::uint64_t counter_ = 0;
  std::array<std::uint32_t, 4> block_{};
  unsigned available_ = 0;
};

}  // namespace memcarlo::sim
