// memcarlo's declarations of CUDA device functions for the builtin parse setup (included by
// memcarlo_cuda_decls.h): barriers, atomics, cache-hinted loads, warp intrinsics, conversions.
#pragma once

// ---- device functions ----------------------------------------------------------------------
// warpSize is the __device__ constant of __clang_cuda_builtin_vars.h (not a macro: host code
// reads cudaDeviceProp::warpSize).
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __syncwarp(unsigned mask = 0xffffffffu);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);
__device__ long long clock64(void);
__device__ long long __clock64(void);
__device__ unsigned long long __globaltimer(void);
__device__ void __trap(void);
__device__ void __nanosleep(unsigned ns);

#define MEMCARLO_ATOMIC2(name, type) __device__ type name(type* address, type value);
#define MEMCARLO_ATOMIC_SCOPES(name, type)                          \
  MEMCARLO_ATOMIC2(name, type) MEMCARLO_ATOMIC2(name##_block, type) \
  MEMCARLO_ATOMIC2(name##_system, type)
#define MEMCARLO_ATOMIC_INTS(name)                                             \
  MEMCARLO_ATOMIC_SCOPES(name, int) MEMCARLO_ATOMIC_SCOPES(name, unsigned int) \
  MEMCARLO_ATOMIC_SCOPES(name, unsigned long long int) MEMCARLO_ATOMIC_SCOPES(name, long long int)
MEMCARLO_ATOMIC_INTS(atomicAdd)
MEMCARLO_ATOMIC_SCOPES(atomicAdd, float)
MEMCARLO_ATOMIC_SCOPES(atomicAdd, double)
MEMCARLO_ATOMIC_INTS(atomicSub)
MEMCARLO_ATOMIC_INTS(atomicExch)
MEMCARLO_ATOMIC_SCOPES(atomicExch, float)
MEMCARLO_ATOMIC_INTS(atomicMin)
MEMCARLO_ATOMIC_INTS(atomicMax)
MEMCARLO_ATOMIC_INTS(atomicAnd)
MEMCARLO_ATOMIC_INTS(atomicOr)
MEMCARLO_ATOMIC_INTS(atomicXor)
MEMCARLO_ATOMIC_SCOPES(atomicInc, unsigned int)
MEMCARLO_ATOMIC_SCOPES(atomicDec, unsigned int)
#undef MEMCARLO_ATOMIC_INTS
#undef MEMCARLO_ATOMIC_SCOPES
#undef MEMCARLO_ATOMIC2
#define MEMCARLO_CAS(type)                                                  \
  __device__ type atomicCAS(type* address, type compare, type value);       \
  __device__ type atomicCAS_block(type* address, type compare, type value); \
  __device__ type atomicCAS_system(type* address, type compare, type value);
MEMCARLO_CAS(int)
MEMCARLO_CAS(unsigned int)
MEMCARLO_CAS(unsigned long long int)
MEMCARLO_CAS(unsigned short int)
#undef MEMCARLO_CAS

template <class Value> __device__ Value __ldg(const Value* address);
template <class Value> __device__ Value __ldcg(const Value* address);
template <class Value> __device__ Value __ldca(const Value* address);
template <class Value> __device__ Value __ldcs(const Value* address);
template <class Value> __device__ Value __ldlu(const Value* address);
template <class Value> __device__ Value __ldcv(const Value* address);
template <class Value> __device__ void __stwb(Value* address, Value value);
template <class Value> __device__ void __stcg(Value* address, Value value);
template <class Value> __device__ void __stcs(Value* address, Value value);
template <class Value> __device__ void __stwt(Value* address, Value value);

#define MEMCARLO_SHFL(type)                                                                      \
  __device__ type __shfl_sync(unsigned mask, type var, int lane, int width = warpSize);          \
  __device__ type __shfl_up_sync(unsigned mask, type var, unsigned delta,                        \
                                 int width = warpSize);                                          \
  __device__ type __shfl_down_sync(unsigned mask, type var, unsigned delta,                      \
                                   int width = warpSize);                                        \
  __device__ type __shfl_xor_sync(unsigned mask, type var, int lane_mask, int width = warpSize); \
  __device__ type __shfl(type var, int lane, int width = warpSize);                              \
  __device__ type __shfl_up(type var, unsigned delta, int width = warpSize);                     \
  __device__ type __shfl_down(type var, unsigned delta, int width = warpSize);                   \
  __device__ type __shfl_xor(type var, int lane_mask, int width = warpSize);
MEMCARLO_SHFL(int)
MEMCARLO_SHFL(unsigned int)
MEMCARLO_SHFL(long)
MEMCARLO_SHFL(unsigned long)
MEMCARLO_SHFL(long long)
MEMCARLO_SHFL(unsigned long long)
MEMCARLO_SHFL(float)
MEMCARLO_SHFL(double)
#undef MEMCARLO_SHFL
__device__ unsigned __ballot_sync(unsigned mask, int predicate);
__device__ int __all_sync(unsigned mask, int predicate);
__device__ int __any_sync(unsigned mask, int predicate);
__device__ unsigned __activemask(void);
__device__ unsigned __ballot(int predicate);
__device__ int __all(int predicate);
__device__ int __any(int predicate);
template <class Value> __device__ unsigned __match_any_sync(unsigned mask, Value value);
template <class Value> __device__ Value __reduce_add_sync(unsigned mask, Value value);
__device__ unsigned __lanemask_lt(void);

__device__ int __popc(unsigned x);
__device__ int __popcll(unsigned long long x);
__device__ int __clz(int x);
__device__ int __clzll(long long x);
__device__ int __ffs(int x);
__device__ int __ffsll(long long x);
__device__ unsigned __brev(unsigned x);
__device__ unsigned long long __brevll(unsigned long long x);
__device__ unsigned __byte_perm(unsigned x, unsigned y, unsigned selector);
__device__ int __mul24(int x, int y);
__device__ unsigned __umul24(unsigned x, unsigned y);
__device__ int __mulhi(int x, int y);
__device__ unsigned __umulhi(unsigned x, unsigned y);
__device__ long long __mul64hi(long long x, long long y);
__device__ unsigned long long __umul64hi(unsigned long long x, unsigned long long y);
__device__ unsigned __sad(int x, int y, unsigned z);
__device__ unsigned __usad(unsigned x, unsigned y, unsigned z);
__device__ int __hadd(int x, int y);
__device__ int __rhadd(int x, int y);
__device__ unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift);
__device__ unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift);

