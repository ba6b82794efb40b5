// memcarlo's declarations of cuda_fp16.h, cuda_bf16.h and cuda_fp8.h for the instrumenter's
// "builtin" parse setup: the types with their sizes and members, and every function and operator
// the host backend's versions of these headers define (tracebuf/host/cuda_include/cuda_fp*.h),
// declared __host__ __device__ without a body. Only parsed, never compiled into output. The
// function list is the host headers' inline functions, one declaration each; regenerate it from
// `g++ -E` of a file that includes cuda_fp8.h when those headers gain functions.
#ifndef MEMCARLO_CUDA_NARROW_FLOATS_H
#define MEMCARLO_CUDA_NARROW_FLOATS_H

#define __CUDA_FP16_H__
#define __CUDA_FP16_HPP__
#define __CUDA_FP16_TYPES_EXIST__
#define __CUDA_BF16_H__
#define __CUDA_BF16_HPP__
#define __CUDA_BF16_TYPES_EXIST__
#define __CUDA_FP8_H__
#define __CUDA_FP8_HPP__
#define __CUDA_FP8_TYPES_EXIST__

#define MEMCARLO_NARROW_TYPE(Scalar, Pair, Raw, PairRaw)                              \
  struct Raw {                                                                        \
    unsigned short x;                                                                 \
  };                                                                                  \
  struct PairRaw {                                                                    \
    unsigned short x;                                                                 \
    unsigned short y;                                                                 \
  };                                                                                  \
  struct alignas(2) Scalar {                                                          \
    unsigned short __x;                                                               \
    Scalar() = default;                                                               \
    __host__ __device__ constexpr Scalar(const Raw& raw) : __x(raw.x) {}              \
    __host__ __device__ Scalar(float number);                                         \
    __host__ __device__ Scalar(double number);                                        \
    __host__ __device__ Scalar(short number);                                         \
    __host__ __device__ Scalar(unsigned short number);                                \
    __host__ __device__ Scalar(int number);                                           \
    __host__ __device__ Scalar(unsigned int number);                                  \
    __host__ __device__ Scalar(long number);                                          \
    __host__ __device__ Scalar(unsigned long number);                                 \
    __host__ __device__ Scalar(long long number);                                     \
    __host__ __device__ Scalar(unsigned long long number);                            \
    __host__ __device__ Scalar& operator=(const Raw& raw);                            \
    __host__ __device__ constexpr operator Raw() const { return Raw{__x}; }           \
    __host__ __device__ operator float() const;                                       \
  };                                                                                  \
  struct alignas(4) Pair {                                                            \
    Scalar x;                                                                         \
    Scalar y;                                                                         \
    Pair() = default;                                                                 \
    __host__ __device__ constexpr Pair(const Scalar& low, const Scalar& high)         \
        : x(low), y(high) {}                                                          \
    __host__ __device__ constexpr Pair(const PairRaw& raw)                            \
        : x(Raw{raw.x}), y(Raw{raw.y}) {}                                             \
    __host__ __device__ Pair& operator=(const PairRaw& raw);                          \
    __host__ __device__ constexpr operator PairRaw() const { return PairRaw{x.__x, y.__x}; } \
  };

MEMCARLO_NARROW_TYPE(__half, __half2, __half_raw, __half2_raw)
MEMCARLO_NARROW_TYPE(__nv_bfloat16, __nv_bfloat162, __nv_bfloat16_raw, __nv_bfloat162_raw)
#undef MEMCARLO_NARROW_TYPE

typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;
typedef __half_raw __nv_half_raw;
typedef __half2_raw __nv_half2_raw;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;
typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;

