// Deterministic randomness for the generators: splitmix64 and keyed hashes of (seed, stream,
// index), fully specified so a seed gives the same trace with every compiler and library.
#pragma once

#include <cstdint>

namespace memcarlo::synth {

/// The splitmix64 finaliser (Steele, Lea, Flood 2014): a bijection that mixes every input bit.
inline std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// A hash of (seed, stream, index); distinct streams give independent sequences for one seed.
inline std::uint64_t keyed_hash(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
  return mix64(mix64(seed + 0x9E3779B97F4A7C15ull * (stream + 1)) + index * 0xD1B54A32D192ED03ull);
}

/// Uniform in [0, bound) from a 64-bit hash by multiply-shift (Lemire): the high half of the
/// 128-bit product. Bias is at most bound / 2^64, irrelevant here.
inline std::uint64_t below(std::uint64_t hash, std::uint64_t bound) {
  __extension__ typedef unsigned __int128 Uint128;
  return static_cast<std::uint64_t>((static_cast<Uint128>(hash) * bound) >> 64);
}

/// A splitmix64 generator for sequences drawn in one place (e.g. the columns of one row).
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() { return mix64(state_ += 0x9E3779B97F4A7C15ull); }
  std::uint64_t below(std::uint64_t bound) { return synth::below(next(), bound); }

 private:
  std::uint64_t state_;
};

}  // namespace memcarlo::synth
