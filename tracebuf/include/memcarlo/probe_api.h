// memcarlo probe API: the declarations that instrumented sources call and that both trace
// backends (host emulation, cuda device buffers) implement. This header is the contract between
// the instrumenter (which emits these calls) and the runtimes (which define them).
//
// What an instrumented translation unit contains:
//   #include "memcarlo/probe_api.h"
//   static constexpr unsigned memcarlo_tu = 0x1234abcdu;        // hash of the source path
//   static const char memcarlo_loads_table_json[] = "...";       // the TU's loads table (JSON)
//   MEMCARLO_REGISTER_LOADS(memcarlo_tu, memcarlo_loads_table_json)
//   ... (*memcarlo_probe(memcarlo_tu, 7u, &(a[i]))) ...          // every probed access
//   memcarlo_launch("kernel", kernel, grid, block, shmem, stream, args...);   // host backend
//   (memcarlo_launch_begin("kernel", grid, block, shmem, stream), memcarlo_launch_arguments(args),
//    kernel<<<grid, block, shmem, stream>>>(args), memcarlo_launch_end());    // cuda backend
// The instrumenter always passes shmem and stream, as `0` where the launch leaves them out; the
// cuda backend keeps the original `<<<...>>>` unchanged. For the host backend it also rewrites
// `extern __shared__ T name[];` to `MEMCARLO_DYNAMIC_SHARED(T, name);`.
//
// Static ids are local to a translation unit; the runtime maps (tu, id) to a trace-wide id when it
// writes the loads table into the trace. A probe returns its argument unchanged, so that
// `E` -> `(*memcarlo_probe(tu, id, &(E)))` evaluates the address exactly once and keeps E an
// lvalue.
#ifndef MEMCARLO_PROBE_API_H
#define MEMCARLO_PROBE_API_H

#define MEMCARLO_PROBE_API_VERSION 1

#if defined(__CUDACC__) || defined(__CUDA__)
#define MEMCARLO_HD __host__ __device__
#else
#define MEMCARLO_HD
#endif

#ifdef __cplusplus
extern "C" {
#endif
/// Registers a translation unit's loads table (JSON array text, see docs/loads-table.md).
/// Called once per TU from a static initializer; safe before main().
void memcarlo_register_loads(unsigned tu, const char* loads_table_json);
/// Registers the parameter names of a translation unit's kernels (JSON array text
/// `[{"kernel": name, "parameters": [name, ...]}]`), so that traced launches record their integer
/// and pointer arguments by name. Called once per TU from a static initializer.
void memcarlo_register_kernel_parameters(const char* kernel_parameters_json);
#ifdef __cplusplus
}
#endif

#ifdef __cplusplus
namespace memcarlo_detail {
struct LoadsRegistrar {
  LoadsRegistrar(unsigned tu, const char* json) { memcarlo_register_loads(tu, json); }
};
}  // namespace memcarlo_detail
#define MEMCARLO_REGISTER_LOADS(tu, json) \
  static ::memcarlo_detail::LoadsRegistrar memcarlo_loads_registrar_instance((tu), (json));
namespace memcarlo_detail {
struct KernelParametersRegistrar {
  explicit KernelParametersRegistrar(const char* json) { memcarlo_register_kernel_parameters(json); }
};
}  // namespace memcarlo_detail
#define MEMCARLO_REGISTER_KERNEL_PARAMETERS(json)                        \
  static ::memcarlo_detail::KernelParametersRegistrar                  \
      memcarlo_kernel_parameters_registrar_instance((json));
#endif

#if defined(MEMCARLO_BACKEND_HOST)
// Host backend: implemented by the CUDA emulation runtime (tracebuf/host).
void memcarlo_record_access(unsigned tu, unsigned id, const void* address, unsigned size);
template <class Accessed>
inline Accessed* memcarlo_probe(unsigned tu, unsigned id, Accessed* address) {
  // const_cast: a probe of a volatile object passes its address, never reads through it.
  const volatile void* const location = address;
  memcarlo_record_access(tu, id, const_cast<const void*>(location), sizeof(Accessed));
  return address;
}
// memcarlo_launch(name, kernel, grid, block, shmem, stream, args...) (a macro that adds the call
// site) and MEMCARLO_DYNAMIC_SHARED come from the host runtime's emulation header
// (memcarlo/host/cuda_runtime_emulation.h), which the host backend force-includes and which
// includes this header.
#elif defined(MEMCARLO_BACKEND_CUDA)
// CUDA backend: implemented by the device probe runtime (tracebuf/cuda).
#include <type_traits>
__device__ void memcarlo_device_record(unsigned tu, unsigned id, const void* address, unsigned size);
// __host__ __device__ so that probes in __host__ __device__ functions compile; only the device
// side records.
template <class Accessed>
__host__ __device__ __forceinline__ Accessed* memcarlo_probe(unsigned tu, unsigned id,
                                                             Accessed* address) {
#if defined(__CUDA_ARCH__)
  const volatile void* const location = address;
  memcarlo_device_record(tu, id, const_cast<const void*>(location), sizeof(Accessed));
#else
  (void)tu;
  (void)id;
#endif
  return address;
}
// Called around each host-side launch: `shmem` is the launch's dynamic shared-memory size in bytes
// and `stream` its cudaStream_t (both 0 when the launch leaves them out). Only launches whose
// configuration has no side effects are wrapped, since the arguments are evaluated twice.
void memcarlo_launch_begin(const char* kernel_name, dim3 grid, dim3 block, unsigned long long shmem,
                           void* stream);
