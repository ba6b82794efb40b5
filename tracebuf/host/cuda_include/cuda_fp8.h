// Stand-in for CUDA's <cuda_fp8.h> on the host backend: the FP8 formats E4M3 (4 exponent, 3
// fraction bits, no infinity, NaN 0x7F/0xFF, largest 448) and E5M2 (IEEE-style, largest 57344),
// the __nv_cvt_* conversions and the __nv_fp8_e4m3, __nv_fp8_e5m2 types with their x2 and x4
// forms. Conversions to FP8 round to nearest even once, from the exact value; out-of-range values
// follow the saturation mode as CUDA documents it: __NV_SATFINITE gives the largest finite value
// of the input's sign (infinities too), __NV_NOSAT gives NaN for E4M3 and infinity for E5M2. NaN
// stays NaN: 0x7F from a float, half or bfloat16 (CUDA makes such a NaN canonical first); from a
// double, 0x7F or 0xFF for E4M3 and 0x7E/0x7F (with the sign) for E5M2, keeping the second payload
// bit, as CUDA's conversion does. The types' constructors saturate (__NV_SATFINITE).
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names are CUDA's.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "memcarlo/host/cuda_runtime_emulation.h"
#include "memcarlo/host/detail/narrow_floats.h"

#define __CUDA_FP8_H__
#define __CUDA_FP8_HPP__
#define __CUDA_FP8_TYPES_EXIST__

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;

typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;

namespace memcarlo::host::detail {

/// `value` in FP8. A NaN from a float (or a narrower type) is first made the canonical float NaN
/// 0x7FFFFFFF, as CUDA's conversion does, so it gives 0x7F in both formats; a double NaN keeps its
/// sign and, for E5M2, its second payload bit.
inline __nv_fp8_storage_t fp8_bits(double value, __nv_saturation_t saturate,
                                   __nv_fp8_interpretation_t interpretation,
                                   bool from_float = true) {
  const bool e4m3 = interpretation == __NV_E4M3;
  if (from_float && std::isnan(value))
    return 0x7F;
  const NarrowFormat format = e4m3 ? kFp8E4m3 : kFp8E5m2;
  const unsigned sign = std::signbit(value) ? 0x80u : 0u;
  if (std::isnan(value)) {
    if (e4m3)
      return static_cast<__nv_fp8_storage_t>(sign | 0x7Fu);
    std::uint64_t payload = 0;
    std::memcpy(&payload, &value, sizeof payload);
    return static_cast<__nv_fp8_storage_t>(sign | 0x7Eu | ((payload >> 50) & 1u));
  }
  const unsigned largest = e4m3 ? 0x7Eu : 0x7Bu;
  std::uint64_t bits = std::isinf(value) ? largest + 1u
                                         : round_magnitude(std::fabs(value), format,
                                                           Rounding::kNearestEven, sign != 0);
  if (bits > largest) {
    if (saturate == __NV_SATFINITE) {
      bits = largest;
    } else {
      bits = e4m3 ? 0x7Fu : 0x7Cu;  // NaN, or infinity
    }
  }
  return static_cast<__nv_fp8_storage_t>(sign | bits);
}

inline double fp8_value(__nv_fp8_storage_t bits, __nv_fp8_interpretation_t interpretation) {
  const double sign = (bits & 0x80u) != 0 ? -1.0 : 1.0;
  const unsigned magnitude = bits & 0x7Fu;
  if (interpretation == __NV_E4M3) {
    if (magnitude == 0x7Fu)
      return std::numeric_limits<double>::quiet_NaN();
    return sign * magnitude_value(magnitude, kFp8E4m3);
  }
  if (magnitude > 0x7Cu)
    return std::numeric_limits<double>::quiet_NaN();
  if (magnitude == 0x7Cu)
    return sign * std::numeric_limits<double>::infinity();
  return sign * magnitude_value(magnitude, kFp8E5m2);
}

}  // namespace memcarlo::host::detail

