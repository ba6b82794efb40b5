// Vector types (sizes, alignments, make_*), vector loads in kernels, and the device intrinsics.
#include <cuda_runtime.h>

#include <cmath>
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
