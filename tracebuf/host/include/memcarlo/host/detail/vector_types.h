// CUDA's built-in vector types (float4, int2, uint3, ...), their make_* constructors and dim3, with
// the sizes and alignments nvcc gives them, so that reinterpret_casts to float4 behave the same.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

// One, two, three and four components; align2 and align4 are the alignments CUDA's vector_types.h
// gives the two- and four-component types (one- and three-component types keep the scalar's
// alignment).
#define MEMCARLO_VECTOR_TYPES(scalar, name, align2, align4)                         \
  struct name##1 {                                                                  \
    scalar x;                                                                       \
  };                                                                                \
  struct alignas(align2) name##2 {                                                  \
    scalar x, y;                                                                    \
  };                                                                                \
  struct name##3 {                                                                  \
    scalar x, y, z;                                                                 \
  };                                                                                \
  struct alignas(align4) name##4 {                                                  \
    scalar x, y, z, w;                                                              \
  };                                                                                \
  inline constexpr name##1 make_##name##1(scalar x) {                               \
    return name##1 {x};                                                             \
  }                                                                                 \
  inline constexpr name##2 make_##name##2(scalar x, scalar y) {                     \
    return name##2 {x, y};                                                          \
  }                                                                                 \
  inline constexpr name##3 make_##name##3(scalar x, scalar y, scalar z) {           \
    return name##3 {x, y, z};                                                       \
  }                                                                                 \
  inline constexpr name##4 make_##name##4(scalar x, scalar y, scalar z, scalar w) { \
    return name##4 {x, y, z, w};                                                    \
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
  constexpr dim3(uint3 shape) : x(shape.x), y(shape.y), z(shape.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
