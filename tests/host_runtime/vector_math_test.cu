// Vector types (sizes, alignments, make_*), vector loads in kernels, and the device intrinsics.
#include <cuda_runtime.h>

#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

#include "host_test_util.h"

using host_test::DeviceArray;

namespace {

static_assert(sizeof(float2) == 8 && alignof(float2) == 8);
static_assert(sizeof(float4) == 16 && alignof(float4) == 16);
static_assert(sizeof(int3) == 12 && alignof(int3) == 4);
static_assert(sizeof(uint4) == 16 && alignof(uint4) == 16);
static_assert(sizeof(double2) == 16 && alignof(double2) == 16);
static_assert(sizeof(char4) == 4 && alignof(char4) == 4);
static_assert(sizeof(short2) == 4 && alignof(short2) == 4);
static_assert(sizeof(longlong2) == 16 && alignof(longlong2) == 16);

__global__ void vector_add4(const float4* a, const float4* b, float4* c) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 x = __ldg(&a[i]);
  const float4 y = b[i];
  c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
}

__global__ void intrinsics(int* ints, float* floats) {
  ints[0] = __popc(0xf0f0u);
  ints[1] = __clz(1);
  ints[2] = __ffs(0x50);
  ints[3] = static_cast<int>(__brev(1u) >> 31);
  ints[4] = static_cast<int>(__byte_perm(0x33221100u, 0x77665544u, 0x7531u));
  ints[5] = __float_as_int(1.0f);
  ints[6] = min(-3, 5) + max(2, 9);
  ints[7] = static_cast<int>(min(3u, 7u));
  ints[8] = __mul24(1 << 23, 2);
  ints[9] = static_cast<int>(__umulhi(0x80000000u, 6u));
  ints[10] = __popcll(0xffffffffffull);
  ints[11] = __clzll(1ll);
  ints[12] = __float2int_rn(2.5f) + 10 * __float2int_rn(3.5f);
  ints[13] = static_cast<int>(__usad(3u, 10u, 100u));
  floats[0] = __fdividef(1.0f, 4.0f);
  floats[1] = rsqrtf(16.0f);
  floats[2] = __saturatef(1.7f) + __saturatef(-2.0f);
  floats[3] = fminf(1.0f, -1.0f) + fmaxf(2.0f, 3.0f);
  floats[4] = __expf(0.0f) + __logf(1.0f);
  floats[5] = __int_as_float(0x40000000);
  floats[6] = max(1.5f, 2.5f);
  floats[7] = sinpif(0.5f);
  floats[8] = __fmaf_rn(2.0f, 3.0f, 1.0f);
  floats[9] = static_cast<float>(__longlong_as_double(__double_as_longlong(0.75)));
}

}  // namespace

TEST(HostVectorTypes, MakeFunctionsAndVectorLoads) {
  const int2 i2 = make_int2(1, 2);
  const double2 d2 = make_double2(0.5, 1.5);
  const uchar4 c4 = make_uchar4(1, 2, 3, 250);
  EXPECT_EQ(i2.y, 2);
  EXPECT_EQ(d2.x, 0.5);
  EXPECT_EQ(c4.w, 250);
  const dim3 d(4);
  EXPECT_EQ(d.y, 1u);
  EXPECT_EQ(d.z, 1u);

  const unsigned n = 256;
  std::vector<float4> a(n), b(n);
  for (unsigned i = 0; i < n; ++i) {
    const auto f = static_cast<float>(i);
    a[i] = make_float4(f, 2 * f, 3 * f, 4 * f);
    b[i] = make_float4(1, 1, 1, 1);
  }
  DeviceArray<float4> da(a), db(b), dc(n);
  memcarlo_launch("vector_add4", vector_add4, 2, 128, 0, 0, da.get(), db.get(), dc.get());
  const std::vector<float4> c = dc.to_host();
  EXPECT_EQ(c[100].x, 101.0f);
  EXPECT_EQ(c[100].w, 401.0f);
}

TEST(HostMathIntrinsics, MatchCudaDefinitions) {
  DeviceArray<int> ints(14);
  DeviceArray<float> floats(10);
  memcarlo_launch("intrinsics", intrinsics, 1, 1, 0, 0, ints.get(), floats.get());
  const std::vector<int> i = ints.to_host();
  const std::vector<float> f = floats.to_host();
  EXPECT_EQ(i[0], 8);
  EXPECT_EQ(i[1], 31);
  EXPECT_EQ(i[2], 5);
  EXPECT_EQ(i[3], 1);
  EXPECT_EQ(static_cast<unsigned>(i[4]), 0x77553311u);
  EXPECT_EQ(i[5], 0x3f800000);
  EXPECT_EQ(i[6], 6);
  EXPECT_EQ(i[7], 3);
  EXPECT_EQ(i[8], -(1 << 24)) << "24-bit operands are sign-extended";
  EXPECT_EQ(i[9], 3);
  EXPECT_EQ(i[10], 40);
  EXPECT_EQ(i[11], 63);
  EXPECT_EQ(i[12], 2 + 40) << "round half to even";
  EXPECT_EQ(i[13], 107);
  EXPECT_EQ(f[0], 0.25f);
  EXPECT_EQ(f[1], 0.25f);
  EXPECT_EQ(f[2], 1.0f);
  EXPECT_EQ(f[3], 2.0f);
  EXPECT_EQ(f[4], 1.0f);
  EXPECT_EQ(f[5], 2.0f);
  EXPECT_EQ(f[6], 2.5f);
  EXPECT_NEAR(f[7], 1.0f, 1e-6f);
  EXPECT_EQ(f[8], 7.0f);
  EXPECT_EQ(f[9], 0.75f);
}

