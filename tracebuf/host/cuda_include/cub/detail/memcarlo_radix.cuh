// The radix order of keys for memcarlo's stand-ins for CUB's radix sorts (DeviceRadixSort,
// BlockRadixSort; see cub/detail/memcarlo_cub.cuh): a stable sort on the bits [begin_bit, end_bit)
// of each key as CUB's radix sort sees them.
// NOLINTBEGIN(readability-identifier-naming): the names in this file are CUB's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <vector>

#include "memcarlo_cub.cuh"

namespace cub {
namespace memcarlo_detail {

/// A key's bits in radix order (unsigned comparison gives the key's order), as CUB's radix sort
/// sees them: integers with the sign bit flipped, floating point with negative values inverted.
template <class Key>
inline auto radix_bits(const Key& key) {
  static_assert(
      std::is_arithmetic_v<Key>,
      "the emulation's radix sorts (DeviceRadixSort, BlockRadixSort) sort arithmetic keys");
  using Bits = std::conditional_t<
      sizeof(Key) == 1, std::uint8_t,
      std::conditional_t<sizeof(Key) == 2, std::uint16_t,
                         std::conditional_t<sizeof(Key) == 4, std::uint32_t, std::uint64_t>>>;
  Bits bits;
  std::memcpy(&bits, &key, sizeof bits);
  constexpr Bits high = static_cast<Bits>(Bits{1} << (sizeof(Bits) * 8 - 1));
  if constexpr (std::is_floating_point_v<Key>) {
    bits = (bits & high) != 0 ? static_cast<Bits>(~bits) : static_cast<Bits>(bits ^ high);
  } else if constexpr (std::is_signed_v<Key>) {
    bits = static_cast<Bits>(bits ^ high);
  }
  return bits;
}

/// The order of a stable radix sort of keys on bits [begin_bit, end_bit).
template <class Key, class Count>
inline std::vector<Count> radix_order(const Key* keys, Count count, int begin_bit, int end_bit,
                                      bool descending) {
  std::vector<Count> order(static_cast<std::size_t>(count));
  std::iota(order.begin(), order.end(), Count{0});
  const auto digit = [&](Count i) {
    auto bits = radix_bits(keys[i]);
    using Bits = decltype(bits);
    const int width = static_cast<int>(sizeof(Bits) * 8);
    bits = static_cast<Bits>(begin_bit >= width ? 0 : bits >> begin_bit);
    const int kept = end_bit - begin_bit;
    if (kept < width) {
      bits = static_cast<Bits>(bits & static_cast<Bits>((Bits{1} << kept) - 1));
    }
    return bits;
  };
  std::stable_sort(order.begin(), order.end(), [&](Count left, Count right) {
    return descending ? digit(right) < digit(left) : digit(left) < digit(right);
  });
  return order;
}

template <class Key, class Value, class Count>
inline void radix_sort(const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                       Count count, int begin_bit, int end_bit, bool descending) {
  const std::vector<Count> order = radix_order(keys_in, count, begin_bit, end_bit, descending);
  std::vector<Key> keys(order.size());
  std::vector<Value> values(values_in != nullptr ? order.size() : 0);
  for (std::size_t i = 0; i < order.size(); ++i) {
    keys[i] = keys_in[order[i]];
    if (values_in != nullptr) {
      values[i] = values_in[order[i]];
    }
  }
  std::copy(keys.begin(), keys.end(), keys_out);
  if (values_in != nullptr) {
    std::copy(values.begin(), values.end(), values_out);
  }
}

}  // namespace memcarlo_detail
}  // namespace cub
// NOLINTEND(readability-identifier-naming)