// ---- conversions
// ---------------------------------------------------------------------------------
inline __nv_fp8_storage_t __nv_cvt_double_to_fp8(const double x, const __nv_saturation_t saturate,
                                                 const __nv_fp8_interpretation_t interpretation) {
  return ::memcarlo::host::detail::fp8_bits(x, saturate, interpretation, false);
}
inline __nv_fp8_storage_t __nv_cvt_float_to_fp8(const float x, const __nv_saturation_t saturate,
                                                const __nv_fp8_interpretation_t interpretation) {
  return ::memcarlo::host::detail::fp8_bits(x, saturate, interpretation);
}
inline __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(const __half_raw x,
                                                  const __nv_saturation_t saturate,
                                                  const __nv_fp8_interpretation_t interpretation) {
  return ::memcarlo::host::detail::fp8_bits(static_cast<float>(__half(x)), saturate,
                                            interpretation);
}
inline __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(
    const __nv_bfloat16_raw x, const __nv_saturation_t saturate,
    const __nv_fp8_interpretation_t interpretation) {
  return ::memcarlo::host::detail::fp8_bits(static_cast<float>(__nv_bfloat16(x)), saturate,
                                            interpretation);
}
inline __nv_fp8x2_storage_t memcarlo_fp8_pair(__nv_fp8_storage_t low, __nv_fp8_storage_t high) {
  return static_cast<__nv_fp8x2_storage_t>(low | (high << 8));
}
inline __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(
    const double2 x, const __nv_saturation_t saturate,
    const __nv_fp8_interpretation_t interpretation) {
  return memcarlo_fp8_pair(__nv_cvt_double_to_fp8(x.x, saturate, interpretation),
                           __nv_cvt_double_to_fp8(x.y, saturate, interpretation));
}
inline __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(
    const float2 x, const __nv_saturation_t saturate,
    const __nv_fp8_interpretation_t interpretation) {
  return memcarlo_fp8_pair(__nv_cvt_float_to_fp8(x.x, saturate, interpretation),
                           __nv_cvt_float_to_fp8(x.y, saturate, interpretation));
}
inline __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(
    const __half2_raw x, const __nv_saturation_t saturate,
    const __nv_fp8_interpretation_t interpretation) {
  return memcarlo_fp8_pair(__nv_cvt_halfraw_to_fp8(__half_raw{x.x}, saturate, interpretation),
                           __nv_cvt_halfraw_to_fp8(__half_raw{x.y}, saturate, interpretation));
}
inline __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(
    const __nv_bfloat162_raw x, const __nv_saturation_t saturate,
    const __nv_fp8_interpretation_t interpretation) {
  return memcarlo_fp8_pair(
      __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw{x.x}, saturate, interpretation),
      __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw{x.y}, saturate, interpretation));
}
/// Exact: every E4M3 and E5M2 value is a binary16 value (E4M3's NaN becomes 0x7FFF).
inline __half_raw __nv_cvt_fp8_to_halfraw(const __nv_fp8_storage_t x,
                                          const __nv_fp8_interpretation_t interpretation) {
  return __half_raw(__half(::memcarlo::host::detail::fp8_value(x, interpretation)));
}
inline __half2_raw __nv_cvt_fp8x2_to_halfraw2(const __nv_fp8x2_storage_t x,
                                              const __nv_fp8_interpretation_t interpretation) {
  return __half2_raw{
      __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(x & 0xFFu), interpretation).x,
      __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(x >> 8), interpretation).x};
}