#define MEMCARLO_F1(name) __device__ float name(float x);
#define MEMCARLO_F2(name) __device__ float name(float x, float y);
#define MEMCARLO_D2(name) __device__ double name(double x, double y);
// (__expf, __logf, __sinf, __powf, exp10f, sincosf ... come from glibc's <math.h> above.)
MEMCARLO_F1(__saturatef) MEMCARLO_F1(__frsqrt_rn) MEMCARLO_F1(__fsqrt_rn) MEMCARLO_F1(__frcp_rn)
MEMCARLO_F1(rsqrtf) MEMCARLO_F1(__fsqrt_rz)
MEMCARLO_F2(__fdividef) MEMCARLO_F2(fdividef) MEMCARLO_F2(__fadd_rn)
MEMCARLO_F2(__fadd_rz) MEMCARLO_F2(__fsub_rn) MEMCARLO_F2(__fmul_rn) MEMCARLO_F2(__fmul_rz)
MEMCARLO_F2(__fdiv_rn)
MEMCARLO_D2(__dadd_rn) MEMCARLO_D2(__dmul_rn) MEMCARLO_D2(__ddiv_rn) MEMCARLO_D2(__dsub_rn)
#undef MEMCARLO_F1
#undef MEMCARLO_F2
#undef MEMCARLO_D2
__device__ double rsqrt(double x);
__device__ float __fmaf_rn(float x, float y, float z);
__device__ double __fma_rn(double x, double y, double z);
__device__ float __int_as_float(int x);
__device__ int __float_as_int(float x);
__device__ float __uint_as_float(unsigned x);
__device__ unsigned __float_as_uint(float x);
__device__ double __longlong_as_double(long long x);
__device__ long long __double_as_longlong(double x);
__device__ double __hiloint2double(int hi, int lo);
__device__ int __double2hiint(double x);
__device__ int __double2loint(double x);
#define MEMCARLO_CVT(name, from, to) __device__ to name(from x);
#define MEMCARLO_CVT4(name, from, to)                                 \
  MEMCARLO_CVT(name##_rn, from, to) MEMCARLO_CVT(name##_rz, from, to) \
  MEMCARLO_CVT(name##_ru, from, to) MEMCARLO_CVT(name##_rd, from, to)
MEMCARLO_CVT4(__float2int, float, int) MEMCARLO_CVT4(__float2uint, float, unsigned)
MEMCARLO_CVT4(__int2float, int, float) MEMCARLO_CVT4(__uint2float, unsigned, float)
MEMCARLO_CVT4(__double2float, double, float) MEMCARLO_CVT4(__double2int, double, int)
MEMCARLO_CVT4(__float2ll, float, long long) MEMCARLO_CVT4(__ll2float, long long, float)
MEMCARLO_CVT4(__int2double, int, double) MEMCARLO_CVT4(__ll2double, long long, double)
MEMCARLO_CVT4(__double2ll, double, long long)
#undef MEMCARLO_CVT4
#undef MEMCARLO_CVT

// nvcc's host-side min/max on integers (CUDA's math_functions.h makes them __host__ __device__).
#define MEMCARLO_MINMAX(type)                                         \
  static inline __host__ __device__ type min(type left, type right) { \
    return left < right ? left : right;                               \
  }                                                                   \
  static inline __host__ __device__ type max(type left, type right) { \
    return left > right ? left : right;                               \
  }
MEMCARLO_MINMAX(int)
MEMCARLO_MINMAX(unsigned int)
MEMCARLO_MINMAX(long)
MEMCARLO_MINMAX(unsigned long)
MEMCARLO_MINMAX(long long)
MEMCARLO_MINMAX(unsigned long long)
MEMCARLO_MINMAX(float)
MEMCARLO_MINMAX(double)
#undef MEMCARLO_MINMAX
static inline __host__ __device__ unsigned min(int left, unsigned right) {
  return min((unsigned)left, right);
}
static inline __host__ __device__ unsigned min(unsigned left, int right) {
  return min(left, (unsigned)right);
}
static inline __host__ __device__ unsigned max(int left, unsigned right) {
  return max((unsigned)left, right);
}
static inline __host__ __device__ unsigned max(unsigned left, int right) {
  return max(left, (unsigned)right);
}

// Device-side printf/malloc/assert come from the force_cuda_host_device block above.

