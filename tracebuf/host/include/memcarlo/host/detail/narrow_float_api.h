// The part of cuda_fp16.h's and cuda_bf16.h's API that is the same for __half and __nv_bfloat16
// (the same names, overloaded on the type), stamped out once per type by the macros below.
// Arithmetic is done on the exact values in double and rounded once to the narrow format, which
// is the GPU's round-to-nearest-even result for +, -, *, /, sqrt and the reciprocal: a double's 53
// bits are more than 2p + 2 for the 11 (binary16) and 8 (bfloat16) bits of these formats, so
// rounding first to double and then to the format never differs from rounding once (Figueroa,
// "When is double rounding innocuous?", 1995). Fused multiply-adds round once (narrow_floats.h).
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names are CUDA's.
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "memcarlo/host/detail/narrow_floats.h"

namespace memcarlo::host::detail {

/// What the stamped functions need to know of a narrow type: its format and how to make one from
/// bits. Specialized by cuda_fp16.h and cuda_bf16.h.
template <class Scalar>
struct NarrowOf;

template <class Scalar>
double narrow_to_double(Scalar value) {
  return ieee_narrow_value(value.__x, NarrowOf<Scalar>::format);
}

template <class Scalar>
Scalar narrow_from_bits(std::uint16_t bits) {
  Scalar value;
  value.__x = bits;
  return value;
}

template <class Scalar>
Scalar narrow_round(double value, Rounding rounding = Rounding::kNearestEven) {
  return narrow_from_bits<Scalar>(ieee_narrow_bits(value, NarrowOf<Scalar>::format, rounding));
}

template <class Scalar>
bool narrow_is_nan(Scalar value) {
  return std::isnan(narrow_to_double(value));
}

/// Clamps to [0, 1] as the _sat forms do; NaN gives +0.
template <class Scalar>
Scalar narrow_saturate(Scalar value) {
  const double number = narrow_to_double(value);
  if (std::isnan(number) || number <= 0.0)
    return narrow_from_bits<Scalar>(0);
  if (number >= 1.0)
    return narrow_round<Scalar>(1.0);
  return value;
}

/// __hmax/__hmin: a NaN operand gives the other one, two NaNs the canonical NaN, and +0 is
/// larger than -0. `nan_wins` (__hmax_nan/__hmin_nan): any NaN operand gives the canonical NaN.
template <class Scalar>
Scalar narrow_extremum(Scalar first, Scalar second, bool maximum, bool nan_wins) {
  const double x = narrow_to_double(first);
  const double y = narrow_to_double(second);
  const bool a_nan = std::isnan(x);
  const bool b_nan = std::isnan(y);
  if (a_nan || b_nan) {
    if (nan_wins || (a_nan && b_nan))
      return narrow_from_bits<Scalar>(0x7FFF);
    return a_nan ? second : first;
  }
  if (x == y) {  // +0 and -0, or equal values
    const bool a_negative = std::signbit(x);
    return (a_negative != maximum) ? first : second;
  }
  return ((x > y) == maximum) ? first : second;
}

/// Integer conversions: rounding as the suffix says, NaN gives `nan_result`, out of range
/// saturates (cvt.rni/rzi/rmi/rpi with .sat, as the GPU converts).
template <class Integer>
Integer narrow_to_integer(double value, Rounding rounding, Integer nan_result) {
  if (std::isnan(value))
    return nan_result;
  double rounded = value;
  switch (rounding) {
    case Rounding::kNearestEven:
      rounded = std::nearbyint(value);
      break;
    case Rounding::kTowardZero:
      rounded = std::trunc(value);
      break;
    case Rounding::kDown:
      rounded = std::floor(value);
      break;
    case Rounding::kUp:
      rounded = std::ceil(value);
      break;
  }
  constexpr auto lowest = std::numeric_limits<Integer>::lowest();
  constexpr auto highest = std::numeric_limits<Integer>::max();
  if (rounded <= static_cast<double>(lowest))
    return lowest;
  if (rounded >= static_cast<double>(highest))
    return highest;
  return static_cast<Integer>(rounded);
}

/// atomicAdd on a narrow value or pair: a compare-and-swap loop over the same memory.
template <class Value, class Add>
Value narrow_atomic_add(Value* address, Value value, Add add) {
  std::atomic_ref<Value> slot(*address);
  Value old = slot.load();
  while (!slot.compare_exchange_weak(old, add(old, value))) {
  }
  return old;
}

}  // namespace memcarlo::host::detail