void memcarlo_launch_end();
// The launch's arguments, between memcarlo_launch_begin and the launch, for the trace's
// `kernel_arguments` record (docs/footprints.md): integers, enums and pointers (as addresses)
// by position; the runtime names them with the kernel's registered parameter names. The
// instrumenter passes the launch's arguments as spelled, only when evaluating them twice has no
// effect (no assignment, increment or call).
void memcarlo_launch_record_arguments(unsigned count, const long long* values,
                                      const bool* recorded);
namespace memcarlo_detail {
template <class Argument>
inline long long launch_argument_value(const Argument& argument) {
  if constexpr (::std::is_array_v<Argument> || ::std::is_function_v<Argument>) {
    // Passed as a pointer to its first element (the function).
    return static_cast<long long>(reinterpret_cast<unsigned long long>(&argument));
  } else if constexpr (::std::is_pointer_v<Argument>) {
    return static_cast<long long>(reinterpret_cast<unsigned long long>(argument));
  } else if constexpr (::std::is_integral_v<Argument> || ::std::is_enum_v<Argument>) {
    return static_cast<long long>(argument);
  } else {
    return 0;
  }
}
template <class Argument>
inline constexpr bool kLaunchArgumentRecorded =
    ::std::is_pointer_v<Argument> || ::std::is_integral_v<Argument> || ::std::is_enum_v<Argument>;
}  // namespace memcarlo_detail
template <class... Arguments>
inline void memcarlo_launch_arguments(const Arguments&... arguments) {
  // One extra element each: arrays of zero size are not C++.
  const long long values[] = {memcarlo_detail::launch_argument_value(arguments)..., 0};
  const bool recorded[] = {memcarlo_detail::kLaunchArgumentRecorded< ::std::decay_t<Arguments> >...,
                           false};
  memcarlo_launch_record_arguments(sizeof...(Arguments), values, recorded);
}
#else
// No backend selected (e.g. a syntax check): probes compile to nothing, launch hooks do nothing,
// and under a CUDA compiler memcarlo_launch is a plain launch and MEMCARLO_DYNAMIC_SHARED the
// `extern __shared__` declaration again, so that the output of either backend compiles with nvcc
// alone. Linking still needs memcarlo_register_loads (MEMCARLO_REGISTER_LOADS above), which only
// the runtimes define.
template <class Accessed>
inline MEMCARLO_HD Accessed* memcarlo_probe(unsigned, unsigned, Accessed* address) {
  return address;
}
#if defined(__CUDACC__) || defined(__CUDA__)
// The host backend's spelling of `extern __shared__ T name[];` (see docs/host-runtime.md).
#ifndef MEMCARLO_DYNAMIC_SHARED
#define MEMCARLO_DYNAMIC_SHARED(type, name) extern __shared__ type name[]
#endif
inline void memcarlo_launch_begin(const char*, dim3, dim3, unsigned long long, void*) {}
inline void memcarlo_launch_end() {}
template <class... Arguments>
inline void memcarlo_launch_arguments(const Arguments&...) {}
namespace memcarlo_detail {
template <class Parameter>
struct Identity {
  using Type = Parameter;
};
}  // namespace memcarlo_detail
// The arguments convert to the kernel's parameter types at the call, as in `k<<<...>>>(0)`.
template <class... Params>
inline void memcarlo_launch(const char*, void (*kernel)(Params...), dim3 grid, dim3 block,
                            unsigned long long shmem, cudaStream_t stream,
                            typename memcarlo_detail::Identity<Params>::Type... args) {
  kernel<<<grid, block, shmem, stream>>>(args...);
}
#endif
#endif

#endif  // MEMCARLO_PROBE_API_H
