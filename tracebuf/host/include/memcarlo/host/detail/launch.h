// Kernel launches on the host backend: memcarlo_launch(name, kernel, grid, block, shmem, stream,
// args...) is what the instrumenter emits for `kernel<<<grid, block, shmem, stream>>>(args...)`,
// and cudaLaunchKernel works too. Both run the grid to completion before returning (streams are
// serialized), each CUDA thread calling the kernel with its own copy of the arguments.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "memcarlo/host/detail/call_site.h"
#include "memcarlo/host/detail/runtime_api.h"
#include "memcarlo/host/detail/vector_types.h"

namespace memcarlo::host {

namespace detail {

struct LaunchRequest {
  const char* kernel_name;
  dim3 grid;
  dim3 block;
  std::size_t dynamic_shared_bytes;
  cudaStream_t stream;
  /// Runs the kernel body for the calling CUDA thread; `closure` holds the kernel and arguments.
  void (*invoke)(const void* closure);
  const void* closure;
  CallSite site;
  /// The arguments as integers (pointers as addresses), for the trace's kernel_arguments record;
  /// argument_recorded[i] is false for an argument that is neither an integer nor a pointer.
  std::size_t argument_count;
  const long long* argument_values;
  const bool* argument_recorded;
  /// cudaLaunchCooperativeKernel: every block resident at once, so that grid.sync() works.
  bool cooperative;
};

/// Validates, runs every block and, for a traced launch, writes its snapshot's warp records.
/// Sets the error that cudaGetLastError reports.
void run_launch(const LaunchRequest& request);

inline dim3 to_dim3(dim3 shape) {
  return shape;
}
inline dim3 to_dim3(uint3 shape) {
  return dim3(shape);
}
template <std::integral Integer>
dim3 to_dim3(Integer count) {
  return dim3(static_cast<unsigned>(count));
}

template <class Argument>
inline constexpr bool kRecordedArgument =
    std::is_integral_v<Argument> || std::is_enum_v<Argument> || std::is_pointer_v<Argument>;

template <class Argument>
long long argument_value(const Argument& argument) {
  if constexpr (std::is_pointer_v<Argument>) {
    return static_cast<long long>(reinterpret_cast<std::uintptr_t>(argument));
  } else if constexpr (std::is_integral_v<Argument> || std::is_enum_v<Argument>) {
    return static_cast<long long>(argument);
  } else {
    return 0;
  }
}

template <class... Params>
struct KernelClosure {
  void (*kernel)(Params...);
  std::tuple<std::decay_t<Params>...> arguments;

  static void invoke(const void* self) {
    const auto* closure = static_cast<const KernelClosure*>(self);
    // By value: each CUDA thread gets its own copy of the parameters, as on a GPU.
    std::apply(closure->kernel, closure->arguments);
  }
};

}  // namespace detail

template <class Grid, class Block, class... Params, class... Args>
void launch_kernel(CallSite site, const char* kernel_name, void (*kernel)(Params...), Grid grid,
                   Block block, std::size_t dynamic_shared_bytes, cudaStream_t stream,
                   Args&&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args),
                "memcarlo_launch: the kernel takes a different number of arguments");
  const detail::KernelClosure<Params...> closure{kernel, {std::forward<Args>(args)...}};
  std::array<long long, sizeof...(Params)> values{};
  std::array<bool, sizeof...(Params)> recorded{};
  std::apply(
      [&](const auto&... argument) {
        [[maybe_unused]] std::size_t position = 0;
        ((values[position] = detail::argument_value(argument),
          recorded[position] = detail::kRecordedArgument<std::decay_t<decltype(argument)>>,
          ++position),
         ...);
      },
      closure.arguments);
  detail::run_launch({kernel_name, detail::to_dim3(grid), detail::to_dim3(block),
                      dynamic_shared_bytes, stream, &detail::KernelClosure<Params...>::invoke,
                      &closure, site, sizeof...(Params), values.data(), recorded.data(),
                      false});
}

}  // namespace memcarlo::host