// Functions of one scalar type: arithmetic, comparisons, math, operators.
#define MEMCARLO_NARROW_SCALAR_API(Scalar)                                                  \
  inline Scalar memcarlo_narrow_binary(Scalar first, Scalar second, int operation) {        \
    using namespace ::memcarlo::host::detail;                                               \
    const double x = narrow_to_double(first);                                               \
    const double y = narrow_to_double(second);                                              \
    const double result = operation == 0   ? x + y                                          \
                          : operation == 1 ? x - y                                          \
                          : operation == 2 ? x * y                                          \
                                           : x / y;                                         \
    return narrow_round<Scalar>(result);                                                    \
  }                                                                                         \
  inline Scalar __hadd(const Scalar first, const Scalar second) {                           \
    return memcarlo_narrow_binary(first, second, 0);                                        \
  }                                                                                         \
  inline Scalar __hsub(const Scalar first, const Scalar second) {                           \
    return memcarlo_narrow_binary(first, second, 1);                                        \
  }                                                                                         \
  inline Scalar __hmul(const Scalar first, const Scalar second) {                           \
    return memcarlo_narrow_binary(first, second, 2);                                        \
  }                                                                                         \
  inline Scalar __hdiv(const Scalar first, const Scalar second) {                           \
    return memcarlo_narrow_binary(first, second, 3);                                        \
  }                                                                                         \
  inline Scalar __hadd_rn(const Scalar first, const Scalar second) {                        \
    return __hadd(first, second);                                                           \
  }                                                                                         \
  inline Scalar __hsub_rn(const Scalar first, const Scalar second) {                        \
    return __hsub(first, second);                                                           \
  }                                                                                         \
  inline Scalar __hmul_rn(const Scalar first, const Scalar second) {                        \
    return __hmul(first, second);                                                           \
  }                                                                                         \
  inline Scalar __hadd_sat(const Scalar first, const Scalar second) {                       \
    return ::memcarlo::host::detail::narrow_saturate(__hadd(first, second));                \
  }                                                                                         \
  inline Scalar __hsub_sat(const Scalar first, const Scalar second) {                       \
    return ::memcarlo::host::detail::narrow_saturate(__hsub(first, second));                \
  }                                                                                         \
  inline Scalar __hmul_sat(const Scalar first, const Scalar second) {                       \
    return ::memcarlo::host::detail::narrow_saturate(__hmul(first, second));                \
  }                                                                                         \
  inline Scalar __hfma(const Scalar first, const Scalar second, const Scalar third) {       \
    using namespace ::memcarlo::host::detail;                                               \
    return narrow_from_bits<Scalar>(                                                        \
        fused_multiply_add_bits(narrow_to_double(first), narrow_to_double(second),          \
                                narrow_to_double(third), NarrowOf<Scalar>::format));        \
  }                                                                                         \
  inline Scalar __hfma_sat(const Scalar first, const Scalar second, const Scalar third) {   \
    return ::memcarlo::host::detail::narrow_saturate(__hfma(first, second, third));         \
  }                                                                                         \
  inline Scalar __hfma_relu(const Scalar first, const Scalar second, const Scalar third) {  \
    using namespace ::memcarlo::host::detail;                                               \
    const Scalar sum = __hfma(first, second, third);                                        \
    if (narrow_is_nan(sum))                                                                 \
      return narrow_from_bits<Scalar>(0x7FFF);                                              \
    return narrow_to_double(sum) < 0.0 ? narrow_from_bits<Scalar>(0) : sum;                 \
  }                                                                                         \
  inline Scalar __hneg(const Scalar first) {                                                \
    return ::memcarlo::host::detail::narrow_from_bits<Scalar>(                              \
        static_cast<std::uint16_t>(first.__x ^ 0x8000u));                                   \
  }                                                                                         \
  inline Scalar __habs(const Scalar first) {                                                \
    return ::memcarlo::host::detail::narrow_from_bits<Scalar>(                              \
        static_cast<std::uint16_t>(first.__x & 0x7FFFu));                                   \
  }                                                                                         \
  inline bool __hisnan(const Scalar first) {                                                \
    return ::memcarlo::host::detail::narrow_is_nan(first);                                  \
  }                                                                                         \
  inline int __hisinf(const Scalar first) {                                                 \
    const double value = ::memcarlo::host::detail::narrow_to_double(first);                 \
    return std::isinf(value) ? (value < 0.0 ? -1 : 1) : 0;                                  \
  }                                                                                         \
  MEMCARLO_NARROW_COMPARISON(Scalar, __heq, __hequ, ==)                                     \
  MEMCARLO_NARROW_COMPARISON(Scalar, __hne, __hneu, !=)                                     \
  MEMCARLO_NARROW_COMPARISON(Scalar, __hlt, __hltu, <)                                      \
  MEMCARLO_NARROW_COMPARISON(Scalar, __hle, __hleu, <=)                                     \
  MEMCARLO_NARROW_COMPARISON(Scalar, __hgt, __hgtu, >)                                      \
  MEMCARLO_NARROW_COMPARISON(Scalar, __hge, __hgeu, >=)                                     \
  inline Scalar __hmax(const Scalar first, const Scalar second) {                           \
    return ::memcarlo::host::detail::narrow_extremum(first, second, true, false);           \
  }                                                                                         \
  inline Scalar __hmin(const Scalar first, const Scalar second) {                           \
    return ::memcarlo::host::detail::narrow_extremum(first, second, false, false);          \
  }                                                                                         \
  inline Scalar __hmax_nan(const Scalar first, const Scalar second) {                       \
    return ::memcarlo::host::detail::narrow_extremum(first, second, true, true);            \
  }                                                                                         \
  inline Scalar __hmin_nan(const Scalar first, const Scalar second) {                       \
    return ::memcarlo::host::detail::narrow_extremum(first, second, false, true);           \
  }                                                                                         \
  MEMCARLO_NARROW_MATH(Scalar, hsqrt, std::sqrt(value))                                     \
  MEMCARLO_NARROW_MATH(Scalar, hrsqrt, 1.0 / std::sqrt(value))                              \
  MEMCARLO_NARROW_MATH(Scalar, hrcp, 1.0 / value)                                           \
  MEMCARLO_NARROW_MATH(Scalar, hexp, std::exp(value))                                       \
  MEMCARLO_NARROW_MATH(Scalar, hexp2, std::exp2(value))                                     \
  MEMCARLO_NARROW_MATH(Scalar, hexp10, std::pow(10.0, value))                               \
  MEMCARLO_NARROW_MATH(Scalar, hlog, std::log(value))                                       \
  MEMCARLO_NARROW_MATH(Scalar, hlog2, std::log2(value))                                     \
  MEMCARLO_NARROW_MATH(Scalar, hlog10, std::log10(value))                                   \
  MEMCARLO_NARROW_MATH(Scalar, hsin, std::sin(value))                                       \
  MEMCARLO_NARROW_MATH(Scalar, hcos, std::cos(value))                                       \
  MEMCARLO_NARROW_MATH(Scalar, htanh, std::tanh(value))                                     \
  MEMCARLO_NARROW_MATH(Scalar, htanh_approx, std::tanh(value))                              \
  MEMCARLO_NARROW_MATH(Scalar, hfloor, std::floor(value))                                   \
  MEMCARLO_NARROW_MATH(Scalar, hceil, std::ceil(value))                                     \
  MEMCARLO_NARROW_MATH(Scalar, htrunc, std::trunc(value))                                   \
  MEMCARLO_NARROW_MATH(Scalar, hrint, std::nearbyint(value))                                \
  inline Scalar operator+(const Scalar& first, const Scalar& second) {                      \
    return __hadd(first, second);                                                           \
  }                                                                                         \
  inline Scalar operator-(const Scalar& first, const Scalar& second) {                      \
    return __hsub(first, second);                                                           \
  }                                                                                         \
  inline Scalar operator*(const Scalar& first, const Scalar& second) {                      \
    return __hmul(first, second);                                                           \
  }                                                                                         \
  inline Scalar operator/(const Scalar& first, const Scalar& second) {                      \
    return __hdiv(first, second);                                                           \
  }                                                                                         \
  inline Scalar& operator+=(Scalar& first, const Scalar& second) {                          \
    return first = __hadd(first, second);                                                   \
  }                                                                                         \
  inline Scalar& operator-=(Scalar& first, const Scalar& second) {                          \
    return first = __hsub(first, second);                                                   \
  }                                                                                         \
  inline Scalar& operator*=(Scalar& first, const Scalar& second) {                          \
    return first = __hmul(first, second);                                                   \
  }                                                                                         \
  inline Scalar& operator/=(Scalar& first, const Scalar& second) {                          \
    return first = __hdiv(first, second);                                                   \
  }                                                                                         \
  inline Scalar& operator++(Scalar& first) {                                                \
    return first = __hadd(first, Scalar(1.0f));                                             \
  }                                                                                         \
  inline Scalar& operator--(Scalar& first) {                                                \
    return first = __hsub(first, Scalar(1.0f));                                             \
  }                                                                                         \
  inline Scalar operator++(Scalar& first, int) {                                            \
    const Scalar old = first;                                                               \
    ++first;                                                                                \
    return old;                                                                             \
  }                                                                                         \
  inline Scalar operator--(Scalar& first, int) {                                            \
    const Scalar old = first;                                                               \
    --first;                                                                                \
    return old;                                                                             \
  }                                                                                         \
  inline Scalar operator+(const Scalar& first) {                                            \
    return first;                                                                           \
  }                                                                                         \
  inline Scalar operator-(const Scalar& first) {                                            \
    return __hneg(first);                                                                   \
  }                                                                                         \
  inline bool operator==(const Scalar& first, const Scalar& second) {                       \
    return __heq(first, second);                                                            \
  }                                                                                         \
  inline bool operator!=(const Scalar& first, const Scalar& second) {                       \
    return __hneu(first, second);                                                           \
  }                                                                                         \
  inline bool operator<(const Scalar& first, const Scalar& second) {                        \
    return __hlt(first, second);                                                            \
  }                                                                                         \
  inline bool operator>(const Scalar& first, const Scalar& second) {                        \
    return __hgt(first, second);                                                            \
  }                                                                                         \
  inline bool operator<=(const Scalar& first, const Scalar& second) {                       \
    return __hle(first, second);                                                            \
  }                                                                                         \
  inline bool operator>=(const Scalar& first, const Scalar& second) {                       \
    return __hge(first, second);                                                            \
  }                                                                                         \
  inline Scalar atomicAdd(Scalar* address, const Scalar value) {                            \
    return ::memcarlo::host::detail::narrow_atomic_add(                                     \
        address, value, [](Scalar first, Scalar second) { return __hadd(first, second); }); \
  }

