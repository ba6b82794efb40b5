// The bins of the per-load latency histograms: the latency of each L1 transaction of a load, in
// cycles from issue until its data is there, binned by integer operations only, so that the
// replay pays one counter increment per access.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace memcarlo::sim::latency {

/// Where an access's data came from: its L1 (the line present), its L1 while the line was still
/// being filled by an earlier miss (an in-flight hit), the L2, or DRAM through the L2.
enum class Level : std::uint8_t { kL1Hit, kL1Inflight, kL2, kDram };
inline constexpr std::size_t kLevels = 4;
/// The levels' names in reports, indexed by Level.
inline constexpr std::array<std::string_view, kLevels> kLevelNames{"l1_hit", "l1_inflight", "l2",
                                                                   "dram"};

// The layout: one bin per cycle below 4 (bins 0..3), then 4 bins per octave [2^k, 2^(k+1)) for
// k = 2..19, each a quarter of the octave wide (bin 4(k-1) + q is [2^k + q 2^(k-2),
// 2^k + (q+1) 2^(k-2))), then one open-ended bin [2^20, inf). The edges are integers, so a
// latency of c cycles lies in exactly one bin, and consecutive edges differ by at most 25 %:
// 0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, ... 1835008, 2^20.
inline constexpr std::uint32_t kSubBinsPerOctave = 4;
inline constexpr std::uint32_t kOpenOctave = 20;
inline constexpr std::uint32_t kOpenBin = kSubBinsPerOctave * (kOpenOctave - 1);  // [2^20, inf)
inline constexpr std::size_t kBins = kOpenBin + 1;
/// Counters per counter slot (or per load): [level][bin].
inline constexpr std::size_t kRowSize = kLevels * kBins;

/// The bin of a latency of `cycles`: with s = floor(log2(c)) - 2 (0 below 8), bin 4s + (c >> s),
/// since c >> s is 4 + the quarter of the octave (or c itself below 8); latencies of 2^20 cycles
/// and more are taken as 2^20 (the open bin). A minimum, a bit width and two shifts, no branch.
constexpr std::uint32_t bin_of(std::uint64_t cycles) {
  const std::uint64_t clamped = std::min(cycles, std::uint64_t{1} << kOpenOctave);
  const auto shift = static_cast<std::uint32_t>(std::bit_width(clamped | 4)) - 3;
  return (shift << 2) + static_cast<std::uint32_t>(clamped >> shift);
}

/// The position of (level, latency) in a row.
constexpr std::size_t index_of(Level level, std::uint64_t cycles) {
  return static_cast<std::size_t>(level) * kBins + bin_of(cycles);
}

/// The least latency in bin `bin` (bin < kBins).
constexpr std::uint64_t lower_edge(std::size_t bin) {
  if (bin < 4) {
    return bin;
  }
  const std::size_t octave = bin / kSubBinsPerOctave + 1;
  const std::size_t quarter = bin % kSubBinsPerOctave;
  return (std::uint64_t{1} << octave) + (std::uint64_t{quarter} << (octave - 2));
}

/// One past the greatest latency in bin `bin`. The last bin is open-ended: its upper edge is
/// written as 2^21, a stand-in (no latency of the model comes near 2^20 cycles).
constexpr std::uint64_t upper_edge(std::size_t bin) {
  return bin == kOpenBin ? std::uint64_t{1} << (kOpenOctave + 1) : lower_edge(bin + 1);
}

}  // namespace memcarlo::sim::latency
