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
#define MEMCARLO_HOST_MINMAX(T)                                      \
  static inline __host__ T min(T a, T b) { return a < b ? a : b; }  \
  static inline __host__ T max(T a, T b) { return a > b ? a : b; }
MEMCARLO_HOST_MINMAX(int)
MEMCARLO_HOST_MINMAX(unsigned int)
MEMCARLO_HOST_MINMAX(long)
MEMCARLO_HOST_MINMAX(unsigned long)
MEMCARLO_HOST_MINMAX(long long)
MEMCARLO_HOST_MINMAX(unsigned long long)
MEMCARLO_HOST_MINMAX(float)
MEMCARLO_HOST_MINMAX(double)
#undef MEMCARLO_HOST_MINMAX
static inline __host__ unsigned min(int a, unsigned b) { return min((unsigned)a, b); }
static inline __host__ unsigned min(unsigned a, int b) { return min(a, (unsigned)b); }
static inline __host__ unsigned max(int a, unsigned b) { return max((unsigned)a, b); }
static inline __host__ unsigned max(unsigned a, int b) { return max(a, (unsigned)b); }
#endif  // MEMCARLO_CUDA_TOOLKIT_COMPAT_H