#define MEMCARLO_FP8_TYPES(name)                                               \
  struct alignas(1) __nv_fp8_##name {                                          \
    __nv_fp8_storage_t __x;                                                    \
    __nv_fp8_##name() = default;                                               \
    __host__ __device__ explicit __nv_fp8_##name(const __half number);         \
    __host__ __device__ explicit __nv_fp8_##name(const __nv_bfloat16 number);  \
    __host__ __device__ explicit __nv_fp8_##name(const float number);          \
    __host__ __device__ explicit __nv_fp8_##name(const double number);         \
    __host__ __device__ explicit __nv_fp8_##name(const short number);          \
    __host__ __device__ explicit __nv_fp8_##name(const unsigned short number); \
    __host__ __device__ explicit __nv_fp8_##name(const int number);            \
    __host__ __device__ explicit __nv_fp8_##name(const unsigned int number);   \
    __host__ __device__ explicit __nv_fp8_##name(const long number);           \
    __host__ __device__ explicit __nv_fp8_##name(const unsigned long number);  \
    __host__ __device__ explicit __nv_fp8_##name(const long long number);      \
    __host__ __device__ explicit __nv_fp8_##name(const unsigned long long number); \
    __host__ __device__ explicit operator double() const;                     \
    __host__ __device__ explicit operator float() const;                      \
    __host__ __device__ explicit operator __half() const;                     \
    __host__ __device__ explicit operator __nv_bfloat16() const;              \
    __host__ __device__ explicit operator bool() const;                       \
    __host__ __device__ explicit operator int() const;                        \
  };                                                                           \
  struct alignas(2) __nv_fp8x2_##name {                                        \
    __nv_fp8x2_storage_t __x;                                                  \
    __nv_fp8x2_##name() = default;                                             \
    __host__ __device__ explicit __nv_fp8x2_##name(const __half2 number);      \
    __host__ __device__ explicit __nv_fp8x2_##name(const __nv_bfloat162 number); \
    __host__ __device__ explicit __nv_fp8x2_##name(const float2 number);       \
    __host__ __device__ explicit __nv_fp8x2_##name(const double2 number);      \
    __host__ __device__ explicit operator __half2() const;                    \
    __host__ __device__ explicit operator float2() const;                     \
  };                                                                           \
  struct alignas(4) __nv_fp8x4_##name {                                        \
    __nv_fp8x4_storage_t __x;                                                  \
    __nv_fp8x4_##name() = default;                                             \
    __host__ __device__ explicit __nv_fp8x4_##name(const __half2 low, const __half2 high); \
    __host__ __device__ explicit __nv_fp8x4_##name(const __nv_bfloat162 low,   \
                                                   const __nv_bfloat162 high); \
    __host__ __device__ explicit __nv_fp8x4_##name(const float4 number);       \
    __host__ __device__ explicit operator float4() const;                     \
  };
MEMCARLO_FP8_TYPES(e4m3)
MEMCARLO_FP8_TYPES(e5m2)
#undef MEMCARLO_FP8_TYPES

