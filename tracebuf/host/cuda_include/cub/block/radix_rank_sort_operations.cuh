// CUB's digit extractors for memcarlo's host backend (see cub/detail/memcarlo_cub.cuh), which
// BlockRadixRank takes: BFEDigitExtractor and ShiftDigitExtractor give the num_bits bits of a key
// (in the unsigned form the radix rank sees) from bit bit_start on; for floating-point keys,
// -0.0's bits count as +0.0's, as in CUB. The rest of CUB's header (the radix sort's key
// conversions) is CUB's internals and not provided.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../detail/memcarlo_cub.cuh"

namespace cub {
namespace memcarlo_detail {

/// The unsigned integer of a key's size (CUB's Traits<KeyT>::UnsignedBits).
template <class KeyT>
using unsigned_bits_t = std::conditional_t<
    sizeof(KeyT) == 1, std::uint8_t,
    std::conditional_t<sizeof(KeyT) == 2, std::uint16_t,
                       std::conditional_t<sizeof(KeyT) == 4, std::uint32_t, std::uint64_t>>>;

}  // namespace memcarlo_detail

template <class KeyT, bool IsFP = std::is_floating_point_v<KeyT>>
struct BaseDigitExtractor {
  using UnsignedBits = memcarlo_detail::unsigned_bits_t<KeyT>;
  static UnsignedBits ProcessFloatMinusZero(UnsignedBits key) { return key; }
};

template <class KeyT>
struct BaseDigitExtractor<KeyT, true> {
  using UnsignedBits = memcarlo_detail::unsigned_bits_t<KeyT>;
  /// In radix order (negative floats inverted, the others with the sign bit set) -0.0 is all
  /// ones but the top bit, +0.0 only the top bit.
  static UnsignedBits ProcessFloatMinusZero(UnsignedBits key) {
    constexpr UnsignedBits top =
        static_cast<UnsignedBits>(UnsignedBits{1} << (8 * sizeof(UnsignedBits) - 1));
    return key == static_cast<UnsignedBits>(~top) ? top : key;
  }
};

template <class KeyT>
struct BFEDigitExtractor : BaseDigitExtractor<KeyT> {
  using typename BaseDigitExtractor<KeyT>::UnsignedBits;

  std::uint32_t bit_start;
  std::uint32_t num_bits;

  explicit BFEDigitExtractor(std::uint32_t bit_start = 0, std::uint32_t num_bits = 0)
      : bit_start(bit_start), num_bits(num_bits) {}

  std::uint32_t Digit(UnsignedBits key) const {
    const UnsignedBits bits = this->ProcessFloatMinusZero(key);
    if (bit_start >= 8 * sizeof(UnsignedBits) || num_bits == 0) {
      return 0;
    }
    const auto shifted = static_cast<std::uint64_t>(bits >> bit_start);
    return static_cast<std::uint32_t>(
        num_bits >= 32 ? shifted : shifted & ((std::uint64_t{1} << num_bits) - 1));
  }
};

template <class KeyT>
struct ShiftDigitExtractor : BaseDigitExtractor<KeyT> {
  using typename BaseDigitExtractor<KeyT>::UnsignedBits;

  std::uint32_t bit_start;
  std::uint32_t mask;

  explicit ShiftDigitExtractor(std::uint32_t bit_start = 0, std::uint32_t num_bits = 0)
      : bit_start(bit_start), mask((1u << num_bits) - 1) {}

  std::uint32_t Digit(UnsignedBits key) const {
    return static_cast<std::uint32_t>(this->ProcessFloatMinusZero(key) >> bit_start) & mask;
  }
};

}  // namespace cub
// NOLINTEND(readability-identifier-naming)
