// Our stand-in for the construct of the CUDA samples' helper_math.h that clashed with the
// emulation: where __CUDACC__ is not defined (a host compiler; the host backend too) it defines
// host versions of CUDA functions, min(int, int), max(int, int), rsqrtf, fminf, and everywhere a
// global lerp(float, float, float), which C++20's <math.h> also declares (std::lerp).
#pragma once

#include <cuda_runtime.h>

#ifndef __CUDACC__
#include <math.h>

inline float fminf(float a, float b) {
  return a < b ? a : b;
}
inline int max(int a, int b) {
  return a > b ? a : b;
}
inline int min(int a, int b) {
  return a < b ? a : b;
}
inline float rsqrtf(float x) {
  return 1.0f / sqrtf(x);
}
#endif

inline __host__ __device__ float lerp(float a, float b, float t) {
  return a + t * (b - a);
}
inline __host__ __device__ float3 lerp(float3 a, float3 b, float t) {
  return make_float3(lerp(a.x, b.x, t), lerp(a.y, b.y, t), lerp(a.z, b.z, t));
}
inline __host__ __device__ int clamp(int f, int a, int b) {
  return max(a, min(f, b));
}