// The ordered comparison (false when either is NaN) and the unordered one (true when either is).
#define MEMCARLO_NARROW_COMPARISON(Scalar, ordered, unordered, op)       \
  inline bool ordered(const Scalar first, const Scalar second) {         \
    const double x = ::memcarlo::host::detail::narrow_to_double(first);  \
    const double y = ::memcarlo::host::detail::narrow_to_double(second); \
    return !std::isnan(x) && !std::isnan(y) && (x op y);                 \
  }                                                                      \
  inline bool unordered(const Scalar first, const Scalar second) {       \
    const double x = ::memcarlo::host::detail::narrow_to_double(first);  \
    const double y = ::memcarlo::host::detail::narrow_to_double(second); \
    return std::isnan(x) || std::isnan(y) || (x op y);                   \
  }

// A function of one value computed in double and rounded once. For sqrt and the reciprocal that
// is the GPU's correctly rounded result; the GPU's exp, log, sin, cos, tanh and rsqrt of narrow
// types are approximations (ex2.approx.f16, ...) that may differ from these in the last place.
#define MEMCARLO_NARROW_MATH(Scalar, name, expression)                      \
  inline Scalar name(const Scalar first) {                                  \
    const double value = ::memcarlo::host::detail::narrow_to_double(first); \
    return ::memcarlo::host::detail::narrow_round<Scalar>(expression);      \
  }

