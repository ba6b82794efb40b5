// Stand-in for CUDA's <cuda_bf16.h> on the host backend: __nv_bfloat16 (8 exponent and 7 fraction
// bits) and __nv_bfloat162, with the same API as cuda_fp16.h's types (__hadd, __hfma, ... are
// overloaded on them) and the bfloat16 conversions, bit-exact with the GPU's round-to-nearest-even.
// A conversion of NaN gives the canonical 0x7FFF, as CUDA's does.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names are CUDA's.
#pragma once
#include "memcarlo/host/cuda_runtime_emulation.h"
#include "memcarlo/host/detail/narrow_float_api.h"

#define __CUDA_BF16_H__
#define __CUDA_BF16_HPP__
#define __CUDA_BF16_TYPES_EXIST__

struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat162_raw {
  unsigned short x;
  unsigned short y;
};

struct alignas(2) __nv_bfloat16 {
  unsigned short __x;  // CUDA's member name; the bits

  __nv_bfloat16() = default;
  constexpr __nv_bfloat16(const __nv_bfloat16_raw& raw) : __x(raw.x) {}
  __nv_bfloat16(float value) : __x(rounded(value)) {}
  __nv_bfloat16(double value) : __x(rounded(value)) {}
  __nv_bfloat16(short value) : __x(rounded(value)) {}
  __nv_bfloat16(unsigned short value) : __x(rounded(value)) {}
  __nv_bfloat16(int value) : __x(rounded(value)) {}
  __nv_bfloat16(unsigned int value) : __x(rounded(value)) {}
  __nv_bfloat16(long value) : __x(rounded(static_cast<double>(value))) {}
  __nv_bfloat16(unsigned long value) : __x(rounded(static_cast<double>(value))) {}
  __nv_bfloat16(long long value) : __x(rounded(static_cast<double>(value))) {}
  __nv_bfloat16(unsigned long long value) : __x(rounded(static_cast<double>(value))) {}
  __nv_bfloat16& operator=(const __nv_bfloat16_raw& raw) {
    __x = raw.x;
    return *this;
  }
  constexpr operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }
  operator float() const {
    return static_cast<float>(
        ::memcarlo::host::detail::ieee_narrow_value(__x, ::memcarlo::host::detail::kBfloat16));
  }

 private:
  static unsigned short rounded(double value) {
    return ::memcarlo::host::detail::ieee_narrow_bits(
        value, ::memcarlo::host::detail::kBfloat16,
        ::memcarlo::host::detail::Rounding::kNearestEven);
  }
};

struct alignas(4) __nv_bfloat162 {
  __nv_bfloat16 x;
  __nv_bfloat16 y;