/// Registers the names a translation unit's launches give the runtime (JSON `{"launches":
/// [name, ...], "complete": bool}`), which the instrumenter emits for the host backend
/// (MEMCARLO_REGISTER_LAUNCHES): MEMCARLO_STOP_AFTER_TRACE awaits each of them.
extern "C" void memcarlo_register_launches(unsigned tu, const char* launches_json);
namespace memcarlo_detail {
struct LaunchesRegistrar {
  LaunchesRegistrar(unsigned tu, const char* json) { memcarlo_register_launches(tu, json); }
};
}  // namespace memcarlo_detail
#define MEMCARLO_REGISTER_LAUNCHES(tu, json) \
  static ::memcarlo_detail::LaunchesRegistrar memcarlo_launches_registrar_instance((tu), (json));

/// The launch the instrumenter emits for the host backend; shmem and stream may be 0.
#define memcarlo_launch(...) \
  ::memcarlo::host::launch_kernel(::memcarlo::host::CallSite(__FILE__, __LINE__), __VA_ARGS__)

namespace memcarlo::host::detail {
/// cudaLaunchKernel and cudaLaunchCooperativeKernel: the arguments from an array of pointers to
/// them, unpacked by the kernel's parameter types; the launch is named after the call.
template <class... Params>
cudaError_t launch_with_argument_array(const char* name, bool cooperative,
                                       void (*kernel)(Params...), dim3 grid, dim3 block,
                                       void** args, std::size_t dynamic_shared_bytes,
                                       cudaStream_t stream, CallSite where) {
  return [&]<std::size_t... Index>(std::index_sequence<Index...>) {
    const KernelClosure<Params...> closure{
        kernel, {*static_cast<std::decay_t<Params>*>(args[Index])...}};
    run_launch({name, grid, block, dynamic_shared_bytes, stream,
                &KernelClosure<Params...>::invoke, &closure, where, 0, nullptr, nullptr,
                cooperative});
    return cudaPeekAtLastError();
  }
  (std::index_sequence_for<Params...>{});
}
}  // namespace memcarlo::host::detail

namespace memcarlo::host::detail {
/// A kernel with the name its launches go by: the instrumenter turns cudaLaunchKernel((void*)k,
/// ...) into cudaLaunchKernel(memcarlo_named_kernel("k", k), ...).
template <class... Params>
struct NamedKernel {
  const char* name;
  void (*kernel)(Params...);
};
}  // namespace memcarlo::host::detail
template <class... Params>
::memcarlo::host::detail::NamedKernel<Params...> memcarlo_named_kernel(
    const char* name, void (*kernel)(Params...)) {
  return {name, kernel};
}
template <class... Params>
cudaError_t cudaLaunchKernel(::memcarlo::host::detail::NamedKernel<Params...> kernel, dim3 grid,
                             dim3 block, void** args, std::size_t dynamic_shared_bytes = 0,
                             cudaStream_t stream = nullptr,
                             ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::launch_with_argument_array(
      kernel.name, false, kernel.kernel, grid, block, args, dynamic_shared_bytes, stream, where);
}
template <class... Params>
cudaError_t cudaLaunchCooperativeKernel(::memcarlo::host::detail::NamedKernel<Params...> kernel,
                                        dim3 grid, dim3 block, void** args,
                                        std::size_t dynamic_shared_bytes = 0,
                                        cudaStream_t stream = nullptr,
                                        ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::launch_with_argument_array(
      kernel.name, true, kernel.kernel, grid, block, args, dynamic_shared_bytes, stream, where);
}
template <class... Params>
cudaError_t cudaLaunchKernel(void (*kernel)(Params...), dim3 grid, dim3 block, void** args,
                             std::size_t dynamic_shared_bytes = 0, cudaStream_t stream = nullptr,
                             ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::launch_with_argument_array(
      "cudaLaunchKernel", false, kernel, grid, block, args, dynamic_shared_bytes, stream, where);
}
/// Every block of the grid runs to each grid.sync() before any goes on (docs/host-runtime.md);
/// a grid larger than the device holds at once is refused (cudaErrorCooperativeLaunchTooLarge).
template <class... Params>
cudaError_t cudaLaunchCooperativeKernel(void (*kernel)(Params...), dim3 grid, dim3 block,
                                        void** args, std::size_t dynamic_shared_bytes = 0,
                                        cudaStream_t stream = nullptr,
                                        ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::launch_with_argument_array(
      "cudaLaunchCooperativeKernel", true, kernel, grid, block, args, dynamic_shared_bytes,
      stream, where);
}
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
