// Rounding a double to the narrow floating-point formats of cuda_fp16.h, cuda_bf16.h and
// cuda_fp8.h (binary16, bfloat16, FP8 E4M3 and E5M2) and reading them back, bit-exact with the
// GPU's conversions. One rounding routine serves every format and rounding mode, so that each
// conversion rounds once, from the exact value (a float or a half is exact in a double).
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier)
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace memcarlo::host::detail {

/// IEEE rounding directions; CUDA's _rn, _rz, _rd and _ru suffixes.
enum class Rounding { kNearestEven, kTowardZero, kDown, kUp };

/// A binary floating-point format: sign, `exponent_bits`, `fraction_bits` (without the implicit
/// bit), IEEE-style subnormals.
struct NarrowFormat {
  int exponent_bits;
  int fraction_bits;
};

inline constexpr NarrowFormat kBinary16{5, 10};
inline constexpr NarrowFormat kBfloat16{8, 7};
inline constexpr NarrowFormat kFp8E4m3{4, 3};
inline constexpr NarrowFormat kFp8E5m2{5, 2};

/// The magnitude bits (no sign) of finite, non-NaN `magnitude` >= 0 rounded to `format`. The
/// result may exceed the largest finite encoding (then the caller decides what overflow gives:
/// infinity, the largest finite value or NaN). `beyond` says on which side of `magnitude` the exact
/// value lies when `magnitude` is itself rounded (+1: above, -1: below, 0: exact); it only breaks
/// round-to-nearest ties, which is all a fused multiply-add needs (see fused_multiply_add).
inline std::uint64_t round_magnitude(double magnitude, NarrowFormat format, Rounding rounding,
                                     bool negative, int beyond = 0) {
  if (magnitude == 0.0)
    return 0;
  const int bias = (1 << (format.exponent_bits - 1)) - 1;
  const int minimum_exponent = 1 - bias;
  int exponent = 0;
  std::frexp(magnitude, &exponent);
  --exponent;  // magnitude in [2^exponent, 2^(exponent + 1))
  // Far beyond the format's range: any encoding past the largest one says "overflow".
  if (exponent > bias + 1)
    return std::uint64_t{1} << (format.exponent_bits + format.fraction_bits);
  const int kept = exponent < minimum_exponent ? minimum_exponent : exponent;
  // The value in units of the last place it keeps: an integer part below 2^(fraction_bits + 1)
  // and an exact fraction (scaling a double by a power of two is exact here).
  const double scaled = std::ldexp(magnitude, format.fraction_bits - kept);
  const double whole = std::floor(scaled);
  const double fraction = scaled - whole;
  auto units = static_cast<std::uint64_t>(whole);
  bool up = false;
  switch (rounding) {
    case Rounding::kNearestEven:
      up = fraction > 0.5 || (fraction == 0.5 && (beyond > 0 || (beyond == 0 && (units & 1) != 0)));
      break;
    case Rounding::kTowardZero:
      break;
    case Rounding::kDown:
      up = negative && fraction > 0.0;
      break;
    case Rounding::kUp:
      up = !negative && fraction > 0.0;
      break;
  }
  if (up)
    ++units;
  // units in [2^fraction_bits, 2^(fraction_bits + 1)] for normal numbers, below 2^fraction_bits
  // for subnormals: adding the biased exponent minus one lets a carry (or a subnormal rounding up
  // to the smallest normal) step into the exponent field by itself.
  const auto field = static_cast<std::uint64_t>(kept + bias);
  if (exponent < minimum_exponent)
    return units;
  return ((field - 1) << format.fraction_bits) + units;
}

/// The value of finite magnitude bits `bits` (no sign) of `format`.
inline double magnitude_value(std::uint64_t bits, NarrowFormat format) {
  const int bias = (1 << (format.exponent_bits - 1)) - 1;
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << format.fraction_bits) - 1);
  const auto field = static_cast<int>(bits >> format.fraction_bits);
  if (field == 0) {
    return std::ldexp(static_cast<double>(fraction), 1 - bias - format.fraction_bits);
  }
  return std::ldexp(static_cast<double>(fraction | (std::uint64_t{1} << format.fraction_bits)),
                    field - bias - format.fraction_bits);
}

/// The bits of `value` in an IEEE-style format with infinities (binary16, bfloat16): overflow
/// gives infinity or the largest finite value as the direction says, NaN the canonical NaN
/// 0x7FFF (sign dropped), as the GPU's cvt.f16 and the bf16 conversions give.
/// `beyond`: +1 when the exact value lies above `value` on the number line, -1 below, 0 exact.
inline std::uint16_t ieee_narrow_bits(double value, NarrowFormat format, Rounding rounding,
                                      int beyond = 0) {
  const int width = format.exponent_bits + format.fraction_bits;
  const std::uint64_t infinity = ((std::uint64_t{1} << format.exponent_bits) - 1)
                                 << format.fraction_bits;
  if (std::isnan(value))
    return 0x7FFF;
  const bool negative = std::signbit(value);
  const std::uint64_t sign = negative ? std::uint64_t{1} << width : 0;
  std::uint64_t bits = std::isinf(value) ? infinity
                                         : round_magnitude(std::fabs(value), format, rounding,
                                                           negative, negative ? -beyond : beyond);
  if (bits >= infinity && !std::isinf(value)) {
    const bool to_largest = rounding == Rounding::kTowardZero ||
                            (rounding == Rounding::kDown && !negative) ||
                            (rounding == Rounding::kUp && negative);
    bits = to_largest ? infinity - 1 : infinity;
  }
  return static_cast<std::uint16_t>(sign | bits);
}

/// The value of `bits` in an IEEE-style format with infinities.
inline double ieee_narrow_value(std::uint16_t bits, NarrowFormat format) {
  const int width = format.exponent_bits + format.fraction_bits;
  const std::uint64_t magnitude = bits & ((std::uint64_t{1} << width) - 1);
  const std::uint64_t infinity = ((std::uint64_t{1} << format.exponent_bits) - 1)
                                 << format.fraction_bits;
  double value = 0.0;
  if (magnitude > infinity) {
    value = std::numeric_limits<double>::quiet_NaN();
  } else if (magnitude == infinity) {
    value = std::numeric_limits<double>::infinity();
  } else {
    value = magnitude_value(magnitude, format);
  }
  return (bits >> width) != 0 ? -value : value;
}

/// a * b + c rounded once to nearest-even in `format`, for a, b and c of a format with at most 11
/// significant bits: a * b is exact in a double, the sum is a double plus an exactly known error
/// (Knuth's two-sum), and the error's sign breaks the one case where rounding the double alone
/// could be wrong, a double that falls exactly on a tie of the narrow format.
inline std::uint16_t fused_multiply_add_bits(double first, double second, double third,
                                             NarrowFormat format) {
  const double product = first * second;
  const double sum = product + third;
  if (!std::isfinite(sum))
    return ieee_narrow_bits(sum, format, Rounding::kNearestEven);
  const double product_part = sum - third;
  const double addend_part = sum - product_part;
  const double error = (product - product_part) + (third - addend_part);
  const int beyond = error > 0.0 ? 1 : error < 0.0 ? -1 : 0;
  return ieee_narrow_bits(sum, format, Rounding::kNearestEven, beyond);
}

}  // namespace memcarlo::host::detail
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