  __nv_bfloat162() = default;
  constexpr __nv_bfloat162(const __nv_bfloat16& low, const __nv_bfloat16& high) : x(low), y(high) {}
  constexpr __nv_bfloat162(const __nv_bfloat162_raw& raw)
      : x(__nv_bfloat16_raw{raw.x}), y(__nv_bfloat16_raw{raw.y}) {}
  __nv_bfloat162& operator=(const __nv_bfloat162_raw& raw) {
    x = __nv_bfloat16_raw{raw.x};
    y = __nv_bfloat16_raw{raw.y};
    return *this;
  }
  constexpr operator __nv_bfloat162_raw() const { return __nv_bfloat162_raw{x.__x, y.__x}; }
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

namespace memcarlo::host::detail {
template <>
struct NarrowOf<__nv_bfloat16> {
  static constexpr NarrowFormat format = kBfloat16;
};
}  // namespace memcarlo::host::detail

// ---- bits and conversions
// ------------------------------------------------------------------------
inline short __bfloat16_as_short(const __nv_bfloat16 number) {
  return static_cast<short>(number.__x);
}
inline unsigned short __bfloat16_as_ushort(const __nv_bfloat16 number) {
  return number.__x;
}
inline __nv_bfloat16 __short_as_bfloat16(const short integer) {
  return __nv_bfloat16_raw{static_cast<unsigned short>(integer)};
}
inline __nv_bfloat16 __ushort_as_bfloat16(const unsigned short integer) {
  return __nv_bfloat16_raw{integer};
}

inline float __bfloat162float(const __nv_bfloat16 first) {
  return static_cast<float>(first);
}
inline __nv_bfloat16 __float2bfloat16(const float first) {
  return __nv_bfloat16(first);
}
inline __nv_bfloat16 __float2bfloat16_rn(const float first) {
  return __nv_bfloat16(first);
}
inline __nv_bfloat16 __float2bfloat16_rz(const float first) {
  using namespace ::memcarlo::host::detail;
  return narrow_round<__nv_bfloat16>(first, Rounding::kTowardZero);
}
inline __nv_bfloat16 __float2bfloat16_rd(const float first) {
  using namespace ::memcarlo::host::detail;
  return narrow_round<__nv_bfloat16>(first, Rounding::kDown);
}
inline __nv_bfloat16 __float2bfloat16_ru(const float first) {
  using namespace ::memcarlo::host::detail;
  return narrow_round<__nv_bfloat16>(first, Rounding::kUp);
}
/// Rounds the double once, not through a float.
inline __nv_bfloat16 __double2bfloat16(const double first) {
  return __nv_bfloat16(first);
}

MEMCARLO_NARROW_INTEGER_CONVERSIONS(__nv_bfloat16, bfloat16, int, int, 0)
MEMCARLO_NARROW_INTEGER_CONVERSIONS(__nv_bfloat16, bfloat16, uint, unsigned int, 0)
MEMCARLO_NARROW_INTEGER_CONVERSIONS(__nv_bfloat16, bfloat16, short, short, 0)
MEMCARLO_NARROW_INTEGER_CONVERSIONS(__nv_bfloat16, bfloat16, ushort, unsigned short, 0)
MEMCARLO_NARROW_INTEGER_CONVERSIONS(__nv_bfloat16, bfloat16, ll, long long, 0x8000000000000000LL)
MEMCARLO_NARROW_INTEGER_CONVERSIONS(__nv_bfloat16, bfloat16, ull, unsigned long long,
                                    0x8000000000000000ULL)

inline __nv_bfloat162 make_bfloat162(const __nv_bfloat16 x, const __nv_bfloat16 y) {
  return __nv_bfloat162(x, y);
}
inline __nv_bfloat162 __halves2bfloat162(const __nv_bfloat16 first, const __nv_bfloat16 second) {
  return __nv_bfloat162(first, second);
}
inline __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 first) {
  return __nv_bfloat162(first, first);
}
inline __nv_bfloat16 __low2bfloat16(const __nv_bfloat162 first) {
  return first.x;
}
inline __nv_bfloat16 __high2bfloat16(const __nv_bfloat162 first) {
  return first.y;
}
inline __nv_bfloat162 __low2bfloat162(const __nv_bfloat162 first) {
  return __nv_bfloat162(first.x, first.x);
}
inline __nv_bfloat162 __high2bfloat162(const __nv_bfloat162 first) {
  return __nv_bfloat162(first.y, first.y);
}
inline __nv_bfloat162 __lows2bfloat162(const __nv_bfloat162 first, const __nv_bfloat162 second) {
  return __nv_bfloat162(first.x, second.x);
}
inline __nv_bfloat162 __highs2bfloat162(const __nv_bfloat162 first, const __nv_bfloat162 second) {
  return __nv_bfloat162(first.y, second.y);
}
inline __nv_bfloat162 __float2bfloat162_rn(const float first) {
  return __nv_bfloat162(__nv_bfloat16(first), __nv_bfloat16(first));
}
inline __nv_bfloat162 __floats2bfloat162_rn(const float first, const float second) {
  return __nv_bfloat162(__nv_bfloat16(first), __nv_bfloat16(second));
}
inline __nv_bfloat162 __float22bfloat162_rn(const float2 first) {
  return __nv_bfloat162(__nv_bfloat16(first.x), __nv_bfloat16(first.y));
}
inline float2 __bfloat1622float2(const __nv_bfloat162 first) {
  return make_float2(static_cast<float>(first.x), static_cast<float>(first.y));
}

MEMCARLO_NARROW_SCALAR_API(__nv_bfloat16)
MEMCARLO_NARROW_PAIR_API(__nv_bfloat162, __nv_bfloat16)

// Complex multiply-add on (real, imaginary) pairs: (a * b) + c.
inline __nv_bfloat162 __hcmadd(const __nv_bfloat162 first, const __nv_bfloat162 second,
                               const __nv_bfloat162 third) {
  const __nv_bfloat16 real = __hfma(__hneg(first.y), second.y, __hfma(first.x, second.x, third.x));
  const __nv_bfloat16 imaginary = __hfma(first.y, second.x, __hfma(first.x, second.y, third.y));
  return __nv_bfloat162(real, imaginary);
}

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
