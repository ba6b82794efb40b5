// CUDA device intrinsics on the host: fast-math forms computed exactly, bit reinterpretations,
// integer intrinsics, CUDA's global min/max overloads, __ldg and the cache-hinted loads and stores
// (plain accesses on the host).
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file
// are CUDA's.
#pragma once

#include <math.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>

#include "memcarlo/host/detail/narrow_floats.h"

// ---- lerp
// ----------------------------------------------------------------------------------------
//
// CUDA code defines its own global lerp(float, float, float) (the CUDA samples' helper_math.h,
// for host and device). Compiled as C++20, as the host backend compiles programs, libstdc++'s
// <math.h> declares ::lerp (`using std::lerp`) with those very parameters and the definition
// conflicts with it; nvcc compiles host code as C++17, where there is no std::lerp. So the name
// is taken over once <cmath> and <math.h> are in: a program's lerp, defined or called, is
// memcarlo_lerp, and where the program defines none, memcarlo_lerp (also as std::lerp) is C++20's.
template <class First, class Second, class Weight>
constexpr auto memcarlo_lerp(First first, Second second, Weight weight) noexcept
    -> decltype(std::lerp(first, second, weight)) {
  return std::lerp(first, second, weight);
}
namespace std {
using ::memcarlo_lerp;
}  // namespace std
#define lerp memcarlo_lerp

// ---- floating point
// ------------------------------------------------------------------------------

inline float __fdividef(float x, float y) {
  return x / y;
}
inline float __fdiv_rn(float x, float y) {
  return x / y;
}
inline float __fadd_rn(float x, float y) {
  return x + y;
}
inline float __fsub_rn(float x, float y) {
  return x - y;
}
inline float __fmul_rn(float x, float y) {
  return x * y;
}
inline float __fmaf_rn(float x, float y, float z) {
  return std::fma(x, y, z);
}
inline float __frcp_rn(float x) {
  return 1.0f / x;
}
inline float __fsqrt_rn(float x) {
  return std::sqrt(x);
}
inline float __frsqrt_rn(float x) {
  return 1.0f / std::sqrt(x);
}
inline double __dadd_rn(double x, double y) {
  return x + y;
}
inline double __dsub_rn(double x, double y) {
  return x - y;
}
inline double __dmul_rn(double x, double y) {
  return x * y;
}
inline double __ddiv_rn(double x, double y) {
  return x / y;
}
inline double __fma_rn(double x, double y, double z) {
  return std::fma(x, y, z);
}
inline double __drcp_rn(double x) {
  return 1.0 / x;
}
inline double __dsqrt_rn(double x) {
  return std::sqrt(x);
}