// CUDA's named integer min and max compare in their own types (unsigned: 0xffffffff is the
// largest, not -1).
TEST(HostMathIntrinsics, NamedIntegerMinAndMax) {
  EXPECT_EQ(umin(3u, 7u), 3u);
  EXPECT_EQ(umax(0xffffffffu, 1u), 0xffffffffu);
  EXPECT_EQ(llmin(-5ll, 3ll), -5ll);
  EXPECT_EQ(llmax(-5ll, 3ll), 3ll);
  EXPECT_EQ(ullmin(1ull << 63, 1ull), 1ull);
  EXPECT_EQ(ullmax(1ull << 63, 1ull), 1ull << 63);
}

// Directed rounding (the samples' interval arithmetic): known answers, the IEEE special cases,
// and, over random operands whose exact sum and product double holds, rd <= exact <= ru with the
// two one ulp apart exactly when the exact value is not a float.
TEST(HostMathIntrinsics, DirectedRoundingBracketsTheExactResult) {
  const float one_up = std::nextafter(1.0f, 2.0f);
  const float one_down = std::nextafter(1.0f, 0.0f);
  EXPECT_EQ(__fadd_rd(1.0f, 1e-8f), 1.0f);
  EXPECT_EQ(__fadd_ru(1.0f, 1e-8f), one_up);
  EXPECT_EQ(__fadd_rz(1.0f, 1e-8f), 1.0f);
  EXPECT_EQ(__fadd_rz(-1.0f, -1e-8f), -1.0f);
  EXPECT_EQ(__fadd_rd(-1.0f, -1e-8f), -one_up);
  EXPECT_EQ(__fsub_rd(1.0f, 1e-8f), one_down);
  EXPECT_EQ(__fsub_ru(1.0f, 1e-8f), 1.0f);
  const float third = 1.0f / 3.0f;  // rounded to nearest: above 1/3
  EXPECT_EQ(__fdiv_ru(1.0f, 3.0f), third);
  EXPECT_EQ(__fdiv_rd(1.0f, 3.0f), std::nextafter(third, 0.0f));
  EXPECT_EQ(__fdiv_rz(-1.0f, 3.0f), -std::nextafter(third, 0.0f));
  EXPECT_EQ(__fdiv_rd(-1.0f, -3.0f), std::nextafter(third, 0.0f));
  EXPECT_EQ(__frcp_rd(3.0f), __fdiv_rd(1.0f, 3.0f));
  EXPECT_EQ(__fmul_rd(1.5f, 2.0f), 3.0f);
  EXPECT_EQ(__fmul_ru(1.5f, 2.0f), 3.0f);
  EXPECT_LT(__fsqrt_rd(2.0f), std::sqrt(2.0));
  EXPECT_GT(__fsqrt_ru(2.0f), std::sqrt(2.0));
  EXPECT_EQ(__fsqrt_ru(2.0f), std::nextafter(__fsqrt_rd(2.0f), 2.0f));
  EXPECT_EQ(__fsqrt_rd(4.0f), 2.0f);
  EXPECT_EQ(__dadd_ru(1.0, 1e-20), std::nextafter(1.0, 2.0));
  EXPECT_EQ(__dadd_rd(1.0, 1e-20), 1.0);
  EXPECT_EQ(__ddiv_ru(1.0, 3.0), std::nextafter(__ddiv_rd(1.0, 3.0), 1.0));
  EXPECT_EQ(__dmul_rd(0.1, 0.1), std::nextafter(__dmul_ru(0.1, 0.1), 0.0));
  EXPECT_EQ(__dsqrt_ru(2.0), std::nextafter(__dsqrt_rd(2.0), 2.0));
  // Overflow: toward zero stops at the largest finite value.
  const float largest = std::numeric_limits<float>::max();
  const float infinity = std::numeric_limits<float>::infinity();
  EXPECT_EQ(__fmul_rz(1e30f, 1e30f), largest);
  EXPECT_EQ(__fmul_ru(1e30f, 1e30f), infinity);
  EXPECT_EQ(__fmul_rd(-1e30f, 1e30f), -infinity);
  EXPECT_EQ(__fmul_ru(-1e30f, 1e30f), -largest);
  EXPECT_EQ(__fdiv_rd(1.0f, 0.0f), infinity);  // exact: a division by zero
  // An exact zero sum is -0 rounded down, +0 otherwise.
  EXPECT_TRUE(std::signbit(__fadd_rd(1.0f, -1.0f)));
  EXPECT_FALSE(std::signbit(__fadd_ru(1.0f, -1.0f)));
  EXPECT_FALSE(std::signbit(__fadd_rd(0.0f, 0.0f)));
  EXPECT_TRUE(std::isnan(__fsqrt_rd(-1.0f)));
  unsigned state = 12345;
  const auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return 0.5f + static_cast<float>(state >> 8) / static_cast<float>(1u << 24) * 1.5f;
  };
  int inexact = 0;
  for (int k = 0; k < 2000; ++k) {
    const float x = next();
    const float y = k % 2 == 0 ? next() : -next();
    for (const auto& [exact, down, up] :
         {std::tuple{static_cast<double>(x) + y, __fadd_rd(x, y), __fadd_ru(x, y)},
          std::tuple{static_cast<double>(x) * y, __fmul_rd(x, y), __fmul_ru(x, y)}}) {
      ASSERT_LE(down, exact) << x << " " << y;
      ASSERT_GE(up, exact) << x << " " << y;
      if (static_cast<float>(exact) == exact) {
        ASSERT_EQ(down, up) << x << " " << y;
      } else {
        ASSERT_EQ(up, std::nextafter(down, infinity)) << x << " " << y;
        ++inexact;
      }
    }
  }
  EXPECT_GT(inexact, 1000);  // the loop did test rounding
}