// ---- the types
// ----------------------------------------------------------------------------------- One byte, two
// (x2: .x low) and four (x4); constructors saturate to the largest finite value.
#define MEMCARLO_FP8_TYPES(name, interpretation)                                                  \
  struct alignas(1) __nv_fp8_##name {                                                             \
    __nv_fp8_storage_t __x;                                                                       \
    __nv_fp8_##name() = default;                                                                  \
    explicit __nv_fp8_##name(const __half value)                                                  \
        : __x(__nv_cvt_halfraw_to_fp8(value, __NV_SATFINITE, interpretation)) {}                  \
    explicit __nv_fp8_##name(const __nv_bfloat16 value)                                           \
        : __x(__nv_cvt_bfloat16raw_to_fp8(value, __NV_SATFINITE, interpretation)) {}              \
    explicit __nv_fp8_##name(const float value)                                                   \
        : __x(__nv_cvt_float_to_fp8(value, __NV_SATFINITE, interpretation)) {}                    \
    explicit __nv_fp8_##name(const double value)                                                  \
        : __x(__nv_cvt_double_to_fp8(value, __NV_SATFINITE, interpretation)) {}                   \
    explicit __nv_fp8_##name(const short value) : __nv_fp8_##name(static_cast<double>(value)) {}  \
    explicit __nv_fp8_##name(const unsigned short value)                                          \
        : __nv_fp8_##name(static_cast<double>(value)) {}                                          \
    explicit __nv_fp8_##name(const int value) : __nv_fp8_##name(static_cast<double>(value)) {}    \
    explicit __nv_fp8_##name(const unsigned int value)                                            \
        : __nv_fp8_##name(static_cast<double>(value)) {}                                          \
    explicit __nv_fp8_##name(const long value) : __nv_fp8_##name(static_cast<double>(value)) {}   \
    explicit __nv_fp8_##name(const unsigned long value)                                           \
        : __nv_fp8_##name(static_cast<double>(value)) {}                                          \
    explicit __nv_fp8_##name(const long long value)                                               \
        : __nv_fp8_##name(static_cast<double>(value)) {}                                          \
    explicit __nv_fp8_##name(const unsigned long long value)                                      \
        : __nv_fp8_##name(static_cast<double>(value)) {}                                          \
    explicit operator double() const {                                                            \
      return ::memcarlo::host::detail::fp8_value(__x, interpretation);                            \
    }                                                                                             \
    explicit operator float() const {                                                             \
      return static_cast<float>(static_cast<double>(*this));                                      \
    }                                                                                             \
    explicit operator __half() const {                                                            \
      return __half(__nv_cvt_fp8_to_halfraw(__x, interpretation));                                \
    }                                                                                             \
    explicit operator __nv_bfloat16() const {                                                     \
      return __nv_bfloat16(static_cast<float>(*this));                                            \
    }                                                                                             \
    explicit operator bool() const {                                                              \
      return (__x & 0x7Fu) != 0;                                                                  \
    }                                                                                             \
    explicit operator int() const {                                                               \
      return __half2int_rz(static_cast<__half>(*this));                                           \
    }                                                                                             \
  };                                                                                              \
  struct alignas(2) __nv_fp8x2_##name {                                                           \
    __nv_fp8x2_storage_t __x;                                                                     \
    __nv_fp8x2_##name() = default;                                                                \
    explicit __nv_fp8x2_##name(const __half2 value)                                               \
        : __x(__nv_cvt_halfraw2_to_fp8x2(value, __NV_SATFINITE, interpretation)) {}               \
    explicit __nv_fp8x2_##name(const __nv_bfloat162 value)                                        \
        : __x(__nv_cvt_bfloat16raw2_to_fp8x2(value, __NV_SATFINITE, interpretation)) {}           \
    explicit __nv_fp8x2_##name(const float2 value)                                                \
        : __x(__nv_cvt_float2_to_fp8x2(value, __NV_SATFINITE, interpretation)) {}                 \
    explicit __nv_fp8x2_##name(const double2 value)                                               \
        : __x(__nv_cvt_double2_to_fp8x2(value, __NV_SATFINITE, interpretation)) {}                \
    explicit operator __half2() const {                                                           \
      return __half2(__nv_cvt_fp8x2_to_halfraw2(__x, interpretation));                            \
    }                                                                                             \
    explicit operator float2() const {                                                            \
      const __half2 pair(__nv_cvt_fp8x2_to_halfraw2(__x, interpretation));                        \
      return make_float2(static_cast<float>(pair.x), static_cast<float>(pair.y));                 \
    }                                                                                             \
  };                                                                                              \
  struct alignas(4) __nv_fp8x4_##name {                                                           \
    __nv_fp8x4_storage_t __x;                                                                     \
    __nv_fp8x4_##name() = default;                                                                \
    explicit __nv_fp8x4_##name(const __half2 low, const __half2 high)                             \
        : __x(__nv_cvt_halfraw2_to_fp8x2(low, __NV_SATFINITE, interpretation) |                   \
              (static_cast<__nv_fp8x4_storage_t>(                                                 \
                   __nv_cvt_halfraw2_to_fp8x2(high, __NV_SATFINITE, interpretation))              \
               << 16)) {}                                                                         \
    explicit __nv_fp8x4_##name(const __nv_bfloat162 low, const __nv_bfloat162 high)               \
        : __x(__nv_cvt_bfloat16raw2_to_fp8x2(low, __NV_SATFINITE, interpretation) |               \
              (static_cast<__nv_fp8x4_storage_t>(                                                 \
                   __nv_cvt_bfloat16raw2_to_fp8x2(high, __NV_SATFINITE, interpretation))          \
               << 16)) {}                                                                         \
    explicit __nv_fp8x4_##name(const float4 value)                                                \
        : __x(__nv_cvt_float2_to_fp8x2(make_float2(value.x, value.y), __NV_SATFINITE,             \
                                       interpretation) |                                          \
              (static_cast<__nv_fp8x4_storage_t>(__nv_cvt_float2_to_fp8x2(                        \
                   make_float2(value.z, value.w), __NV_SATFINITE, interpretation))                \
               << 16)) {}                                                                         \
    explicit operator float4() const {                                                            \
      const __half2 low(__nv_cvt_fp8x2_to_halfraw2(                                               \
          static_cast<__nv_fp8x2_storage_t>(__x & 0xFFFFu), interpretation));                     \
      const __half2 high(__nv_cvt_fp8x2_to_halfraw2(static_cast<__nv_fp8x2_storage_t>(__x >> 16), \
                                                    interpretation));                             \
      return make_float4(static_cast<float>(low.x), static_cast<float>(low.y),                    \
                         static_cast<float>(high.x), static_cast<float>(high.y));                 \
    }                                                                                             \
  };

MEMCARLO_FP8_TYPES(e4m3, __NV_E4M3)
MEMCARLO_FP8_TYPES(e5m2, __NV_E5M2)
#undef MEMCARLO_FP8_TYPES
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