// Functions of a pair type (two scalars, .x low and .y high): each lane as the scalar function.
#define MEMCARLO_NARROW_PAIR_API(Pair, Scalar)                                                     \
  MEMCARLO_NARROW_PAIR_BINARY(Pair, __hadd2, __hadd)                                               \
  MEMCARLO_NARROW_PAIR_BINARY(Pair, __hsub2, __hsub)                                               \
  MEMCARLO_NARROW_PAIR_BINARY(Pair, __hmul2, __hmul)                                               \
  MEMCARLO_NARROW_PAIR_BINARY(Pair, __h2div, __hdiv)                                               \
  MEMCARLO_NARROW_PAIR_BINARY(Pair, __hadd2_rn, __hadd)                                            \
  MEMCARLO_NARROW_PAIR_BINARY(Pair, __hsub2_rn, __hsub)                                            \
  MEMCARLO_NARROW_PAIR_BINARY(Pair, __hmul2_rn, __hmul)                                            \
  MEMCARLO_NARROW_PAIR_BINARY(Pair, __hadd2_sat, __hadd_sat)                                       \
  MEMCARLO_NARROW_PAIR_BINARY(Pair, __hsub2_sat, __hsub_sat)                                       \
  MEMCARLO_NARROW_PAIR_BINARY(Pair, __hmul2_sat, __hmul_sat)                                       \
  MEMCARLO_NARROW_PAIR_BINARY(Pair, __hmax2, __hmax)                                               \
  MEMCARLO_NARROW_PAIR_BINARY(Pair, __hmin2, __hmin)                                               \
  MEMCARLO_NARROW_PAIR_BINARY(Pair, __hmax2_nan, __hmax_nan)                                       \
  MEMCARLO_NARROW_PAIR_BINARY(Pair, __hmin2_nan, __hmin_nan)                                       \
  inline Pair __hfma2(const Pair first, const Pair second, const Pair third) {                     \
    return Pair(__hfma(first.x, second.x, third.x), __hfma(first.y, second.y, third.y));           \
  }                                                                                                \
  inline Pair __hfma2_sat(const Pair first, const Pair second, const Pair third) {                 \
    return Pair(__hfma_sat(first.x, second.x, third.x), __hfma_sat(first.y, second.y, third.y));   \
  }                                                                                                \
  inline Pair __hfma2_relu(const Pair first, const Pair second, const Pair third) {                \
    return Pair(__hfma_relu(first.x, second.x, third.x), __hfma_relu(first.y, second.y, third.y)); \
  }                                                                                                \
  inline Pair __hneg2(const Pair first) {                                                          \
    return Pair(__hneg(first.x), __hneg(first.y));                                                 \
  }                                                                                                \
  inline Pair __habs2(const Pair first) {                                                          \
    return Pair(__habs(first.x), __habs(first.y));                                                 \
  }                                                                                                \
  inline Pair __hisnan2(const Pair first) {                                                        \
    return Pair(Scalar(__hisnan(first.x) ? 1.0f : 0.0f), Scalar(__hisnan(first.y) ? 1.0f : 0.0f)); \
  }                                                                                                \
  MEMCARLO_NARROW_PAIR_COMPARISON(Pair, Scalar, __heq2, __hbeq2, __heq2_mask, __heq)               \
  MEMCARLO_NARROW_PAIR_COMPARISON(Pair, Scalar, __hne2, __hbne2, __hne2_mask, __hne)               \
  MEMCARLO_NARROW_PAIR_COMPARISON(Pair, Scalar, __hlt2, __hblt2, __hlt2_mask, __hlt)               \
  MEMCARLO_NARROW_PAIR_COMPARISON(Pair, Scalar, __hle2, __hble2, __hle2_mask, __hle)               \
  MEMCARLO_NARROW_PAIR_COMPARISON(Pair, Scalar, __hgt2, __hbgt2, __hgt2_mask, __hgt)               \
  MEMCARLO_NARROW_PAIR_COMPARISON(Pair, Scalar, __hge2, __hbge2, __hge2_mask, __hge)               \
  MEMCARLO_NARROW_PAIR_COMPARISON(Pair, Scalar, __hequ2, __hbequ2, __hequ2_mask, __hequ)           \
  MEMCARLO_NARROW_PAIR_COMPARISON(Pair, Scalar, __hneu2, __hbneu2, __hneu2_mask, __hneu)           \
  MEMCARLO_NARROW_PAIR_COMPARISON(Pair, Scalar, __hltu2, __hbltu2, __hltu2_mask, __hltu)           \
  MEMCARLO_NARROW_PAIR_COMPARISON(Pair, Scalar, __hleu2, __hbleu2, __hleu2_mask, __hleu)           \
  MEMCARLO_NARROW_PAIR_COMPARISON(Pair, Scalar, __hgtu2, __hbgtu2, __hgtu2_mask, __hgtu)           \
  MEMCARLO_NARROW_PAIR_COMPARISON(Pair, Scalar, __hgeu2, __hbgeu2, __hgeu2_mask, __hgeu)           \
  MEMCARLO_NARROW_PAIR_UNARY(Pair, h2sqrt, hsqrt)                                                  \
  MEMCARLO_NARROW_PAIR_UNARY(Pair, h2rsqrt, hrsqrt)                                                \
  MEMCARLO_NARROW_PAIR_UNARY(Pair, h2rcp, hrcp)                                                    \
  MEMCARLO_NARROW_PAIR_UNARY(Pair, h2exp, hexp)                                                    \
  MEMCARLO_NARROW_PAIR_UNARY(Pair, h2exp2, hexp2)                                                  \
  MEMCARLO_NARROW_PAIR_UNARY(Pair, h2exp10, hexp10)                                                \
  MEMCARLO_NARROW_PAIR_UNARY(Pair, h2log, hlog)                                                    \
  MEMCARLO_NARROW_PAIR_UNARY(Pair, h2log2, hlog2)                                                  \
  MEMCARLO_NARROW_PAIR_UNARY(Pair, h2log10, hlog10)                                                \
  MEMCARLO_NARROW_PAIR_UNARY(Pair, h2sin, hsin)                                                    \
  MEMCARLO_NARROW_PAIR_UNARY(Pair, h2cos, hcos)                                                    \
  MEMCARLO_NARROW_PAIR_UNARY(Pair, h2tanh, htanh)                                                  \
  MEMCARLO_NARROW_PAIR_UNARY(Pair, h2floor, hfloor)                                                \
  MEMCARLO_NARROW_PAIR_UNARY(Pair, h2ceil, hceil)                                                  \
  MEMCARLO_NARROW_PAIR_UNARY(Pair, h2trunc, htrunc)                                                \
  MEMCARLO_NARROW_PAIR_UNARY(Pair, h2rint, hrint)                                                  \
  inline Pair __lowhigh2highlow(const Pair first) {                                                \
    return Pair(first.y, first.x);                                                                 \
  }                                                                                                \
  inline float __low2float(const Pair first) {                                                     \
    return static_cast<float>(first.x);                                                            \
  }                                                                                                \
  inline float __high2float(const Pair first) {                                                    \
    return static_cast<float>(first.y);                                                            \
  }                                                                                                \
  inline Pair operator+(const Pair& first, const Pair& second) {                                   \
    return __hadd2(first, second);                                                                 \
  }                                                                                                \
  inline Pair operator-(const Pair& first, const Pair& second) {                                   \
    return __hsub2(first, second);                                                                 \
  }                                                                                                \
  inline Pair operator*(const Pair& first, const Pair& second) {                                   \
    return __hmul2(first, second);                                                                 \
  }                                                                                                \
  inline Pair operator/(const Pair& first, const Pair& second) {                                   \
    return __h2div(first, second);                                                                 \
  }                                                                                                \
  inline Pair& operator+=(Pair& first, const Pair& second) {                                       \
    return first = __hadd2(first, second);                                                         \
  }                                                                                                \
  inline Pair& operator-=(Pair& first, const Pair& second) {                                       \
    return first = __hsub2(first, second);                                                         \
  }                                                                                                \
  inline Pair& operator*=(Pair& first, const Pair& second) {                                       \
    return first = __hmul2(first, second);                                                         \
  }                                                                                                \
  inline Pair& operator/=(Pair& first, const Pair& second) {                                       \
    return first = __h2div(first, second);                                                         \
  }                                                                                                \
  inline Pair operator+(const Pair& first) {                                                       \
    return first;                                                                                  \
  }                                                                                                \
  inline Pair operator-(const Pair& first) {                                                       \
    return __hneg2(first);                                                                         \
  }                                                                                                \
  inline bool operator==(const Pair& first, const Pair& second) {                                  \
    return __hbeq2(first, second);                                                                 \
  }                                                                                                \
  inline bool operator!=(const Pair& first, const Pair& second) {                                  \
    return __hbneu2(first, second);                                                                \
  }                                                                                                \
  inline bool operator<(const Pair& first, const Pair& second) {                                   \
    return __hblt2(first, second);                                                                 \
  }                                                                                                \
  inline bool operator>(const Pair& first, const Pair& second) {                                   \
    return __hbgt2(first, second);                                                                 \
  }                                                                                                \
  inline bool operator<=(const Pair& first, const Pair& second) {                                  \
    return __hble2(first, second);                                                                 \
  }                                                                                                \
  inline bool operator>=(const Pair& first, const Pair& second) {                                  \
    return __hbge2(first, second);                                                                 \
  }                                                                                                \
  inline Pair atomicAdd(Pair* address, const Pair value) {                                         \
    return ::memcarlo::host::detail::narrow_atomic_add(                                            \
        address, value, [](Pair first, Pair second) { return __hadd2(first, second); });           \
  }

