// CUDA's built-in vector types (float4, int2, uint3, ...), their make_* constructors and dim3, with
// the sizes and alignments nvcc gives them, so that reinterpret_casts to float4 behave the same.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

// One, two, three and four components; A2 and A4 are the alignments CUDA's vector_types.h gives
// the two- and four-component types (one- and three-component types keep the scalar's alignment).
#define MEMCARLO_VECTOR_TYPES(T, NAME, A2, A4)                  \
  struct NAME##1 {                                              \
    T x;                                                        \
  };                                                            \
  struct alignas(A2) NAME##2 {                                  \
    T x, y;                                                     \
  };                                                            \
  struct NAME##3 {                                              \
    T x, y, z;                                                  \
  };                                                            \
  struct alignas(A4) NAME##4 {                                  \
    T x, y, z, w;                                               \
  };                                                            \
  inline constexpr NAME##1 make_##NAME##1(T x) {                \
    return NAME##1 {x};                                         \
  }                                                             \
  inline constexpr NAME##2 make_##NAME##2(T x, T y) {           \
    return NAME##2 {x, y};                                      \
  }                                                             \
  inline constexpr NAME##3 make_##NAME##3(T x, T y, T z) {      \
    return NAME##3 {x, y, z};                                   \
  }                                                             \
  inline constexpr NAME##4 make_##NAME##4(T x, T y, T z, T w) { \
    return NAME##4 {x, y, z, w};                                \
  }

MEMCARLO_VECTOR_TYPES(signed char, char, 2, 4)
MEMCARLO_VECTOR_TYPES(unsigned char, uchar, 2, 4)
MEMCARLO_VECTOR_TYPES(short, short, 4, 8)
MEMCARLO_VECTOR_TYPES(unsigned short, ushort, 4, 8)
MEMCARLO_VECTOR_TYPES(int, int, 8, 16)
MEMCARLO_VECTOR_TYPES(unsigned int, uint, 8, 16)
MEMCARLO_VECTOR_TYPES(long, long, 2 * sizeof(long), 16)
MEMCARLO_VECTOR_TYPES(unsigned long, ulong, 2 * sizeof(unsigned long), 16)
MEMCARLO_VECTOR_TYPES(long long, longlong, 16, 16)
MEMCARLO_VECTOR_TYPES(unsigned long long, ulonglong, 16, 16)
MEMCARLO_VECTOR_TYPES(float, float, 8, 16)
MEMCARLO_VECTOR_TYPES(double, double, 16, 16)
#undef MEMCARLO_VECTOR_TYPES

static_assert(sizeof(float4) == 16 && alignof(float4) == 16);
static_assert(sizeof(float3) == 12 && alignof(float3) == 4);
static_assert(sizeof(int2) == 8 && alignof(int2) == 8);
static_assert(sizeof(double2) == 16 && alignof(double2) == 16);
static_assert(sizeof(uint4) == 16 && alignof(uint4) == 16);

/// Grid and block shapes. Unspecified components are 1, as in CUDA.
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
