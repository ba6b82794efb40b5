// The memory half of the emulated CUDA runtime API: allocations (recorded in the registry so that
// probes keep only device addresses) and copies/sets, which complete before they return.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file
// are CUDA's.
#include <cstring>

#include "allocation_registry.hpp"
#include "api_errors.hpp"
#include "memcarlo/host/detail/runtime_api.h"
#include "memory_pools.hpp"
#include "trace_session.hpp"

// The header turns cudaMalloc(...) into a call that captures the variable name; the definitions
// below are of the functions themselves.
#undef cudaMalloc
#undef cudaMallocManaged

namespace memcarlo::host::detail {
namespace {

cudaError_t allocate(void** pointer, std::size_t size, MemoryKind kind, std::string name) {
  if (pointer == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  start_trace_session();
  if (size == 0 && kind != MemoryKind::kPinnedHost) {
    *pointer = nullptr;
    return cudaSuccess;
  }
  *pointer = allocations().allocate(size, kind, std::move(name));
  return *pointer != nullptr ? cudaSuccess : api_result(cudaErrorMemoryAllocation);
}

bool is_device(const void* pointer, std::size_t count) {
  const auto kind = allocations().kind_of(pointer, count);
  return kind && *kind != MemoryKind::kPinnedHost;
}

/// Only cudaMalloc'ed memory, what a probe keeps (symbols are global memory too, but the runtime
/// learns of them only when their address is taken, so they are left out consistently).
bool is_traced_device(const void* pointer) {
  const auto kind = allocations().kind_of(pointer, 1);
  return kind && (*kind == MemoryKind::kDevice || *kind == MemoryKind::kManaged);
}

/// CUDA rejects a copy whose pointers contradict its kind; so does the emulation, so that a
/// program that mixes up host and device pointers fails here as it would on a GPU.
cudaError_t check_copy(void* destination, const void* source, std::size_t count,
                       cudaMemcpyKind kind) {
  if (count == 0) {
    return cudaSuccess;
  }
  if (destination == nullptr || source == nullptr) {
    return cudaErrorInvalidValue;
  }
  switch (kind) {
    case cudaMemcpyHostToHost:
    case cudaMemcpyDefault:
      return cudaSuccess;
    case cudaMemcpyHostToDevice:
      return is_device(destination, count) ? cudaSuccess : cudaErrorInvalidValue;
    case cudaMemcpyDeviceToHost:
      return is_device(source, count) ? cudaSuccess : cudaErrorInvalidValue;
    case cudaMemcpyDeviceToDevice:
      return is_device(destination, count) && is_device(source, count) ? cudaSuccess
                                                                       : cudaErrorInvalidValue;
  }
  return cudaErrorInvalidMemcpyDirection;
}

}  // namespace

cudaError_t malloc_named(void** pointer, std::size_t size, bool managed, const char* call_text) {
  return allocate(pointer, size, managed ? MemoryKind::kManaged : MemoryKind::kDevice,
                  allocation_name_from_call(call_text));
}

bool is_device_address(const void* pointer) {
  return is_traced_device(pointer);
}

void register_symbol(const void* base, std::size_t size) {
  allocations().add_symbol(base, size);
}

}  // namespace memcarlo::host::detail

using memcarlo::host::detail::allocations;
using memcarlo::host::detail::api_result;
using memcarlo::host::detail::MemoryKind;

cudaError_t cudaMalloc(void** pointer, std::size_t size) {
  return memcarlo::host::detail::allocate(pointer, size, MemoryKind::kDevice, "");
}
cudaError_t cudaMallocManaged(void** pointer, std::size_t size, unsigned) {
  return memcarlo::host::detail::allocate(pointer, size, MemoryKind::kManaged, "");
}
cudaError_t cudaMallocPitch(void** pointer, std::size_t* pitch, std::size_t width,
                            std::size_t height) {
  if (pitch == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  *pitch = (width + 255) / 256 * 256;
  return memcarlo::host::detail::allocate(pointer, *pitch * height, MemoryKind::kDevice, "");
}
cudaError_t cudaFree(void* pointer) {
  if (pointer == nullptr) {
    return cudaSuccess;
  }
  // Out of its pool first: once released, the address may be another thread's new allocation.
  memcarlo::host::detail::forget_pool_allocation(pointer);
  return allocations().release(pointer, {MemoryKind::kDevice, MemoryKind::kManaged})
             ? cudaSuccess
             : api_result(cudaErrorInvalidValue);
}
cudaError_t cudaMallocHost(void** pointer, std::size_t size) {
  return memcarlo::host::detail::allocate(pointer, size, MemoryKind::kPinnedHost, "");
}
cudaError_t cudaHostAlloc(void** pointer, std::size_t size, unsigned) {
  return memcarlo::host::detail::allocate(pointer, size, MemoryKind::kPinnedHost, "");
}
cudaError_t cudaFreeHost(void* pointer) {
  if (pointer == nullptr) {
    return cudaSuccess;
  }
  return allocations().release(pointer, {MemoryKind::kPinnedHost})
             ? cudaSuccess
             : api_result(cudaErrorInvalidValue);
}
cudaError_t cudaHostRegister(void* pointer, std::size_t, unsigned) {
  return pointer != nullptr ? cudaSuccess : api_result(cudaErrorInvalidValue);
}
cudaError_t cudaHostUnregister(void* pointer) {
  return pointer != nullptr ? cudaSuccess : api_result(cudaErrorInvalidValue);
}
cudaError_t cudaHostGetDevicePointer(void** device_pointer, void* host_pointer, unsigned) {
  if (device_pointer == nullptr || host_pointer == nullptr) {
    return api_result(cudaErrorInvalidValue);
  }
  *device_pointer = host_pointer;
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* destination, const void* source, std::size_t count,
                       cudaMemcpyKind kind) {
  if (const cudaError_t error =
          memcarlo::host::detail::check_copy(destination, source, count, kind);
      error != cudaSuccess) {
    return api_result(error);
  }
  if (count > 0) {
    std::memmove(destination, source, count);
  }
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* destination, const void* source, std::size_t count,
                            cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy(destination, source, count, kind);
}
cudaError_t cudaMemcpy2D(void* destination, std::size_t destination_pitch, const void* source,
                         std::size_t source_pitch, std::size_t width, std::size_t height,
                         cudaMemcpyKind kind) {
  if (width > destination_pitch || width > source_pitch) {
    return api_result(cudaErrorInvalidPitchValue);
  }
  for (std::size_t row = 0; row < height; ++row) {
    const cudaError_t error =
        cudaMemcpy(static_cast<char*>(destination) + row * destination_pitch,
                   static_cast<const char*>(source) + row * source_pitch, width, kind);
    if (error != cudaSuccess) {
      return error;
    }
  }
  return cudaSuccess;
}
cudaError_t cudaMemcpy2DAsync(void* destination, std::size_t destination_pitch, const void* source,
                              std::size_t source_pitch, std::size_t width, std::size_t height,
                              cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy2D(destination, destination_pitch, source, source_pitch, width, height, kind);
}
cudaError_t cudaMemset(void* pointer, int value, std::size_t count) {
  if (count == 0) {
    return cudaSuccess;
  }
  if (!memcarlo::host::detail::is_device(pointer, count)) {
    return api_result(cudaErrorInvalidValue);
  }
  std::memset(pointer, value, count);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* pointer, int value, std::size_t count, cudaStream_t) {
  return cudaMemset(pointer, value, count);
}
cudaError_t cudaMemset2D(void* pointer, std::size_t pitch, int value, std::size_t width,
                         std::size_t height) {
  for (std::size_t row = 0; row < height; ++row) {
    const cudaError_t error = cudaMemset(static_cast<char*>(pointer) + row * pitch, value, width);
    if (error != cudaSuccess) {
      return error;
    }
  }
  return cudaSuccess;
}
cudaError_t cudaMemPrefetchAsync(const void*, std::size_t, int, cudaStream_t) {
  return cudaSuccess;
}
cudaError_t cudaMemAdvise(const void*, std::size_t, cudaMemoryAdvise, int) {
  return cudaSuccess;
}

void memcarlo_name_allocation(const void* base, const char* name) {
  allocations().set_name(base, name != nullptr ? name : "");
}
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