#define MEMCARLO_NARROW_PAIR_BINARY(Pair, name, scalar_name)                     \
  inline Pair name(const Pair first, const Pair second) {                        \
    return Pair(scalar_name(first.x, second.x), scalar_name(first.y, second.y)); \
  }
#define MEMCARLO_NARROW_PAIR_UNARY(Pair, name, scalar_name)  \
  inline Pair name(const Pair first) {                       \
    return Pair(scalar_name(first.x), scalar_name(first.y)); \
  }
// name: 1.0 or 0.0 per lane; boolean_name: both lanes true; mask_name: 0xFFFF per true lane.
#define MEMCARLO_NARROW_PAIR_COMPARISON(Pair, Scalar, name, boolean_name, mask_name, scalar_name) \
  inline Pair name(const Pair first, const Pair second) {                                         \
    return Pair(Scalar(scalar_name(first.x, second.x) ? 1.0f : 0.0f),                             \
                Scalar(scalar_name(first.y, second.y) ? 1.0f : 0.0f));                            \
  }                                                                                               \
  inline bool boolean_name(const Pair first, const Pair second) {                                 \
    return scalar_name(first.x, second.x) && scalar_name(first.y, second.y);                      \
  }                                                                                               \
  inline unsigned mask_name(const Pair first, const Pair second) {                                \
    return (scalar_name(first.x, second.x) ? 0xFFFFu : 0u) |                                      \
           (scalar_name(first.y, second.y) ? 0xFFFF0000u : 0u);                                   \
  }

