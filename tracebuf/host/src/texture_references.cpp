// Texture reference bindings: which device memory a cudaBindTexture or cudaBindTexture2D may cover
// (docs/host-runtime.md, "Texture references"). Fetches read the binding in the headers.
#include <algorithm>
#include <optional>

#include "allocation_registry.hpp"
#include "api_errors.hpp"
#include "memcarlo/host/detail/texture_references.h"

namespace memcarlo::host::detail {

cudaError_t bind_texture(const textureReference& reference, const void* address,
                         std::size_t row_bytes, std::size_t rows, std::size_t pitch,
                         int dimensions) {
  // A binding is the driver's state in CUDA, which takes the reference by const reference too;
  // texture references are namespace-scope variables, never const objects.
  auto& bound = const_cast<textureReference&>(reference);
  // Device, managed and mapped memory, and __device__ variables whose address the program took.
  const std::optional<std::uint64_t> available =
      address != nullptr ? allocations().bytes_after(address) : std::nullopt;
  if (!available) {
    return api_result(cudaErrorInvalidValue);
  }
  if (dimensions == 1) {
    row_bytes = static_cast<std::size_t>(std::min<std::uint64_t>(row_bytes, *available));
    pitch = row_bytes;
    rows = 1;
  } else if (rows == 0 || row_bytes == 0 || pitch < row_bytes ||
             (rows - 1) * pitch + row_bytes > *available) {
    return api_result(cudaErrorInvalidValue);
  }
  bound.memcarlo_address = address;
  bound.memcarlo_row_bytes = row_bytes;
  bound.memcarlo_rows = rows;
  bound.memcarlo_pitch = pitch;
  bound.memcarlo_dimensions = dimensions;
  return cudaSuccess;
}

cudaError_t unbind_texture(const textureReference& reference) {
  auto& bound = const_cast<textureReference&>(reference);
  bound.memcarlo_address = nullptr;
  bound.memcarlo_row_bytes = bound.memcarlo_rows = bound.memcarlo_pitch = 0;
  bound.memcarlo_dimensions = 0;
  return cudaSuccess;
}

}  // namespace memcarlo::host::detail