// Directed rounding (_rd toward -inf, _ru toward +inf, _rz toward zero) of add, sub, mul, div,
// rcp and sqrt, as interval arithmetic uses them (the CUDA samples' `interval`): the operation is
// computed rounded to nearest, its exact error found (TwoSum for add; an FMA residual for mul,
// div and sqrt; float products exactly in double), and the result stepped one ulp where the
// exact value lies beyond it in the rounding's direction. An overflow rounded toward zero gives
// the largest finite value; an exact zero sum is -0 rounded down. The fused multiply-adds'
// directed forms are not provided (no exact error from one FMA).
namespace memcarlo::host::detail {

/// The directed rounding of the exact value `nearest + error` (only the sign of `error` counts),
/// where `nearest` is its rounding to nearest; `exact` says `nearest` is exact whatever it is (an
/// infinite operand, a division by zero).
template <class Real, class Error>
Real round_directed(Real nearest, Error error, bool exact, Rounding rounding) {
  constexpr Real infinity = std::numeric_limits<Real>::infinity();
  if (std::isnan(nearest) || exact) return nearest;
  if (std::isinf(nearest)) {  // an overflow: rounding toward zero from it stops at the largest
    const Real largest = std::numeric_limits<Real>::max();
    if (nearest > 0 && rounding != Rounding::kUp) return largest;
    if (nearest < 0 && rounding != Rounding::kDown) return -largest;
    return nearest;
  }
  if (error == 0) return nearest;
  const bool positive = nearest > 0 || (nearest == 0 && error > 0);
  const bool down = rounding == Rounding::kDown || (rounding == Rounding::kTowardZero && positive);
  if (down) return error < 0 ? std::nextafter(nearest, -infinity) : nearest;
  return error > 0 ? std::nextafter(nearest, infinity) : nearest;
}

template <class Real>
Real rounded_add(Real x, Real y, Rounding rounding) {
  const Real sum = x + y;
  const Real shifted = sum - x;
  const Real error = (x - (sum - shifted)) + (y - shifted);  // TwoSum: exact
  if (sum == 0 && error == 0 && rounding == Rounding::kDown &&
      !(x == 0 && y == 0 && !std::signbit(x) && !std::signbit(y))) {
    return -Real(0);  // an exact zero sum rounded down is -0 (IEEE 754)
  }
  return round_directed(sum, error, !std::isfinite(x) || !std::isfinite(y), rounding);
}

inline float rounded_mul(float x, float y, Rounding rounding) {
  const double exact = static_cast<double>(x) * y;  // 48 bits: exact in double
  const float nearest = static_cast<float>(exact);
  return round_directed(nearest, exact - nearest, !std::isfinite(x) || !std::isfinite(y),
                        rounding);
}
inline double rounded_mul(double x, double y, Rounding rounding) {
  const double product = x * y;
  return round_directed(product, std::fma(x, y, -product), !std::isfinite(x) || !std::isfinite(y),
                        rounding);
}

template <class Real>
Real rounded_div(Real x, Real y, Rounding rounding) {
  const Real quotient = x / y;
  const Real residual = std::fma(-quotient, y, x);  // x - quotient * y, exact
  const Real error = y > 0 ? residual : -residual;  // the sign of x / y - quotient
  return round_directed(quotient, error, !std::isfinite(x) || !std::isfinite(y) || y == 0,
                        rounding);
}

template <class Real>
Real rounded_sqrt(Real x, Rounding rounding) {
  const Real root = std::sqrt(x);
  return round_directed(root, std::fma(-root, root, x), !std::isfinite(x) || x <= 0, rounding);
}

}  // namespace memcarlo::host::detail

#define MEMCARLO_DIRECTED_ROUNDING(suffix, mode)                                              \
  inline float __fadd_##suffix(float x, float y) {                                           \
    return ::memcarlo::host::detail::rounded_add(x, y, mode);                                \
  }                                                                                          \
  inline float __fsub_##suffix(float x, float y) {                                           \
    return ::memcarlo::host::detail::rounded_add(x, -y, mode);                               \
  }                                                                                          \
  inline float __fmul_##suffix(float x, float y) {                                           \
    return ::memcarlo::host::detail::rounded_mul(x, y, mode);                                \
  }                                                                                          \
  inline float __fdiv_##suffix(float x, float y) {                                           \
    return ::memcarlo::host::detail::rounded_div(x, y, mode);                                \
  }                                                                                          \
  inline float __frcp_##suffix(float x) {                                                    \
    return ::memcarlo::host::detail::rounded_div(1.0f, x, mode);                             \
  }                                                                                          \
  inline float __fsqrt_##suffix(float x) {                                                   \
    return ::memcarlo::host::detail::rounded_sqrt(x, mode);                                  \
  }                                                                                          \
  inline double __dadd_##suffix(double x, double y) {                                        \
    return ::memcarlo::host::detail::rounded_add(x, y, mode);                                \
  }                                                                                          \
  inline double __dsub_##suffix(double x, double y) {                                        \
    return ::memcarlo::host::detail::rounded_add(x, -y, mode);                               \
  }                                                                                          \
  inline double __dmul_##suffix(double x, double y) {                                        \
    return ::memcarlo::host::detail::rounded_mul(x, y, mode);                                \
  }                                                                                          \
  inline double __ddiv_##suffix(double x, double y) {                                        \
    return ::memcarlo::host::detail::rounded_div(x, y, mode);                                \
  }                                                                                          \
  inline double __drcp_##suffix(double x) {                                                  \
    return ::memcarlo::host::detail::rounded_div(1.0, x, mode);                              \
  }                                                                                          \
  inline double __dsqrt_##suffix(double x) {                                                 \
    return ::memcarlo::host::detail::rounded_sqrt(x, mode);                                  \
  }
MEMCARLO_DIRECTED_ROUNDING(rd, ::memcarlo::host::detail::Rounding::kDown)
MEMCARLO_DIRECTED_ROUNDING(ru, ::memcarlo::host::detail::Rounding::kUp)
MEMCARLO_DIRECTED_ROUNDING(rz, ::memcarlo::host::detail::Rounding::kTowardZero)
#undef MEMCARLO_DIRECTED_ROUNDING

