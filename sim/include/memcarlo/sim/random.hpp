// Counter-based random numbers (Philox4x32-10, Salmon et al., SC'11), one stream per purpose.
// Every mechanism that draws (start alignment, warp order, block tie-breaks, replacement, the L2
// service order, DRAM batches, a GPU prefetcher's choices) has its own stream, keyed by
// (seed, purpose, launch) and counting from (trial, epoch, lane). One more draw in one mechanism
// (a prefetch request the L2 must order, say) then leaves every other mechanism's draws alone,
// and the draws of epoch e do not depend on how many were made in epoch e - 1: points of a sweep
// that differ in one policy stay paired (common random numbers). A trial's randomness is fixed
// by (seed, trial) alone, so the report does not depend on how trials map to threads.
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

/// SplitMix64's finalizer (Steele et al., OOPSLA'14): a bijection that spreads every input bit.
constexpr std::uint64_t mix64(std::uint64_t value) {
  value = (value ^ (value >> 30)) * 0xBF58476D1CE4E5B9ull;
  value = (value ^ (value >> 27)) * 0x94D049BB133111EBull;
  return value ^ (value >> 31);
}

/// What a stream is for. A new mechanism that draws adds a purpose at the end (the values key
/// the streams: renumbering them changes every result).
enum class Purpose : std::uint8_t {
  kStartJitter,     // per launch: each SM's random start delay (paper §3.2.1)
  kWarpOrder,       // per launch: each SM's first warp in the round-robin
  kBlockTieBreak,   // per launch: the order of blocks that free their slots at the same cycle
  kCtaSchedule,     // per launch: a CTA scheduler's own choices
  kL1Replacement,   // per epoch and SM: victims of random replacement in that SM's L1
  kL2Replacement,   // per epoch: victims of random replacement in the L2
  kL2Order,         // per epoch: the order in which the L2 serves the SMs' requests
  kDramBatches,     // per epoch: the sizes of the DRAM's random batches (paper §3.2.3)
  kPrefetch,        // per epoch and SM: a GPU prefetcher's own choices
  kPlacement,       // per trial: a page placement's own choices
};

/// One stream: the draws of (seed, purpose, launch) at (trial, epoch, lane), in order. Cheap to
/// create and to restart (no draw is made until one is asked for). Not thread-safe.
class RandomStream {
 public:
  RandomStream() = default;
  RandomStream(std::uint64_t seed, Purpose purpose, std::uint64_t launch, std::uint64_t trial)
      : trial_(static_cast<std::uint32_t>(trial)) {
    const std::uint64_t key =
        mix64(seed ^ mix64((std::uint64_t{static_cast<std::uint8_t>(purpose)} << 56) ^
                           mix64(launch) ^ (trial >> 32)));
    key_ = {static_cast<std::uint32_t>(key), static_cast<std::uint32_t>(key >> 32)};
  }

  /// Starts the stream over at (epoch, lane) of the same trial: lanes tell the SMs apart.
  void restart(std::uint64_t epoch, std::uint32_t lane = 0) {
    epoch_ = static_cast<std::uint32_t>(epoch);
    lane_ = (lane & 0xFFFF) << 16;
    draw_ = 0;
    available_ = 0;
  }

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
  // Counter words: the block number (48 bits, with the lane in the top 16 bits of the second
  // word), the epoch and the trial; the key carries (seed, purpose, launch).
  void refill() {
    block_ = philox4x32_10({static_cast<std::uint32_t>(draw_),
                            static_cast<std::uint32_t>(draw_ >> 32) | lane_, epoch_, trial_},
                           key_);
    ++draw_;
    available_ = 4;
  }

  std::array<std::uint32_t, 2> key_{};
  std::uint32_t trial_ = 0;
  std::uint32_t epoch_ = 0;
  std::uint32_t lane_ = 0;
  std::uint64_t draw_ = 0;
  std::array<std::uint32_t, 4> block_{};
  unsigned available_ = 0;
};

/// The streams of one launch of one trial, one per purpose; restart_epoch() moves the per-epoch
/// ones to the next epoch.
struct LaunchStreams {
  LaunchStreams() = default;
  LaunchStreams(std::uint64_t seed, std::uint64_t trial, std::uint64_t launch)
      : start_jitter(seed, Purpose::kStartJitter, launch, trial),
        warp_order(seed, Purpose::kWarpOrder, launch, trial),
        block_tie_break(seed, Purpose::kBlockTieBreak, launch, trial),
        cta_schedule(seed, Purpose::kCtaSchedule, launch, trial),
        l1_replacement(seed, Purpose::kL1Replacement, launch, trial),
        l2_replacement(seed, Purpose::kL2Replacement, launch, trial),
        l2_order(seed, Purpose::kL2Order, launch, trial),
        dram_batches(seed, Purpose::kDramBatches, launch, trial),
        prefetch(seed, Purpose::kPrefetch, launch, trial) {}

  /// The L2 side's streams at `epoch` (the SM side's restart per SM: restart_sm).
  void restart_epoch(std::uint64_t epoch) {
    l2_replacement.restart(epoch);
    l2_order.restart(epoch);
    dram_batches.restart(epoch);
  }
  /// The streams of SM `sm` at `epoch`.
  void restart_sm(std::uint64_t epoch, std::uint32_t sm) {
    l1_replacement.restart(epoch, sm);
    prefetch.restart(epoch, sm);
  }

  RandomStream start_jitter;
  RandomStream warp_order;
  RandomStream block_tie_break;
  RandomStream cta_schedule;
  RandomStream l1_replacement;
  RandomStream l2_replacement;
  RandomStream l2_order;
  RandomStream dram_batches;
  RandomStream prefetch;
};

}  // namespace memcarlo::sim
