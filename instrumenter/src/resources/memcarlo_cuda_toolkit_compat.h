// Force-included by the instrumenter's "toolkit" parse setup after Clang's CUDA wrapper (which
// has included the toolkit's cuda_runtime.h). Two things nvcc gives a program that Clang with a
// CUDA 12/13 toolkit does not: the C headers nvcc's cuda_runtime.h includes (crt/
// common_functions.h: string.h, time.h, stdio.h, stdlib.h, assert.h), on which classic code
// relies without including them, nvcc's host-side min and max, and the runtime API that CUDA
// 12/13 removed.
#ifndef MEMCARLO_CUDA_TOOLKIT_COMPAT_H
#define MEMCARLO_CUDA_TOOLKIT_COMPAT_H
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "memcarlo_cuda_legacy.h"

// nvcc's math_functions.hpp defines min and max for host code too; Clang's wrapper only for the
// device (a __host__ overload beside a __device__ one is allowed).
#define MEMCARLO_HOST_MINMAX(type)                                                               \
  static inline __host__ type min(type left, type right) { return left < right ? left : right; } \
  static inline __host__ type max(type left, type right) { return left > right ? left : right; }
MEMCARLO_HOST_MINMAX(int)
MEMCARLO_HOST_MINMAX(unsigned int)
MEMCARLO_HOST_MINMAX(long)
MEMCARLO_HOST_MINMAX(unsigned long)
MEMCARLO_HOST_MINMAX(long long)
MEMCARLO_HOST_MINMAX(unsigned long long)
MEMCARLO_HOST_MINMAX(float)
MEMCARLO_HOST_MINMAX(double)
#undef MEMCARLO_HOST_MINMAX
static inline __host__ unsigned min(int left, unsigned right) { return min((unsigned)left, right); }
static inline __host__ unsigned min(unsigned left, int right) { return min(left, (unsigned)right); }
static inline __host__ unsigned max(int left, unsigned right) { return max((unsigned)left, right); }
static inline __host__ unsigned max(unsigned left, int right) { return max(left, (unsigned)right); }
#endif  // MEMCARLO_CUDA_TOOLKIT_COMPAT_H
