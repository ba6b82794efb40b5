// cuda_fp16.h, cuda_bf16.h and cuda_fp8.h on the host backend: conversions and arithmetic against
// bit patterns computed by hand from the formats' definitions (binary16: 5 exponent and 10
// fraction bits, bias 15; bfloat16: 8 and 7, bias 127; E4M3: 4 and 3, bias 7, no infinity, NaN
// 0x7F; E5M2: 5 and 2, bias 15), and half arithmetic in a kernel over device memory.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cmath>
#include <limits>
#include <vector>

#include "host_test_util.h"

using host_test::DeviceArray;

namespace {

static_assert(sizeof(__half) == 2 && alignof(__half) == 2);
static_assert(sizeof(__half2) == 4 && alignof(__half2) == 4);
static_assert(sizeof(__nv_bfloat16) == 2 && sizeof(__nv_bfloat162) == 4);
static_assert(sizeof(__nv_fp8_e4m3) == 1 && sizeof(__nv_fp8x2_e4m3) == 2);
static_assert(sizeof(__nv_fp8x4_e5m2) == 4 && alignof(__nv_fp8x4_e5m2) == 4);

unsigned short bits(__half h) {
  return __half_as_ushort(h);
}
unsigned short bits(__nv_bfloat16 h) {
  return __bfloat16_as_ushort(h);
}
__half half_of(unsigned short b) {
  return __ushort_as_half(b);
}
__nv_bfloat16 bf16_of(unsigned short b) {
  return __ushort_as_bfloat16(b);
}

const float kNan = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

TEST(HalfConversion, FloatToHalfRoundsToNearestEven) {
  EXPECT_EQ(bits(__float2half(1.0f)), 0x3C00);
  EXPECT_EQ(bits(__float2half(-2.0f)), 0xC000);
  EXPECT_EQ(bits(__float2half(65504.0f)), 0x7BFF);  // largest finite
  EXPECT_EQ(bits(__float2half(65519.0f)), 0x7BFF);  // below the midpoint to 65536
  EXPECT_EQ(bits(__float2half(65520.0f)), 0x7C00);  // the midpoint: even is infinity
  EXPECT_EQ(bits(__float2half(0.1f)), 0x2E66);      // 1.6 * 2^-4: 614.4 -> 614
  EXPECT_EQ(bits(__float2half(1.0f / 3.0f)), 0x3555);
  EXPECT_EQ(bits(__float2half(std::ldexp(1.0f, -24))), 0x0001);  // smallest subnormal
  EXPECT_EQ(bits(__float2half(std::ldexp(1.0f, -25))), 0x0000);  // tie: to even, 0
  EXPECT_EQ(bits(__float2half(std::ldexp(1.5f, -25))), 0x0001);
  EXPECT_EQ(bits(__float2half(std::ldexp(1023.0f, -24))), 0x03FF);      // largest subnormal
  EXPECT_EQ(bits(__float2half(std::ldexp(1.0f, -14))), 0x0400);         // smallest normal
  EXPECT_EQ(bits(__float2half(1.0f + std::ldexp(1.0f, -11))), 0x3C00);  // tie: to even
  EXPECT_EQ(bits(__float2half(1.0f + 3 * std::ldexp(1.0f, -11))), 0x3C02);
  EXPECT_EQ(bits(__float2half(-0.0f)), 0x8000);
  EXPECT_EQ(bits(__float2half(-kInf)), 0xFC00);
  EXPECT_EQ(bits(__float2half(kNan)), 0x7FFF);  // canonical NaN
  EXPECT_EQ(bits(__half(1.0f)), 0x3C00);        // the constructor is __float2half_rn
  EXPECT_EQ(bits(__half(2)), 0x4000);
}

TEST(HalfConversion, DirectedRoundingSuffixes) {
  const float above_one = 1.0f + std::ldexp(1.0f, -11);
  EXPECT_EQ(bits(__float2half_rz(above_one)), 0x3C00);
  EXPECT_EQ(bits(__float2half_ru(above_one)), 0x3C01);
  EXPECT_EQ(bits(__float2half_rd(-above_one)), 0xBC01);
  EXPECT_EQ(bits(__float2half_ru(-above_one)), 0xBC00);
  EXPECT_EQ(bits(__float2half_rz(1.0e6f)), 0x7BFF);  // overflow toward zero: largest finite
  EXPECT_EQ(bits(__float2half_rd(1.0e6f)), 0x7BFF);
  EXPECT_EQ(bits(__float2half_ru(1.0e6f)), 0x7C00);
  EXPECT_EQ(bits(__float2half_rd(-1.0e6f)), 0xFC00);
  EXPECT_EQ(bits(__float2half_ru(std::ldexp(1.0f, -30))), 0x0001);
}

TEST(HalfConversion, DoubleRoundsOnceNotThroughFloat) {
  // 1 + 2^-11 + 2^-40 lies just above a tie: a float would drop 2^-40 and land on the tie.
  const double value = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(bits(__double2half(value)), 0x3C01);
  EXPECT_EQ(bits(__float2half(static_cast<float>(value))), 0x3C00);
}

TEST(HalfConversion, HalfToFloatIsExact) {
  EXPECT_EQ(__half2float(half_of(0x0001)), std::ldexp(1.0f, -24));
  EXPECT_EQ(__half2float(half_of(0x7BFF)), 65504.0f);
  EXPECT_EQ(__half2float(half_of(0x3555)), 0.333251953125f);
  EXPECT_EQ(__half2float(half_of(0xFC00)), -kInf);
  EXPECT_TRUE(std::isnan(__half2float(half_of(0x7E00))));
  EXPECT_EQ(static_cast<float>(CUDART_MAX_NORMAL_FP16), 65504.0f);
}

TEST(HalfConversion, IntegersBothWays) {
  EXPECT_EQ(__half2int_rn(__float2half(2.5f)), 2);  // ties to even
  EXPECT_EQ(__half2int_rn(__float2half(3.5f)), 4);
  EXPECT_EQ(__half2int_rz(__float2half(-2.75f)), -2);
  EXPECT_EQ(__half2int_rd(__float2half(-2.5f)), -3);
  EXPECT_EQ(__half2int_ru(__float2half(2.25f)), 3);
  EXPECT_EQ(__half2short_rz(CUDART_INF_FP16), 32767);  // saturates
  EXPECT_EQ(__half2uint_rz(__float2half(-1.0f)), 0u);
  EXPECT_EQ(__half2int_rz(CUDART_NAN_FP16), 0);
  // 2049 lies halfway between 2048 and 2050 (the spacing above 2048 is 2).
  EXPECT_EQ(bits(__int2half_rn(2049)), 0x6800);
  EXPECT_EQ(bits(__int2half_rn(2051)), 0x6802);  // to the even 2052
  EXPECT_EQ(bits(__int2half_ru(2049)), 0x6801);
  EXPECT_EQ(bits(__int2half_rz(70000)), 0x7BFF);
  EXPECT_EQ(bits(__int2half_rn(70000)), 0x7C00);
}

TEST(HalfArithmetic, RoundsEachResultOnce) {
  const __half one = half_of(0x3C00);
  const __half tiny = half_of(0x1000);                     // 2^-11
  EXPECT_EQ(bits(__hadd(one, tiny)), 0x3C00);              // 1 + 2^-11: tie, to even
  EXPECT_EQ(bits(__hadd(half_of(0x3C01), tiny)), 0x3C02);  // 1 + 3 * 2^-11: tie, to even
  EXPECT_EQ(bits(__hsub(one, one)), 0x0000);
  EXPECT_EQ(bits(__hmul(half_of(0x7BFF), __float2half(2.0f))), 0x7C00);
  EXPECT_EQ(bits(__hdiv(one, __float2half(3.0f))), 0x3555);
  EXPECT_EQ(bits(__hneg(one)), 0xBC00);
  EXPECT_EQ(bits(__habs(half_of(0xBC00))), 0x3C00);
  // Fused: (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20 exactly (0x0010, a subnormal); rounding the
  // product first would give 0.
  const __half a = half_of(0x3C01);
  EXPECT_EQ(bits(__hfma(a, a, half_of(0xBC02))), 0x0010);
  EXPECT_EQ(bits(__hadd(__hmul(a, a), half_of(0xBC02))), 0x0000);
  EXPECT_EQ(bits(__hfma_sat(one, __float2half(3.0f), one)), 0x3C00);  // clamped to 1
  EXPECT_EQ(bits(__hfma_relu(one, __float2half(-3.0f), one)), 0x0000);
  EXPECT_EQ(bits(__hadd_sat(CUDART_NAN_FP16, one)), 0x0000);
  EXPECT_EQ(bits(hsqrt(__float2half(2.0f))), 0x3DA8);  // 1.41406 (1.4142135 * 1024 = 1448.2)
  EXPECT_EQ(bits(hrcp(__float2half(3.0f))), 0x3555);
  EXPECT_EQ(bits(hfloor(__float2half(-1.5f))), 0xC000);
}

TEST(HalfArithmetic, OperatorsMatchTheIntrinsics) {
  __half x = __float2half(1.5f);
  const __half y = __float2half(0.25f);
  EXPECT_EQ(bits(x + y), bits(__hadd(x, y)));
  EXPECT_EQ(bits(x * y), 0x3600);  // 0.375
  EXPECT_EQ(bits(-x), 0xBE00);
  x += y;
  EXPECT_EQ(bits(x), 0x3F00);  // 1.75
  ++x;
  EXPECT_EQ(static_cast<float>(x), 2.75f);
  EXPECT_TRUE(y < x);
  EXPECT_FALSE(CUDART_NAN_FP16 == CUDART_NAN_FP16);
  EXPECT_TRUE(CUDART_NAN_FP16 != CUDART_NAN_FP16);  // unordered
}

TEST(HalfComparison, OrderedUnorderedAndExtrema) {
  const __half nan = CUDART_NAN_FP16;
  const __half one = __float2half(1.0f);
  EXPECT_FALSE(__heq(nan, nan));
  EXPECT_FALSE(__hne(nan, one));
  EXPECT_TRUE(__hneu(nan, one));
  EXPECT_TRUE(__hltu(nan, one));
  EXPECT_TRUE(__hle(one, one));
  EXPECT_TRUE(__hisnan(nan));
  EXPECT_EQ(__hisinf(__hneg(CUDART_INF_FP16)), -1);
  EXPECT_EQ(bits(__hmax(nan, one)), 0x3C00);  // a NaN operand gives the other
  EXPECT_EQ(bits(__hmax_nan(nan, one)), 0x7FFF);
  EXPECT_EQ(bits(__hmax(half_of(0x8000), half_of(0x0000))), 0x0000);  // +0 > -0
  EXPECT_EQ(bits(__hmin(half_of(0x0000), half_of(0x8000))), 0x8000);
}

TEST(Half2, LanesAndConversions) {
  const __half2 pair = __floats2half2_rn(1.0f, -2.0f);
  const __half2_raw raw = pair;
  EXPECT_EQ(raw.x, 0x3C00);
  EXPECT_EQ(raw.y, 0xC000);
  EXPECT_EQ(bits(__low2half(pair)), 0x3C00);
  EXPECT_EQ(bits(__high2half(pair)), 0xC000);
  EXPECT_EQ(__high2float(pair), -2.0f);
  const float2 back = __half22float2(__hadd2(pair, __float2half2_rn(0.5f)));
  EXPECT_EQ(back.x, 1.5f);
  EXPECT_EQ(back.y, -1.5f);
  const __half2 swapped = __lowhigh2highlow(pair);
  EXPECT_EQ(bits(swapped.x), 0xC000);
  EXPECT_TRUE(__hbeq2(pair, __halves2half2(__float2half(1.0f), __float2half(-2.0f))));
  EXPECT_EQ(__hlt2_mask(pair, __float2half2_rn(0.0f)), 0xFFFF0000u);
  const __half2 quotient = __h2div(__float22half2_rn(make_float2(1.0f, 1.0f)),
                                   __float22half2_rn(make_float2(3.0f, -3.0f)));
  EXPECT_EQ(bits(quotient.x), 0x3555);
  EXPECT_EQ(bits(quotient.y), 0xB555);
}

TEST(Bfloat16, ConversionsRoundToNearestEven) {
  EXPECT_EQ(bits(__float2bfloat16(1.0f)), 0x3F80);
  EXPECT_EQ(bits(__float2bfloat16(3.0f)), 0x4040);
  EXPECT_EQ(bits(__float2bfloat16(0.1f)), 0x3DCD);  // 0x3DCCCCCD: low half 0xCCCD > 0x8000
  // 1 + 2^-8 and 1 + 3 * 2^-8 are ties (bfloat16 keeps 7 fraction bits).
  EXPECT_EQ(bits(__float2bfloat16(1.0f + std::ldexp(1.0f, -8))), 0x3F80);
  EXPECT_EQ(bits(__float2bfloat16(1.0f + 3 * std::ldexp(1.0f, -8))), 0x3F82);
  EXPECT_EQ(bits(__float2bfloat16(std::numeric_limits<float>::max())), 0x7F80);  // rounds up
  EXPECT_EQ(bits(__float2bfloat16_rz(std::numeric_limits<float>::max())), 0x7F7F);
  EXPECT_EQ(bits(__float2bfloat16(kNan)), 0x7FFF);
  EXPECT_EQ(bits(__float2bfloat16(-kInf)), 0xFF80);
  EXPECT_EQ(__bfloat162float(bf16_of(0x3F80)), 1.0f);
  EXPECT_EQ(__bfloat162float(bf16_of(0x0001)), std::ldexp(1.0f, -133));  // smallest subnormal
  EXPECT_EQ(bits(__hadd(bf16_of(0x3F80), bf16_of(0x3B80))), 0x3F80);     // 1 + 2^-8: tie, even
  EXPECT_EQ(bits(__hmul(__float2bfloat16(3.0f), __float2bfloat16(0.5f))), 0x3FC0);  // 1.5
  const __nv_bfloat162 pair = __floats2bfloat162_rn(1.0f, 2.0f);
  EXPECT_EQ(__bfloat1622float2(__hmul2(pair, pair)).y, 4.0f);
  EXPECT_EQ(__bfloat162int_rn(__float2bfloat16(2.5f)), 2);
}

TEST(Fp8, E4m3ConversionsSaturateOrGiveNaN) {
  EXPECT_EQ(__nv_cvt_float_to_fp8(1.0f, __NV_SATFINITE, __NV_E4M3), 0x38);
  EXPECT_EQ(__nv_cvt_float_to_fp8(448.0f, __NV_NOSAT, __NV_E4M3), 0x7E);  // largest finite
  EXPECT_EQ(__nv_cvt_float_to_fp8(464.0f, __NV_NOSAT, __NV_E4M3), 0x7E);  // tie: to even 448
  EXPECT_EQ(__nv_cvt_float_to_fp8(480.0f, __NV_NOSAT, __NV_E4M3), 0x7F);  // overflow: NaN
  EXPECT_EQ(__nv_cvt_float_to_fp8(480.0f, __NV_SATFINITE, __NV_E4M3), 0x7E);
  EXPECT_EQ(__nv_cvt_float_to_fp8(-1000.0f, __NV_SATFINITE, __NV_E4M3), 0xFE);
  EXPECT_EQ(__nv_cvt_float_to_fp8(kInf, __NV_SATFINITE, __NV_E4M3), 0x7E);
  EXPECT_EQ(__nv_cvt_float_to_fp8(kInf, __NV_NOSAT, __NV_E4M3), 0x7F);
  EXPECT_EQ(__nv_cvt_float_to_fp8(kNan, __NV_SATFINITE, __NV_E4M3), 0x7F);
  EXPECT_EQ(__nv_cvt_float_to_fp8(-kNan, __NV_SATFINITE, __NV_E4M3), 0x7F);  // made canonical
  EXPECT_EQ(__nv_cvt_double_to_fp8(-std::nan(""), __NV_SATFINITE, __NV_E4M3), 0xFF);
  EXPECT_EQ(__nv_cvt_float_to_fp8(std::ldexp(1.0f, -9), __NV_NOSAT, __NV_E4M3), 0x01);
  EXPECT_EQ(__nv_cvt_float_to_fp8(std::ldexp(1.0f, -10), __NV_NOSAT, __NV_E4M3), 0x00);
  EXPECT_EQ(__nv_cvt_float_to_fp8(std::ldexp(1.0f, -6), __NV_NOSAT, __NV_E4M3), 0x08);
  EXPECT_EQ(__nv_cvt_float_to_fp8(-0.0f, __NV_NOSAT, __NV_E4M3), 0x80);
  EXPECT_EQ(__nv_cvt_float_to_fp8(1.0625f, __NV_NOSAT, __NV_E4M3), 0x38);  // tie: to even
  EXPECT_EQ(__nv_cvt_float_to_fp8(1.1875f, __NV_NOSAT, __NV_E4M3), 0x3A);  // tie: to even
  EXPECT_EQ(__nv_cvt_fp8_to_halfraw(0x7E, __NV_E4M3).x, 0x5F00);           // 448
  EXPECT_EQ(static_cast<float>(__nv_fp8_e4m3(1000.0f)), 448.0f);  // the constructor saturates
  EXPECT_EQ(__nv_fp8_e4m3(-0.5f).__x, 0xB0);
}

TEST(Fp8, E5m2ConversionsAreIeeeStyle) {
  EXPECT_EQ(__nv_cvt_float_to_fp8(1.0f, __NV_NOSAT, __NV_E5M2), 0x3C);
  EXPECT_EQ(__nv_cvt_float_to_fp8(57344.0f, __NV_NOSAT, __NV_E5M2), 0x7B);
  EXPECT_EQ(__nv_cvt_float_to_fp8(61440.0f, __NV_NOSAT, __NV_E5M2), 0x7C);  // tie: to infinity
  EXPECT_EQ(__nv_cvt_float_to_fp8(61440.0f, __NV_SATFINITE, __NV_E5M2), 0x7B);
  EXPECT_EQ(__nv_cvt_float_to_fp8(-kInf, __NV_NOSAT, __NV_E5M2), 0xFC);
  EXPECT_EQ(__nv_cvt_float_to_fp8(-kNan, __NV_NOSAT, __NV_E5M2), 0x7F);
  EXPECT_EQ(__nv_cvt_float_to_fp8(std::ldexp(1.0f, -16), __NV_NOSAT, __NV_E5M2), 0x01);
  // E5M2 is the high byte of binary16.
  EXPECT_EQ(__nv_cvt_fp8_to_halfraw(0x3C, __NV_E5M2).x, 0x3C00);
  EXPECT_EQ(__nv_cvt_fp8_to_halfraw(0x7B, __NV_E5M2).x, 0x7B00);
  const __nv_fp8x2_e5m2 pair(make_float2(1.0f, -2.0f));
  EXPECT_EQ(pair.__x, 0xC03C);  // .x in the low byte
  const __nv_fp8x4_e4m3 four(make_float4(1.0f, 2.0f, 0.5f, -1.0f));
  const float4 back = static_cast<float4>(four);
  EXPECT_EQ(back.y, 2.0f);
  EXPECT_EQ(back.w, -1.0f);
}

// Half arithmetic in a kernel over device memory, half2 loads and an atomicAdd on a __half.
__global__ void axpy_half(int n, __half a, const __half* x, __half* y, __half2* pairs,
                          __half* total) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  y[i] = __hfma(a, x[i], y[i]);
  pairs[i] = __hmul2(pairs[i], __half2half2(a));
  atomicAdd(total, __float2half(1.0f));
}

