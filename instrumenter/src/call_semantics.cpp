// Name tables for atomics, cache-hinted loads/stores, barriers and memory-free functions.
#include "call_semantics.hpp"

#include <array>
#include <set>
#include <string_view>

namespace memcarlo::instrumenter {

namespace {
bool starts_with(const std::string& text, std::string_view prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}
}  // namespace

std::optional<AccessKind> pointer_access_kind(const std::string& name) {
  static const std::set<std::string> kAtomics = {
      "atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax", "atomicInc",
      "atomicDec", "atomicCAS", "atomicAnd", "atomicOr", "atomicXor", "atomicAdd_block",
      "atomicSub_block", "atomicExch_block", "atomicMin_block", "atomicMax_block",
      "atomicInc_block", "atomicDec_block", "atomicCAS_block", "atomicAnd_block",
      "atomicOr_block", "atomicXor_block", "atomicAdd_system", "atomicSub_system",
      "atomicExch_system", "atomicMin_system", "atomicMax_system", "atomicInc_system",
      "atomicDec_system", "atomicCAS_system", "atomicAnd_system", "atomicOr_system",
      "atomicXor_system"};
  static const std::set<std::string> kLoads = {"__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu",
                                               "__ldcv"};
  static const std::set<std::string> kStores = {"__stwb", "__stcg", "__stcs", "__stwt"};
  if (kAtomics.count(name) != 0) return AccessKind::kAtomic;
  if (kLoads.count(name) != 0) return AccessKind::kRead;
  if (kStores.count(name) != 0) return AccessKind::kWrite;
  return std::nullopt;
}

bool is_barrier(const std::string& name) {
  static const std::set<std::string> kBarriers = {
      "__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or",
      "__syncwarp", "__threadfence", "__threadfence_block", "__threadfence_system",
      "__barrier_sync", "sync", "barrier_sync", "__nvvm_bar_sync", "__nvvm_barrier0",
      "arrive_and_wait", "grid_sync", "this_grid_sync"};
  return kBarriers.count(name) != 0;
}

bool is_pure_function(const std::string& name) {
  static const std::set<std::string> kPure = {
      "min", "max", "fmin", "fmax", "fminf", "fmaxf", "abs", "fabs", "fabsf", "labs", "llabs",
      "sqrt", "sqrtf", "rsqrt", "rsqrtf", "cbrt", "cbrtf", "exp", "expf", "exp2", "exp2f",
      "exp10", "exp10f", "expm1", "expm1f", "log", "logf", "log2", "log2f", "log10", "log10f",
      "log1p", "log1pf", "pow", "powf", "sin", "sinf", "cos", "cosf", "tan", "tanf", "asin",
      "asinf", "acos", "acosf", "atan", "atanf", "atan2", "atan2f", "sinh", "sinhf", "cosh",
      "coshf", "tanh", "tanhf", "floor", "floorf", "ceil", "ceilf", "round", "roundf", "rint",
      "rintf", "lrint", "lrintf", "lround", "lroundf", "trunc", "truncf", "fma", "fmaf", "fmod",
      "fmodf", "copysign", "copysignf", "erf", "erff", "erfc", "erfcf", "hypot", "hypotf",
      "isnan", "isinf", "isfinite", "signbit", "nearbyint", "nearbyintf", "fdim", "fdimf",
      "fdividef", "norm3df", "rnorm3df", "rhypotf", "clock", "clock64", "__activemask",
      "__saturatef", "__fdividef", "__expf", "__exp10f", "__logf", "__log2f", "__log10f",
      "__sinf", "__cosf", "__tanf", "__powf", "__popc", "__popcll", "__clz", "__clzll", "__ffs",
      "__ffsll", "__brev", "__brevll", "__byte_perm", "__mul24", "__umul24", "__mulhi",
      "__umulhi", "__mul64hi", "__umul64hi", "__sad", "__usad", "__hadd", "__rhadd",
      "__funnelshift_l", "__funnelshift_r", "__int_as_float", "__float_as_int",
      "__uint_as_float", "__float_as_uint", "__double_as_longlong", "__longlong_as_double",
      "__ballot", "__all", "__any", "__lanemask_lt"};
  static constexpr std::array kPurePrefixes = {
      std::string_view("make_"), std::string_view("__fetch_builtin"),
      std::string_view("__float2"), std::string_view("__double2"), std::string_view("__int2"),
      std::string_view("__uint2"), std::string_view("__ll2"), std::string_view("__ull2"),
      std::string_view("__fadd_"), std::string_view("__fsub_"), std::string_view("__fmul_"),
      std::string_view("__fdiv_"), std::string_view("__fmaf_"), std::string_view("__frcp_"),
      std::string_view("__fsqrt_"), std::string_view("__frsqrt_"), std::string_view("__dadd_"),
      std::string_view("__dsub_"), std::string_view("__dmul_"), std::string_view("__ddiv_"),
      std::string_view("__fma_"), std::string_view("__shfl"), std::string_view("__ballot_sync"),
      std::string_view("__all_sync"), std::string_view("__any_sync"),
      std::string_view("__match_"), std::string_view("__nv_"), std::string_view("__nvvm_read"),
      std::string_view("__builtin_")};
  if (kPure.count(name) != 0) return true;
  if (name == "__builtin_memcpy" || name == "__builtin_memset") return false;
  for (std::string_view prefix : kPurePrefixes) {
    if (starts_with(name, prefix)) return true;
  }
  return false;
}

}  // namespace memcarlo::instrumenter