// clang-format off
__host__ __device__ short __bfloat16_as_short(const __nv_bfloat16 number);
__host__ __device__ __nv_bfloat16 __short_as_bfloat16(const short integer);
__host__ __device__ __nv_bfloat16 __ushort_as_bfloat16(const unsigned short integer);
__host__ __device__ float __bfloat162float(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 __float2bfloat16(const float first);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rn(const float first);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rz(const float first);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rd(const float first);
__host__ __device__ __nv_bfloat16 __float2bfloat16_ru(const float first);
__host__ __device__ __nv_bfloat16 __double2bfloat16(const double first);
__host__ __device__ int __bfloat162int_rn(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 __int2bfloat16_rn(const int integer);
__host__ __device__ int __bfloat162int_rz(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 __int2bfloat16_rz(const int integer);
__host__ __device__ int __bfloat162int_rd(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 __int2bfloat16_rd(const int integer);
__host__ __device__ int __bfloat162int_ru(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 __int2bfloat16_ru(const int integer);
__host__ __device__ __nv_bfloat16 __uint2bfloat16_rn(const unsigned int integer);
__host__ __device__ __nv_bfloat16 __uint2bfloat16_rz(const unsigned int integer);
__host__ __device__ __nv_bfloat16 __uint2bfloat16_rd(const unsigned int integer);
__host__ __device__ __nv_bfloat16 __uint2bfloat16_ru(const unsigned int integer);
__host__ __device__ short __bfloat162short_rn(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 __short2bfloat16_rn(const short integer);
__host__ __device__ short __bfloat162short_rz(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 __short2bfloat16_rz(const short integer);
__host__ __device__ short __bfloat162short_rd(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 __short2bfloat16_rd(const short integer);
__host__ __device__ short __bfloat162short_ru(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 __short2bfloat16_ru(const short integer);
__host__ __device__ __nv_bfloat16 __ushort2bfloat16_rn(const unsigned short integer);
__host__ __device__ __nv_bfloat16 __ushort2bfloat16_rz(const unsigned short integer);
__host__ __device__ __nv_bfloat16 __ushort2bfloat16_rd(const unsigned short integer);
__host__ __device__ __nv_bfloat16 __ushort2bfloat16_ru(const unsigned short integer);
__host__ __device__ __nv_bfloat16 __ll2bfloat16_rn(const long long integer);
__host__ __device__ __nv_bfloat16 __ll2bfloat16_rz(const long long integer);
__host__ __device__ __nv_bfloat16 __ll2bfloat16_rd(const long long integer);
__host__ __device__ __nv_bfloat16 __ll2bfloat16_ru(const long long integer);
__host__ __device__ __nv_bfloat16 __ull2bfloat16_rn(const unsigned long long integer);
__host__ __device__ __nv_bfloat16 __ull2bfloat16_rz(const unsigned long long integer);
__host__ __device__ __nv_bfloat16 __ull2bfloat16_rd(const unsigned long long integer);
__host__ __device__ __nv_bfloat16 __ull2bfloat16_ru(const unsigned long long integer);
__host__ __device__ __nv_bfloat162 make_bfloat162(const __nv_bfloat16 x, const __nv_bfloat16 y);
__host__ __device__ __nv_bfloat162 __halves2bfloat162(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 __low2bfloat16(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat16 __high2bfloat16(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 __low2bfloat162(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 __high2bfloat162(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 __lows2bfloat162(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __highs2bfloat162(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __float2bfloat162_rn(const float first);
__host__ __device__ __nv_bfloat162 __floats2bfloat162_rn(const float first, const float second);
__host__ __device__ __nv_bfloat162 __float22bfloat162_rn(const float2 first);
__host__ __device__ float2 __bfloat1622float2(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat16 __hadd(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ __nv_bfloat16 __hsub(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ __nv_bfloat16 __hmul(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ __nv_bfloat16 __hdiv(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ __nv_bfloat16 __hadd_rn(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ __nv_bfloat16 __hsub_rn(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ __nv_bfloat16 __hmul_rn(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ __nv_bfloat16 __hadd_sat(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ __nv_bfloat16 __hsub_sat(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ __nv_bfloat16 __hmul_sat(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ __nv_bfloat16 __hfma(const __nv_bfloat16 first, const __nv_bfloat16 second, const __nv_bfloat16 third);
__host__ __device__ __nv_bfloat16 __hfma_sat(const __nv_bfloat16 first, const __nv_bfloat16 second, const __nv_bfloat16 third);
__host__ __device__ __nv_bfloat16 __hfma_relu(const __nv_bfloat16 first, const __nv_bfloat16 second, const __nv_bfloat16 third);
__host__ __device__ __nv_bfloat16 __hneg(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 __habs(const __nv_bfloat16 first);
__host__ __device__ bool __hisnan(const __nv_bfloat16 first);
__host__ __device__ int __hisinf(const __nv_bfloat16 first);
__host__ __device__ bool __heq(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ bool __hequ(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ bool __hne(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ bool __hneu(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ bool __hlt(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ bool __hltu(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ bool __hle(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ bool __hleu(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ bool __hgt(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ bool __hgtu(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ bool __hge(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ bool __hgeu(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ __nv_bfloat16 __hmax(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ __nv_bfloat16 __hmin(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ __nv_bfloat16 __hmax_nan(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ __nv_bfloat16 __hmin_nan(const __nv_bfloat16 first, const __nv_bfloat16 second);
__host__ __device__ __nv_bfloat16 hsqrt(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 hrsqrt(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 hrcp(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 hexp(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 hexp2(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 hexp10(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 hlog(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 hlog2(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 hlog10(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 hsin(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 hcos(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 htanh(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 htanh_approx(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 hfloor(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 hceil(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 htrunc(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 hrint(const __nv_bfloat16 first);
__host__ __device__ __nv_bfloat16 operator+(const __nv_bfloat16& first, const __nv_bfloat16& second);
__host__ __device__ __nv_bfloat16 operator-(const __nv_bfloat16& first, const __nv_bfloat16& second);
__host__ __device__ __nv_bfloat16 operator*(const __nv_bfloat16& first, const __nv_bfloat16& second);
__host__ __device__ __nv_bfloat16 operator/(const __nv_bfloat16& first, const __nv_bfloat16& second);
__host__ __device__ __nv_bfloat16& operator+=(__nv_bfloat16& first, const __nv_bfloat16& second);
__host__ __device__ __nv_bfloat16& operator-=(__nv_bfloat16& first, const __nv_bfloat16& second);
__host__ __device__ __nv_bfloat16& operator*=(__nv_bfloat16& first, const __nv_bfloat16& second);
__host__ __device__ __nv_bfloat16& operator/=(__nv_bfloat16& first, const __nv_bfloat16& second);
__host__ __device__ __nv_bfloat16& operator++(__nv_bfloat16& first);
__host__ __device__ __nv_bfloat16& operator--(__nv_bfloat16& first);
__host__ __device__ __nv_bfloat16 operator++(__nv_bfloat16& first, int);
__host__ __device__ __nv_bfloat16 operator--(__nv_bfloat16& first, int);
__host__ __device__ __nv_bfloat16 operator+(const __nv_bfloat16& first);
__host__ __device__ __nv_bfloat16 operator-(const __nv_bfloat16& first);
__host__ __device__ bool operator==(const __nv_bfloat16& first, const __nv_bfloat16& second);
__host__ __device__ bool operator!=(const __nv_bfloat16& first, const __nv_bfloat16& second);
__host__ __device__ bool operator<(const __nv_bfloat16& first, const __nv_bfloat16& second);
__host__ __device__ bool operator>(const __nv_bfloat16& first, const __nv_bfloat16& second);
__host__ __device__ bool operator<=(const __nv_bfloat16& first, const __nv_bfloat16& second);
__host__ __device__ bool operator>=(const __nv_bfloat16& first, const __nv_bfloat16& second);
__host__ __device__ __nv_bfloat16 atomicAdd(__nv_bfloat16* address, const __nv_bfloat16 value);
__host__ __device__ __nv_bfloat162 __hadd2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hsub2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hmul2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __h2div(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hadd2_rn(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hsub2_rn(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hmul2_rn(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hadd2_sat(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hsub2_sat(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hmul2_sat(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hmax2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hmin2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hmax2_nan(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hmin2_nan(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hfma2(const __nv_bfloat162 first, const __nv_bfloat162 second, const __nv_bfloat162 third);
__host__ __device__ __nv_bfloat162 __hfma2_sat(const __nv_bfloat162 first, const __nv_bfloat162 second, const __nv_bfloat162 third);
__host__ __device__ __nv_bfloat162 __hfma2_relu(const __nv_bfloat162 first, const __nv_bfloat162 second, const __nv_bfloat162 third);
__host__ __device__ __nv_bfloat162 __hneg2(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 __habs2(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 __hisnan2(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 __heq2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ bool __hbeq2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ unsigned __heq2_mask(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hne2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ bool __hbne2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ unsigned __hne2_mask(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hlt2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ bool __hblt2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ unsigned __hlt2_mask(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hle2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ bool __hble2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ unsigned __hle2_mask(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hgt2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ bool __hbgt2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ unsigned __hgt2_mask(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hge2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ bool __hbge2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ unsigned __hge2_mask(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hequ2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ bool __hbequ2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ unsigned __hequ2_mask(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hneu2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ bool __hbneu2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ unsigned __hneu2_mask(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hltu2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ bool __hbltu2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ unsigned __hltu2_mask(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hleu2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ bool __hbleu2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ unsigned __hleu2_mask(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hgtu2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ bool __hbgtu2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ unsigned __hgtu2_mask(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 __hgeu2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ bool __hbgeu2(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ unsigned __hgeu2_mask(const __nv_bfloat162 first, const __nv_bfloat162 second);
__host__ __device__ __nv_bfloat162 h2sqrt(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 h2rsqrt(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 h2rcp(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 h2exp(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 h2exp2(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 h2exp10(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 h2log(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 h2log2(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 h2log10(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 h2sin(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 h2cos(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 h2tanh(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 h2floor(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 h2ceil(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 h2trunc(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 h2rint(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 __lowhigh2highlow(const __nv_bfloat162 first);
__host__ __device__ float __low2float(const __nv_bfloat162 first);
__host__ __device__ float __high2float(const __nv_bfloat162 first);
__host__ __device__ __nv_bfloat162 operator+(const __nv_bfloat162& first, const __nv_bfloat162& second);
__host__ __device__ __nv_bfloat162 operator-(const __nv_bfloat162& first, const __nv_bfloat162& second);
__host__ __device__ __nv_bfloat162 operator*(const __nv_bfloat162& first, const __nv_bfloat162& second);
__host__ __device__ __nv_bfloat162 operator/(const __nv_bfloat162& first, const __nv_bfloat162& second);
__host__ __device__ __nv_bfloat162& operator+=(__nv_bfloat162& first, const __nv_bfloat162& second);
__host__ __device__ __nv_bfloat162& operator-=(__nv_bfloat162& first, const __nv_bfloat162& second);
__host__ __device__ __nv_bfloat162& operator*=(__nv_bfloat162& first, const __nv_bfloat162& second);
__host__ __device__ __nv_bfloat162& operator/=(__nv_bfloat162& first, const __nv_bfloat162& second);
__host__ __device__ __nv_bfloat162 operator+(const __nv_bfloat162& first);
__host__ __device__ __nv_bfloat162 operator-(const __nv_bfloat162& first);
__host__ __device__ bool operator==(const __nv_bfloat162& first, const __nv_bfloat162& second);
__host__ __device__ bool operator!=(const __nv_bfloat162& first, const __nv_bfloat162& second);
__host__ __device__ bool operator<(const __nv_bfloat162& first, const __nv_bfloat162& second);
__host__ __device__ bool operator>(const __nv_bfloat162& first, const __nv_bfloat162& second);
__host__ __device__ bool operator<=(const __nv_bfloat162& first, const __nv_bfloat162& second);
__host__ __device__ bool operator>=(const __nv_bfloat162& first, const __nv_bfloat162& second);
__host__ __device__ __nv_bfloat162 atomicAdd(__nv_bfloat162* address, const __nv_bfloat162 value);
__host__ __device__ __nv_bfloat162 __hcmadd(const __nv_bfloat162 first, const __nv_bfloat162 second, const __nv_bfloat162 third);
__host__ __device__ short __half_as_short(const __half number);
__host__ __device__ __half __short_as_half(const short integer);
__host__ __device__ __half __ushort_as_half(const unsigned short integer);
__host__ __device__ float __half2float(const __half first);
__host__ __device__ __half __float2half(const float first);
__host__ __device__ __half __float2half_rn(const float first);
__host__ __device__ __half __float2half_rz(const float first);
__host__ __device__ __half __float2half_rd(const float first);
__host__ __device__ __half __float2half_ru(const float first);
__host__ __device__ __half __double2half(const double first);
__host__ __device__ int __half2int_rn(const __half first);
__host__ __device__ __half __int2half_rn(const int integer);
__host__ __device__ int __half2int_rz(const __half first);
__host__ __device__ __half __int2half_rz(const int integer);
__host__ __device__ int __half2int_rd(const __half first);
__host__ __device__ __half __int2half_rd(const int integer);
__host__ __device__ int __half2int_ru(const __half first);
__host__ __device__ __half __int2half_ru(const int integer);
__host__ __device__ __half __uint2half_rn(const unsigned int integer);
__host__ __device__ __half __uint2half_rz(const unsigned int integer);
__host__ __device__ __half __uint2half_rd(const unsigned int integer);
__host__ __device__ __half __uint2half_ru(const unsigned int integer);
__host__ __device__ short __half2short_rn(const __half first);
__host__ __device__ __half __short2half_rn(const short integer);
__host__ __device__ short __half2short_rz(const __half first);
__host__ __device__ __half __short2half_rz(const short integer);
__host__ __device__ short __half2short_rd(const __half first);
__host__ __device__ __half __short2half_rd(const short integer);
__host__ __device__ short __half2short_ru(const __half first);
__host__ __device__ __half __short2half_ru(const short integer);
__host__ __device__ __half __ushort2half_rn(const unsigned short integer);
__host__ __device__ __half __ushort2half_rz(const unsigned short integer);
__host__ __device__ __half __ushort2half_rd(const unsigned short integer);
__host__ __device__ __half __ushort2half_ru(const unsigned short integer);
__host__ __device__ __half __ll2half_rn(const long long integer);
__host__ __device__ __half __ll2half_rz(const long long integer);
__host__ __device__ __half __ll2half_rd(const long long integer);
__host__ __device__ __half __ll2half_ru(const long long integer);
__host__ __device__ __half __ull2half_rn(const unsigned long long integer);
__host__ __device__ __half __ull2half_rz(const unsigned long long integer);
__host__ __device__ __half __ull2half_rd(const unsigned long long integer);
__host__ __device__ __half __ull2half_ru(const unsigned long long integer);
__host__ __device__ __half2 make_half2(const __half x, const __half y);
__host__ __device__ __half2 __halves2half2(const __half first, const __half second);
__host__ __device__ __half2 __half2half2(const __half first);
__host__ __device__ __half __low2half(const __half2 first);
__host__ __device__ __half __high2half(const __half2 first);
__host__ __device__ __half2 __low2half2(const __half2 first);
__host__ __device__ __half2 __high2half2(const __half2 first);
__host__ __device__ __half2 __lows2half2(const __half2 first, const __half2 second);
__host__ __device__ __half2 __highs2half2(const __half2 first, const __half2 second);
__host__ __device__ __half2 __float2half2_rn(const float first);
__host__ __device__ __half2 __floats2half2_rn(const float first, const float second);
__host__ __device__ __half2 __float22half2_rn(const float2 first);
__host__ __device__ float2 __half22float2(const __half2 first);
__host__ __device__ __half __hadd(const __half first, const __half second);
__host__ __device__ __half __hsub(const __half first, const __half second);
__host__ __device__ __half __hmul(const __half first, const __half second);
__host__ __device__ __half __hdiv(const __half first, const __half second);
__host__ __device__ __half __hadd_rn(const __half first, const __half second);
__host__ __device__ __half __hsub_rn(const __half first, const __half second);
__host__ __device__ __half __hmul_rn(const __half first, const __half second);
__host__ __device__ __half __hadd_sat(const __half first, const __half second);
__host__ __device__ __half __hsub_sat(const __half first, const __half second);
__host__ __device__ __half __hmul_sat(const __half first, const __half second);
__host__ __device__ __half __hfma(const __half first, const __half second, const __half third);
__host__ __device__ __half __hfma_sat(const __half first, const __half second, const __half third);
__host__ __device__ __half __hfma_relu(const __half first, const __half second, const __half third);
__host__ __device__ __half __hneg(const __half first);
__host__ __device__ __half __habs(const __half first);
__host__ __device__ bool __hisnan(const __half first);
__host__ __device__ int __hisinf(const __half first);
__host__ __device__ bool __heq(const __half first, const __half second);
__host__ __device__ bool __hequ(const __half first, const __half second);
__host__ __device__ bool __hne(const __half first, const __half second);
__host__ __device__ bool __hneu(const __half first, const __half second);
__host__ __device__ bool __hlt(const __half first, const __half second);
__host__ __device__ bool __hltu(const __half first, const __half second);
__host__ __device__ bool __hle(const __half first, const __half second);
__host__ __device__ bool __hleu(const __half first, const __half second);
__host__ __device__ bool __hgt(const __half first, const __half second);
__host__ __device__ bool __hgtu(const __half first, const __half second);
__host__ __device__ bool __hge(const __half first, const __half second);
__host__ __device__ bool __hgeu(const __half first, const __half second);
__host__ __device__ __half __hmax(const __half first, const __half second);
__host__ __device__ __half __hmin(const __half first, const __half second);
__host__ __device__ __half __hmax_nan(const __half first, const __half second);
__host__ __device__ __half __hmin_nan(const __half first, const __half second);
__host__ __device__ __half hsqrt(const __half first);
__host__ __device__ __half hrsqrt(const __half first);
__host__ __device__ __half hrcp(const __half first);
__host__ __device__ __half hexp(const __half first);
__host__ __device__ __half hexp2(const __half first);
__host__ __device__ __half hexp10(const __half first);
__host__ __device__ __half hlog(const __half first);
__host__ __device__ __half hlog2(const __half first);
__host__ __device__ __half hlog10(const __half first);
__host__ __device__ __half hsin(const __half first);
__host__ __device__ __half hcos(const __half first);
__host__ __device__ __half htanh(const __half first);
__host__ __device__ __half htanh_approx(const __half first);
__host__ __device__ __half hfloor(const __half first);
__host__ __device__ __half hceil(const __half first);
__host__ __device__ __half htrunc(const __half first);
__host__ __device__ __half hrint(const __half first);
__host__ __device__ __half operator+(const __half& first, const __half& second);
__host__ __device__ __half operator-(const __half& first, const __half& second);
__host__ __device__ __half operator*(const __half& first, const __half& second);
__host__ __device__ __half operator/(const __half& first, const __half& second);
__host__ __device__ __half& operator+=(__half& first, const __half& second);
__host__ __device__ __half& operator-=(__half& first, const __half& second);
__host__ __device__ __half& operator*=(__half& first, const __half& second);
__host__ __device__ __half& operator/=(__half& first, const __half& second);
__host__ __device__ __half& operator++(__half& first);
__host__ __device__ __half& operator--(__half& first);
__host__ __device__ __half operator++(__half& first, int);
__host__ __device__ __half operator--(__half& first, int);
__host__ __device__ __half operator+(const __half& first);
__host__ __device__ __half operator-(const __half& first);
__host__ __device__ bool operator==(const __half& first, const __half& second);
__host__ __device__ bool operator!=(const __half& first, const __half& second);
__host__ __device__ bool operator<(const __half& first, const __half& second);
__host__ __device__ bool operator>(const __half& first, const __half& second);
__host__ __device__ bool operator<=(const __half& first, const __half& second);
__host__ __device__ bool operator>=(const __half& first, const __half& second);
__host__ __device__ __half atomicAdd(__half* address, const __half value);
__host__ __device__ __half2 __hadd2(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hsub2(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hmul2(const __half2 first, const __half2 second);
__host__ __device__ __half2 __h2div(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hadd2_rn(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hsub2_rn(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hmul2_rn(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hadd2_sat(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hsub2_sat(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hmul2_sat(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hmax2(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hmin2(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hmax2_nan(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hmin2_nan(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hfma2(const __half2 first, const __half2 second, const __half2 third);
__host__ __device__ __half2 __hfma2_sat(const __half2 first, const __half2 second, const __half2 third);
__host__ __device__ __half2 __hfma2_relu(const __half2 first, const __half2 second, const __half2 third);
__host__ __device__ __half2 __hneg2(const __half2 first);
__host__ __device__ __half2 __habs2(const __half2 first);
__host__ __device__ __half2 __hisnan2(const __half2 first);
__host__ __device__ __half2 __heq2(const __half2 first, const __half2 second);
__host__ __device__ bool __hbeq2(const __half2 first, const __half2 second);
__host__ __device__ unsigned __heq2_mask(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hne2(const __half2 first, const __half2 second);
__host__ __device__ bool __hbne2(const __half2 first, const __half2 second);
__host__ __device__ unsigned __hne2_mask(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hlt2(const __half2 first, const __half2 second);
__host__ __device__ bool __hblt2(const __half2 first, const __half2 second);
__host__ __device__ unsigned __hlt2_mask(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hle2(const __half2 first, const __half2 second);
__host__ __device__ bool __hble2(const __half2 first, const __half2 second);
__host__ __device__ unsigned __hle2_mask(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hgt2(const __half2 first, const __half2 second);
__host__ __device__ bool __hbgt2(const __half2 first, const __half2 second);
__host__ __device__ unsigned __hgt2_mask(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hge2(const __half2 first, const __half2 second);
__host__ __device__ bool __hbge2(const __half2 first, const __half2 second);
__host__ __device__ unsigned __hge2_mask(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hequ2(const __half2 first, const __half2 second);
__host__ __device__ bool __hbequ2(const __half2 first, const __half2 second);
__host__ __device__ unsigned __hequ2_mask(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hneu2(const __half2 first, const __half2 second);
__host__ __device__ bool __hbneu2(const __half2 first, const __half2 second);
__host__ __device__ unsigned __hneu2_mask(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hltu2(const __half2 first, const __half2 second);
__host__ __device__ bool __hbltu2(const __half2 first, const __half2 second);
__host__ __device__ unsigned __hltu2_mask(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hleu2(const __half2 first, const __half2 second);
__host__ __device__ bool __hbleu2(const __half2 first, const __half2 second);
__host__ __device__ unsigned __hleu2_mask(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hgtu2(const __half2 first, const __half2 second);
__host__ __device__ bool __hbgtu2(const __half2 first, const __half2 second);
__host__ __device__ unsigned __hgtu2_mask(const __half2 first, const __half2 second);
__host__ __device__ __half2 __hgeu2(const __half2 first, const __half2 second);
__host__ __device__ bool __hbgeu2(const __half2 first, const __half2 second);
__host__ __device__ unsigned __hgeu2_mask(const __half2 first, const __half2 second);
__host__ __device__ __half2 h2sqrt(const __half2 first);
__host__ __device__ __half2 h2rsqrt(const __half2 first);
__host__ __device__ __half2 h2rcp(const __half2 first);
__host__ __device__ __half2 h2exp(const __half2 first);
__host__ __device__ __half2 h2exp2(const __half2 first);
__host__ __device__ __half2 h2exp10(const __half2 first);
__host__ __device__ __half2 h2log(const __half2 first);
__host__ __device__ __half2 h2log2(const __half2 first);
__host__ __device__ __half2 h2log10(const __half2 first);
__host__ __device__ __half2 h2sin(const __half2 first);
__host__ __device__ __half2 h2cos(const __half2 first);
__host__ __device__ __half2 h2tanh(const __half2 first);
__host__ __device__ __half2 h2floor(const __half2 first);
__host__ __device__ __half2 h2ceil(const __half2 first);
__host__ __device__ __half2 h2trunc(const __half2 first);
__host__ __device__ __half2 h2rint(const __half2 first);
__host__ __device__ __half2 __lowhigh2highlow(const __half2 first);
__host__ __device__ float __low2float(const __half2 first);
__host__ __device__ float __high2float(const __half2 first);
__host__ __device__ __half2 operator+(const __half2& first, const __half2& second);
__host__ __device__ __half2 operator-(const __half2& first, const __half2& second);
__host__ __device__ __half2 operator*(const __half2& first, const __half2& second);
__host__ __device__ __half2 operator/(const __half2& first, const __half2& second);
__host__ __device__ __half2& operator+=(__half2& first, const __half2& second);
__host__ __device__ __half2& operator-=(__half2& first, const __half2& second);
__host__ __device__ __half2& operator*=(__half2& first, const __half2& second);
__host__ __device__ __half2& operator/=(__half2& first, const __half2& second);
__host__ __device__ __half2 operator+(const __half2& first);
__host__ __device__ __half2 operator-(const __half2& first);
__host__ __device__ bool operator==(const __half2& first, const __half2& second);
__host__ __device__ bool operator!=(const __half2& first, const __half2& second);
__host__ __device__ bool operator<(const __half2& first, const __half2& second);
__host__ __device__ bool operator>(const __half2& first, const __half2& second);
__host__ __device__ bool operator<=(const __half2& first, const __half2& second);
__host__ __device__ bool operator>=(const __half2& first, const __half2& second);
__host__ __device__ __half2 atomicAdd(__half2* address, const __half2 value);
__host__ __device__ __half2 __hcmadd(const __half2 first, const __half2 second, const __half2 third);
__host__ __device__ __nv_fp8_storage_t fp8_bits(double value, __nv_saturation_t saturate,
                                   __nv_fp8_interpretation_t interpretation,
                                   bool from_float = true);
__host__ __device__ double fp8_value(__nv_fp8_storage_t bits, __nv_fp8_interpretation_t interpretation);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_double_to_fp8(const double x, const __nv_saturation_t saturate,
                                                  const __nv_fp8_interpretation_t interpretation);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_float_to_fp8(const float x, const __nv_saturation_t saturate,
                                                 const __nv_fp8_interpretation_t interpretation);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(const __half_raw x,
                                                   const __nv_saturation_t saturate,
                                                   const __nv_fp8_interpretation_t interpretation);
__host__ __device__ __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(
    const __nv_bfloat16_raw x, const __nv_saturation_t saturate,
    const __nv_fp8_interpretation_t interpretation);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(
    const double2 x, const __nv_saturation_t saturate,
    const __nv_fp8_interpretation_t interpretation);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(
    const float2 x, const __nv_saturation_t saturate,
    const __nv_fp8_interpretation_t interpretation);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(
    const __half2_raw x, const __nv_saturation_t saturate,
    const __nv_fp8_interpretation_t interpretation);
__host__ __device__ __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(
    const __nv_bfloat162_raw x, const __nv_saturation_t saturate,
    const __nv_fp8_interpretation_t interpretation);
__host__ __device__ __half_raw __nv_cvt_fp8_to_halfraw(const __nv_fp8_storage_t x,
                                          const __nv_fp8_interpretation_t interpretation);
__host__ __device__ __half2_raw __nv_cvt_fp8x2_to_halfraw2(const __nv_fp8x2_storage_t x,
                                              const __nv_fp8_interpretation_t interpretation);
// clang-format on

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)
#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)

#endif  // MEMCARLO_CUDA_NARROW_FLOATS_H