// Integer conversions with the four rounding suffixes, both ways: prefix##2##name##_rn(x) and
// name##2##prefix##_rn(i), e.g. __half2int_rz and __int2half_rn.
#define MEMCARLO_NARROW_INTEGER_CONVERSIONS(Scalar, scalar_name, integer_name, Integer, nan_value) \
  MEMCARLO_NARROW_INTEGER_CONVERSION(Scalar, scalar_name, integer_name, Integer, nan_value, _rn,   \
                                     kNearestEven)                                                 \
  MEMCARLO_NARROW_INTEGER_CONVERSION(Scalar, scalar_name, integer_name, Integer, nan_value, _rz,   \
                                     kTowardZero)                                                  \
  MEMCARLO_NARROW_INTEGER_CONVERSION(Scalar, scalar_name, integer_name, Integer, nan_value, _rd,   \
                                     kDown)                                                        \
  MEMCARLO_NARROW_INTEGER_CONVERSION(Scalar, scalar_name, integer_name, Integer, nan_value, _ru,   \
                                     kUp)
#define MEMCARLO_NARROW_INTEGER_CONVERSION(Scalar, scalar_name, integer_name, Integer, nan_value, \
                                           suffix, mode)                                          \
  inline Integer __##scalar_name##2##integer_name##suffix(const Scalar first) {                   \
    using namespace ::memcarlo::host::detail;                                                     \
    return narrow_to_integer<Integer>(narrow_to_double(first), Rounding::mode,                    \
                                      static_cast<Integer>(nan_value));                           \
  }                                                                                               \
  inline Scalar __##integer_name##2##scalar_name##suffix(const Integer integer) {                 \
    using namespace ::memcarlo::host::detail;                                                     \
    return narrow_round<Scalar>(static_cast<double>(integer), Rounding::mode);                    \
  }
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