// A template (as min and max below), so that a program's own host definition of rsqrtf (CUDA
// samples' helper_math.h defines one where __CUDACC__ is not defined) is no redefinition.
template <class = void>
inline float rsqrtf(float x) {
  return 1.0f / std::sqrt(x);
}
inline double rsqrt(double x) {
  return 1.0 / std::sqrt(x);
}
inline float rcbrtf(float x) {
  return 1.0f / std::cbrt(x);
}
inline double rcbrt(double x) {
  return 1.0 / std::cbrt(x);
}
inline float __saturatef(float x) {
  return x >= 1.0f ? 1.0f : (x > 0.0f ? x : 0.0f);
}
inline float rhypotf(float x, float y) {
  return 1.0f / std::hypot(x, y);
}
inline float norm3df(float x, float y, float z) {
  return std::sqrt(x * x + y * y + z * z);
}
inline float rnorm3df(float x, float y, float z) {
  return 1.0f / norm3df(x, y, z);
}
inline float norm4df(float x, float y, float z, float w) {
  return std::sqrt(x * x + y * y + z * z + w * w);
}
inline float rnorm4df(float x, float y, float z, float w) {
  return 1.0f / norm4df(x, y, z, w);
}
inline float sinpif(float x) {
  return std::sin(x * 3.14159265358979323846f);
}
inline float cospif(float x) {
  return std::cos(x * 3.14159265358979323846f);
}
inline double sinpi(double x) {
  return std::sin(x * 3.14159265358979323846);
}
inline double cospi(double x) {
  return std::cos(x * 3.14159265358979323846);
}
inline void sincospif(float x, float* sine, float* cosine) {
  *sine = sinpif(x);
  *cosine = cospif(x);
}
inline void __sincosf(float x, float* sine, float* cosine) noexcept {
  *sine = std::sin(x);
  *cosine = std::cos(x);
}
// glibc's <math.h> declares __expf, __logf, ... (noexcept, C linkage) without exporting them
// from libm; these definitions complete those declarations.
inline float __expf(float x) noexcept {
  return ::expf(x);
}
inline float __exp2f(float x) noexcept {
  return ::exp2f(x);
}
inline float __exp10f(float x) noexcept {
  return ::powf(10.0f, x);
}
inline float __logf(float x) noexcept {
  return ::logf(x);
}
inline float __log2f(float x) noexcept {
  return ::log2f(x);
}
inline float __log10f(float x) noexcept {
  return ::log10f(x);
}
inline float __sinf(float x) noexcept {
  return ::sinf(x);
}
inline float __cosf(float x) noexcept {
  return ::cosf(x);
}
inline float __tanf(float x) noexcept {
  return ::tanf(x);
}
inline float __powf(float x, float y) noexcept {
  return ::powf(x, y);
}

// ---- conversions and reinterpretations
// -----------------------------------------------------------

inline int __float_as_int(float x) {
  return std::bit_cast<int>(x);
}
inline unsigned __float_as_uint(float x) {
  return std::bit_cast<unsigned>(x);
}
inline float __int_as_float(int x) {
  return std::bit_cast<float>(x);
}
inline float __uint_as_float(unsigned x) {
  return std::bit_cast<float>(x);
}
inline long long __double_as_longlong(double x) {
  return std::bit_cast<long long>(x);
}
inline double __longlong_as_double(long long x) {
  return std::bit_cast<double>(x);
}
inline int __double2hiint(double x) {
  return static_cast<int>(static_cast<std::uint64_t>(std::bit_cast<long long>(x)) >> 32);
}
inline int __double2loint(double x) {
  return static_cast<int>(static_cast<std::uint32_t>(std::bit_cast<unsigned long long>(x)));
}
inline double __hiloint2double(int high, int low) {
  return std::bit_cast<double>(
      (static_cast<std::uint64_t>(static_cast<std::uint32_t>(high)) << 32) |
      static_cast<std::uint32_t>(low));
}
inline int __float2int_rn(float x) {
  return static_cast<int>(std::nearbyint(x));
}
inline int __float2int_rz(float x) {
  return static_cast<int>(std::trunc(x));
}
inline int __float2int_rd(float x) {
  return static_cast<int>(std::floor(x));
}
inline int __float2int_ru(float x) {
  return static_cast<int>(std::ceil(x));
}
inline unsigned __float2uint_rn(float x) {
  return static_cast<unsigned>(std::nearbyint(x));
}
inline unsigned __float2uint_rz(float x) {
  return static_cast<unsigned>(std::trunc(x));
}
inline int __double2int_rn(double x) {
  return static_cast<int>(std::nearbyint(x));
}
inline int __double2int_rz(double x) {
  return static_cast<int>(std::trunc(x));
}
inline float __int2float_rn(int x) {
  return static_cast<float>(x);
}
inline float __uint2float_rn(unsigned x) {
  return static_cast<float>(x);
}
inline float __double2float_rn(double x) {
  return static_cast<float>(x);
}
inline double __int2double_rn(int x) {
  return static_cast<double>(x);
}

