// Stand-in for CUDA's <cuda_fp16.h> on the host backend: __half (IEEE binary16) and __half2, their
// conversions, arithmetic, comparisons, math functions and operators, bit-exact with the GPU's
// round-to-nearest-even (and _rz/_rd/_ru where the name says so). A __half is two bytes and a
// __half2 four, so a probed access to one in global memory is traced as a 2- or 4-byte access.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names are CUDA's.
#pragma once
#include "memcarlo/host/cuda_runtime_emulation.h"
#include "memcarlo/host/detail/narrow_float_api.h"

#define __CUDA_FP16_H__
#define __CUDA_FP16_HPP__
#define __CUDA_FP16_TYPES_EXIST__

struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x;
  unsigned short y;
};

struct alignas(2) __half {
  unsigned short __x;  // CUDA's member name; the bits

  __half() = default;
  constexpr __half(const __half_raw& raw) : __x(raw.x) {}
  __half(float value) : __x(rounded(value)) {}
  __half(double value) : __x(rounded(value)) {}
  __half(short value) : __x(rounded(value)) {}
  __half(unsigned short value) : __x(rounded(value)) {}
  __half(int value) : __x(rounded(value)) {}
  __half(unsigned int value) : __x(rounded(value)) {}
  __half(long value) : __x(rounded(static_cast<double>(value))) {}
  __half(unsigned long value) : __x(rounded(static_cast<double>(value))) {}
  __half(long long value) : __x(rounded(static_cast<double>(value))) {}
  __half(unsigned long long value) : __x(rounded(static_cast<double>(value))) {}
  __half& operator=(const __half_raw& raw) {
    __x = raw.x;
    return *this;
  }
  constexpr operator __half_raw() const { return __half_raw{__x}; }
  operator float() const {
    return static_cast<float>(
        ::memcarlo::host::detail::ieee_narrow_value(__x, ::memcarlo::host::detail::kBinary16));
  }

 private:
  static unsigned short rounded(double value) {
    return ::memcarlo::host::detail::ieee_narrow_bits(
        value, ::memcarlo::host::detail::kBinary16,
        ::memcarlo::host::detail::Rounding::kNearestEven);
  }
};

struct alignas(4) __half2 {
  __half x;
  __half y;

  __half2() = default;
  constexpr __half2(const __half& low, const __half& high) : x(low), y(high) {}
  constexpr __half2(const __half2_raw& raw) : x(__half_raw{raw.x}), y(__half_raw{raw.y}) {}
  __half2& operator=(const __half2_raw& raw) {
    x = __half_raw{raw.x};
    y = __half_raw{raw.y};
    return *this;
  }
  constexpr operator __half2_raw() const { return __half2_raw{x.__x, y.__x}; }
};

typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;
typedef __half_raw __nv_half_raw;
typedef __half2_raw __nv_half2_raw;

namespace memcarlo::host::detail {
template <>
struct NarrowOf<__half> {
  static constexpr NarrowFormat format = kBinary16;
};
}  // namespace memcarlo::host::detail

// ---- bits and conversions
// ------------------------------------------------------------------------
inline short __half_as_short(const __half number) {
  return static_cast<short>(number.__x);
}
inline unsigned short __half_as_ushort(const __half number) {
  return number.__x;
}
inline __half __short_as_half(const short integer) {
  return __half_raw{static_cast<unsigned short>(integer)};
}
inline __half __ushort_as_half(const unsigned short integer) {
  return __half_raw{integer};
}

inline float __half2float(const __half first) {
  return static_cast<float>(first);
}
inline __half __float2half(const float first) {
  return __half(first);
}
inline __half __float2half_rn(const float first) {
  return __half(first);
}
inline __half __float2half_rz(const float first) {
  using namespace ::memcarlo::host::detail;
  return narrow_round<__half>(first, Rounding::kTowardZero);
}
inline __half __float2half_rd(const float first) {
  using namespace ::memcarlo::host::detail;
  return narrow_round<__half>(first, Rounding::kDown);
}
inline __half __float2half_ru(const float first) {
  using namespace ::memcarlo::host::detail;
  return narrow_round<__half>(first, Rounding::kUp);
}
/// Rounds the double once (cvt.rn.f16.f64), not through a float.
inline __half __double2half(const double first) {
  return __half(first);
}

MEMCARLO_NARROW_INTEGER_CONVERSIONS(__half, half, int, int, 0)
MEMCARLO_NARROW_INTEGER_CONVERSIONS(__half, half, uint, unsigned int, 0)
MEMCARLO_NARROW_INTEGER_CONVERSIONS(__half, half, short, short, 0)
MEMCARLO_NARROW_INTEGER_CONVERSIONS(__half, half, ushort, unsigned short, 0)
MEMCARLO_NARROW_INTEGER_CONVERSIONS(__half, half, ll, long long, 0x8000000000000000LL)
MEMCARLO_NARROW_INTEGER_CONVERSIONS(__half, half, ull, unsigned long long, 0x8000000000000000ULL)

inline __half2 make_half2(const __half x, const __half y) {
  return __half2(x, y);
}
inline __half2 __halves2half2(const __half first, const __half second) {
  return __half2(first, second);
}
inline __half2 __half2half2(const __half first) {
  return __half2(first, first);
}
inline __half __low2half(const __half2 first) {
  return first.x;
}
inline __half __high2half(const __half2 first) {
  return first.y;
}
inline __half2 __low2half2(const __half2 first) {
  return __half2(first.x, first.x);
}
inline __half2 __high2half2(const __half2 first) {
  return __half2(first.y, first.y);
}
inline __half2 __lows2half2(const __half2 first, const __half2 second) {
  return __half2(first.x, second.x);
}
inline __half2 __highs2half2(const __half2 first, const __half2 second) {
  return __half2(first.y, second.y);
}
inline __half2 __float2half2_rn(const float first) {
  return __half2(__half(first), __half(first));
}
inline __half2 __floats2half2_rn(const float first, const float second) {
  return __half2(__half(first), __half(second));
}
inline __half2 __float22half2_rn(const float2 first) {
  return __half2(__half(first.x), __half(first.y));
}
inline float2 __half22float2(const __half2 first) {
  return make_float2(static_cast<float>(first.x), static_cast<float>(first.y));
}

MEMCARLO_NARROW_SCALAR_API(__half)
MEMCARLO_NARROW_PAIR_API(__half2, __half)

// Complex multiply-add on (real, imaginary) pairs: (a * b) + c.
inline __half2 __hcmadd(const __half2 first, const __half2 second, const __half2 third) {
  const __half real = __hfma(__hneg(first.y), second.y, __hfma(first.x, second.x, third.x));
  const __half imaginary = __hfma(first.y, second.x, __hfma(first.x, second.y, third.y));
  return __half2(real, imaginary);
}

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
