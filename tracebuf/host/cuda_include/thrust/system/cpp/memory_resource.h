// Stand-in for Thrust's <thrust/system/cpp/memory_resource.h> on the host backend. memcarlo-cc
// builds Thrust (the CUDA toolkit's own headers) with its C++ device system
// (THRUST_DEVICE_SYSTEM_CPP): thrust::device_vector and Thrust's algorithms then run on the CPU, in
// the calling thread, untraced. This header gives that system the emulation's device memory
// instead of operator new: a device_vector's storage is a cudaMalloc allocation (universal
// vectors: cudaMallocManaged), so that its raw pointer passed to a kernel is traced and
// bounds-checked like any device allocation, and cudaMemcpy to and from it is a device copy, as
// programs written for the GPU expect. The names below are the ones Thrust's header defines.
#pragma once

#include <thrust/detail/config.h>
#include <thrust/mr/fancy_pointer_resource.h>
#include <thrust/mr/memory_resource.h>
#include <thrust/system/cpp/pointer.h>
#include <cstddef>
#include <cstdio>
#include <new>

// Both runtimes define it (memcarlo/tafe.h declares it too).
extern "C" void memcarlo_record_annotation(const char* kind, const char* payload_json);

THRUST_NAMESPACE_BEGIN
namespace system {
namespace cpp {
namespace detail {

/// Once per program, on stderr and in the trace (an `untraced_work` annotation, which
/// `memcarlo trace info` lists): Thrust's work is not in the trace.
inline void memcarlo_note_thrust() {
  static bool noted = false;
  if (!noted) {
    noted = true;
    memcarlo_record_annotation("untraced_work",
                               "{\"library\": \"thrust\", \"what\": \"Thrust's algorithms "
                               "ran on the CPU\"}");
    std::fprintf(stderr,
                 "memcarlo: note: Thrust runs on the CPU in the host backend (its C++ device "
                 "system); its algorithms' memory accesses are not traced\n");
  }
}

/// Device (or managed) memory of the emulation.
template <bool managed>
class memcarlo_emulated_resource final : public thrust::mr::memory_resource<> {
 public:
  void* do_allocate(std::size_t bytes, std::size_t) override {
    memcarlo_note_thrust();
    void* pointer = nullptr;
    const std::size_t size = bytes > 0 ? bytes : 1;
    const cudaError_t status =
        managed ? cudaMallocManaged(&pointer, size) : cudaMalloc(&pointer, size);
    if (status != cudaSuccess) {
      throw std::bad_alloc();
    }
    return pointer;
  }
  void do_deallocate(void* pointer, std::size_t, std::size_t) override { cudaFree(pointer); }
};

using native_resource = thrust::mr::fancy_pointer_resource<memcarlo_emulated_resource<false>,
                                                           thrust::cpp::pointer<void>>;
using universal_native_resource =
    thrust::mr::fancy_pointer_resource<memcarlo_emulated_resource<true>,
                                       thrust::cpp::universal_pointer<void>>;

}  // namespace detail

using memory_resource = detail::native_resource;
using universal_memory_resource = detail::universal_native_resource;
using universal_host_pinned_memory_resource = universal_memory_resource;

}  // namespace cpp
}  // namespace system
THRUST_NAMESPACE_END