// ---- integer intrinsics
// --------------------------------------------------------------------------

inline int __popc(unsigned x) {
  return std::popcount(x);
}
inline int __popcll(unsigned long long x) {
  return std::popcount(x);
}
inline int __clz(int x) {
  return std::countl_zero(static_cast<unsigned>(x));
}
inline int __clzll(long long x) {
  return std::countl_zero(static_cast<unsigned long long>(x));
}
inline int __ffs(int x) {
  return x == 0 ? 0 : std::countr_zero(static_cast<unsigned>(x)) + 1;
}
inline int __ffsll(long long x) {
  return x == 0 ? 0 : std::countr_zero(static_cast<unsigned long long>(x)) + 1;
}
inline unsigned __brev(unsigned x) {
  unsigned reversed = 0;
  for (int bit = 0; bit < 32; ++bit, x >>= 1) {
    reversed = (reversed << 1) | (x & 1u);
  }
  return reversed;
}
inline unsigned long long __brevll(unsigned long long x) {
  return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) |
         __brev(static_cast<unsigned>(x >> 32));
}
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned selector) {
  const std::uint64_t bytes = (static_cast<std::uint64_t>(y) << 32) | x;
  unsigned result = 0;
  for (unsigned byte = 0; byte < 4; ++byte) {
    const unsigned which = (selector >> (4 * byte)) & 7u;
    result |= static_cast<unsigned>((bytes >> (8 * which)) & 0xffu) << (8 * byte);
  }
  return result;
}
inline int __mul24(int x, int y) {
  // Sign-extend the low 24 bits of each operand, as the hardware does.
  const auto low24 = [](int value) {
    return static_cast<int>(static_cast<unsigned>(value) << 8) >> 8;
  };
  return low24(x) * low24(y);
}
inline unsigned __umul24(unsigned x, unsigned y) {
  return (x & 0xffffffu) * (y & 0xffffffu);
}
inline int __mulhi(int x, int y) {
  return static_cast<int>((static_cast<long long>(x) * y) >> 32);
}
inline unsigned __umulhi(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) * y) >> 32);
}
__extension__ typedef __int128 memcarlo_int128;
__extension__ typedef unsigned __int128 memcarlo_uint128;
inline long long __mul64hi(long long x, long long y) {
  return static_cast<long long>((static_cast<memcarlo_int128>(x) * y) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return static_cast<unsigned long long>((static_cast<memcarlo_uint128>(x) * y) >> 64);
}
inline unsigned __sad(int x, int y, unsigned z) {
  return z + static_cast<unsigned>(x > y ? x - y : y - x);
}
inline unsigned __usad(unsigned x, unsigned y, unsigned z) {
  return z + (x > y ? x - y : y - x);
}
inline int __hadd(int x, int y) {
  return static_cast<int>((static_cast<long long>(x) + y) >> 1);
}
inline int __rhadd(int x, int y) {
  return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1);
}
inline unsigned __uhadd(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) + y) >> 1);
}
inline unsigned __urhadd(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}
inline unsigned __funnelshift_l(unsigned low, unsigned high, unsigned shift) {
  const std::uint64_t both = (static_cast<std::uint64_t>(high) << 32) | low;
  return static_cast<unsigned>((both << (shift & 31u)) >> 32);
}
inline unsigned __funnelshift_r(unsigned low, unsigned high, unsigned shift) {
  const std::uint64_t both = (static_cast<std::uint64_t>(high) << 32) | low;
  return static_cast<unsigned>(both >> (shift & 31u));
}

// ---- CUDA's global min and max (mixed signedness converts to unsigned, as in CUDA) --------------
//
// The overloads of CUDA's math_functions.hpp, which nvcc makes visible to host code as well (the
// CUDA samples call max(a, b) on floats in main). They are function templates whose template
// parameter is never deduced (`template <class = void>`), so that a program may define its own
// global min(int, int) or max(int, int) for host code, as the CUDA samples' helper_math.h does
// where __CUDACC__ is not defined: that is no redefinition, and the program's non-template wins
// a tie. Among themselves the overloads resolve as CUDA's non-templates do (by conversions), and
// with std::max visible through `using namespace std` a call with two arguments of one type is not
// ambiguous (same result either way); std::max(a, b) is untouched.

