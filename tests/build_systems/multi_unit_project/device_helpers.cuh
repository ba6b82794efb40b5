// __device__ helpers defined in a header that several translation units include: inline or
// static, as CUDA requires of a function defined in more than one of them.
#pragma once

__device__ inline float scaled(const float* values, int i, float factor) {
  return values[i] * factor;
}
static __device__ float neighbours(const float* values, int i) {
  return values[i - 1] + values[i + 1];
}