TEST(HalfKernels, ArithmeticOnDeviceMemory) {
  const int n = 64;
  std::vector<__half> x(n), y(n);
  std::vector<__half2> pairs(n);
  for (int i = 0; i < n; ++i) {
    x[i] = __int2half_rn(i);
    y[i] = __float2half(1.0f);
    pairs[i] = __floats2half2_rn(static_cast<float>(i), 0.5f);
  }
  DeviceArray<__half> dx(x), dy(y), dtotal(std::vector<__half>{__float2half(0.0f)});
  DeviceArray<__half2> dpairs(pairs);
  memcarlo_launch("axpy_half", axpy_half, 2, 32, 0, 0, n, __float2half(2.0f), dx.get(), dy.get(),
                  dpairs.get(), dtotal.get());
  ASSERT_CUDA(cudaDeviceSynchronize());
  const std::vector<__half> out = dy.to_host();
  const std::vector<__half2> out_pairs = dpairs.to_host();
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(__half2float(out[i]), 2.0f * static_cast<float>(i) + 1.0f) << i;
    EXPECT_EQ(__low2float(out_pairs[i]), 2.0f * static_cast<float>(i)) << i;
    EXPECT_EQ(__high2float(out_pairs[i]), 1.0f) << i;
  }
  EXPECT_EQ(__half2float(dtotal.to_host()[0]), 64.0f);
}

}  // namespace