#define MEMCARLO_MIN_MAX(first_type, second_type, result_type)                                   \
  template <class = void>                                                                        \
  inline result_type min(first_type first, second_type second) {                                 \
    const result_type x = static_cast<result_type>(first), y = static_cast<result_type>(second); \
    return y < x ? y : x;                                                                        \
  }                                                                                              \
  template <class = void>                                                                        \
  inline result_type max(first_type first, second_type second) {                                 \
    const result_type x = static_cast<result_type>(first), y = static_cast<result_type>(second); \
    return x < y ? y : x;                                                                        \
  }
MEMCARLO_MIN_MAX(int, int, int)
MEMCARLO_MIN_MAX(unsigned, unsigned, unsigned)
MEMCARLO_MIN_MAX(int, unsigned, unsigned)
MEMCARLO_MIN_MAX(unsigned, int, unsigned)
MEMCARLO_MIN_MAX(long, long, long)
MEMCARLO_MIN_MAX(unsigned long, unsigned long, unsigned long)
MEMCARLO_MIN_MAX(long, unsigned long, unsigned long)
MEMCARLO_MIN_MAX(unsigned long, long, unsigned long)
MEMCARLO_MIN_MAX(long long, long long, long long)
MEMCARLO_MIN_MAX(unsigned long long, unsigned long long, unsigned long long)
MEMCARLO_MIN_MAX(long long, unsigned long long, unsigned long long)
MEMCARLO_MIN_MAX(unsigned long long, long long, unsigned long long)
#undef MEMCARLO_MIN_MAX
// CUDA's named integer forms (umin, llmax, ...: the samples' mergeSort calls umin), templates for
// the same reason.
#define MEMCARLO_NAMED_MIN_MAX(min_name, max_name, type)   \
  template <class = void>                                  \
  inline type min_name(type first, type second) {          \
    return second < first ? second : first;                \
  }                                                        \
  template <class = void>                                  \
  inline type max_name(type first, type second) {          \
    return first < second ? second : first;                \
  }
MEMCARLO_NAMED_MIN_MAX(umin, umax, unsigned)
MEMCARLO_NAMED_MIN_MAX(llmin, llmax, long long)
MEMCARLO_NAMED_MIN_MAX(ullmin, ullmax, unsigned long long)
#undef MEMCARLO_NAMED_MIN_MAX
template <class = void>
inline float min(float x, float y) {
  return std::fmin(x, y);
}
template <class = void>
inline float max(float x, float y) {
  return std::fmax(x, y);
}
template <class = void>
inline double min(double x, double y) {
  return std::fmin(x, y);
}
template <class = void>
inline double max(double x, double y) {
  return std::fmax(x, y);
}
template <class = void>
inline double min(float x, double y) {
  return std::fmin(static_cast<double>(x), y);
}
template <class = void>
inline double max(float x, double y) {
  return std::fmax(static_cast<double>(x), y);
}
template <class = void>
inline double min(double x, float y) {
  return std::fmin(x, static_cast<double>(y));
}
template <class = void>
inline double max(double x, float y) {
  return std::fmax(x, static_cast<double>(y));
}

// ---- loads and stores with cache hints, clocks
// ---------------------------------------------------

template <class Value>
Value __ldg(const Value* address) {
  return *address;
}
template <class Value>
Value __ldca(const Value* address) {
  return *address;
}
template <class Value>
Value __ldcg(const Value* address) {
  return *address;
}
template <class Value>
Value __ldcs(const Value* address) {
  return *address;
}
template <class Value>
Value __ldlu(const Value* address) {
  return *address;
}
template <class Value>
Value __ldcv(const Value* address) {
  return *address;
}
template <class Value>
void __stwb(Value* address, Value value) {
  *address = value;
}
template <class Value>
void __stcg(Value* address, Value value) {
  *address = value;
}
template <class Value>
void __stcs(Value* address, Value value) {
  *address = value;
}
template <class Value>
void __stwt(Value* address, Value value) {
  *address = value;
}

inline long long clock64() {
  return static_cast<long long>(std::chrono::steady_clock::now().time_since_epoch().count());
}
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
