// Texture references (`texture<T, dim, mode> t;` at file scope, cudaBindTexture, tex1Dfetch), which
// CUDA 12 removed and classic benchmarks still use, bound to linear device memory: a fetch reads
// the bound memory with point sampling and the reference's address modes. Bindings to CUDA arrays,
// linear filtering, layered, cubemap and mipmapped fetches end the program with a message
// (unsupported()). docs/host-runtime.md, "Texture references", has the rules.
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>

#include "memcarlo/host/detail/call_site.h"
#include "memcarlo/host/detail/reports.h"
#include "memcarlo/host/detail/runtime_api.h"
#include "memcarlo/host/detail/textures.h"
#include "memcarlo/host/detail/vector_types.h"

/// A texture reference, with CUDA's fields; where it is bound is the host backend's own (CUDA
/// keeps it in the driver, behind __cudaReserved).
struct textureReference {
  int normalized;
  cudaTextureFilterMode filterMode;
  cudaTextureAddressMode addressMode[3];
  cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned maxAnisotropy;
  cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  // The binding: `memcarlo_rows` rows of `memcarlo_row_bytes` bytes, `memcarlo_pitch` bytes apart,
  // from `memcarlo_address`; cudaBindTexture binds one row. 0 dimensions: not bound.
  const void* memcarlo_address;
  std::size_t memcarlo_row_bytes;
  std::size_t memcarlo_rows;
  std::size_t memcarlo_pitch;
  int memcarlo_dimensions;
};

template <class Texel, int Dimensions = 1, cudaTextureReadMode Mode = cudaReadModeElementType>
struct texture : textureReference {
  texture(int normalized_coordinates = 0, cudaTextureFilterMode filter = cudaFilterModePoint,
          cudaTextureAddressMode address = cudaAddressModeClamp)
      : texture(normalized_coordinates, filter, address, cudaCreateChannelDesc<Texel>()) {}
  texture(int normalized_coordinates, cudaTextureFilterMode filter, cudaTextureAddressMode address,
          cudaChannelFormatDesc description)
      : textureReference{normalized_coordinates,
                         filter,
                         {address, address, address},
                         description,
                         0,
                         0,
                         cudaFilterModePoint,
                         0.0f,
                         0.0f,
                         0.0f,
                         0,
                         nullptr,
                         0,
                         0,
                         0,
                         0} {}
};

namespace memcarlo::host::detail {

/// Binds `reference` to `rows` rows of `row_bytes` bytes, `pitch` apart, from `address`, which must
/// lie in device memory the runtime handed out. A 1D binding (rows 1) is cut at the end of its
/// allocation (~0 bytes: the rest of it); a 2D one must fit. Returns what cudaBindTexture does.
cudaError_t bind_texture(const textureReference& reference, const void* address,
                         std::size_t row_bytes, std::size_t rows, std::size_t pitch,
                         int dimensions);
cudaError_t unbind_texture(const textureReference& reference);

/// What a fetch through a texture<Texel, dim, Mode> returns: the texel, or for 8- and 16-bit
/// integer texels read with cudaReadModeNormalizedFloat, float (float1, float2, float4).
template <class Texel, cudaTextureReadMode Mode>
struct fetch_result {
  using type = Texel;
};
template <class Texel>
requires(std::is_integral_v<typename texel_traits<Texel>::component> &&
         sizeof(typename texel_traits<Texel>::component) <=
             2) struct fetch_result<Texel, cudaReadModeNormalizedFloat> {
  using type = std::conditional_t<
      std::is_same_v<Texel, typename texel_traits<Texel>::component>, float,
      std::conditional_t<texel_traits<Texel>::components == 1, float1,
                         std::conditional_t<texel_traits<Texel>::components == 2, float2, float4>>>;
};

/// An integer component in [-1, 1] or [0, 1], as cudaReadModeNormalizedFloat reads it.
template <class Component>
float normalized_component(Component value) {
  const float scaled =
      static_cast<float>(value) / static_cast<float>(std::numeric_limits<Component>::max());
  return scaled < -1.0f ? -1.0f : scaled;
}

template <class Texel, cudaTextureReadMode Mode>
typename fetch_result<Texel, Mode>::type texel_value(const Texel& texel) {
  using Result = typename fetch_result<Texel, Mode>::type;
  if constexpr (std::is_same_v<Result, Texel>) {
    return texel;
  } else if constexpr (std::is_same_v<Result, float>) {
    return normalized_component(texel);
  } else if constexpr (std::is_same_v<Result, float1>) {
    return float1{normalized_component(texel.x)};
  } else if constexpr (std::is_same_v<Result, float2>) {
    return float2{normalized_component(texel.x), normalized_component(texel.y)};
  } else {
    return float4{normalized_component(texel.x), normalized_component(texel.y),
                  normalized_component(texel.z), normalized_component(texel.w)};
  }
}

/// What every fetch of a texel type reads outside the bound memory (cudaAddressModeBorder, and
/// tex1Dfetch out of range): zeros, held in host memory that probes and bounds checks ignore.
template <class Texel>
inline constexpr Texel zero_texel{};

/// Texel (column, row) of the binding, or the zero texel outside it.
template <class Texel>
const Texel* bound_texel(const textureReference& reference, long long column, long long row,
                         const char* fetch, ::memcarlo::host::CallSite where) {
  if (reference.memcarlo_dimensions == 0) {
    invalid_use(fetch, where);
  }
  const auto columns = static_cast<long long>(reference.memcarlo_row_bytes / sizeof(Texel));
  if (column < 0 || column >= columns || row < 0 ||
      row >= static_cast<long long>(reference.memcarlo_rows)) {
    return &zero_texel<Texel>;
  }
  const auto* base = static_cast<const unsigned char*>(reference.memcarlo_address);
  return reinterpret_cast<const Texel*>(base +
                                        static_cast<std::size_t>(row) * reference.memcarlo_pitch +
                                        static_cast<std::size_t>(column) * sizeof(Texel));
}

/// The texel index point sampling picks along one dimension of `extent` texels, under the
/// reference's address mode for it; -1 when the coordinate lies outside under border mode.
/// Wrap and mirror need normalized coordinates (CUDA uses clamp otherwise).
inline long long sampled_index(const textureReference& reference, int dimension, float coordinate,
                               long long extent) {
  if (extent <= 0) {
    return -1;
  }
  const bool normalized = reference.normalized != 0;
  cudaTextureAddressMode mode = reference.addressMode[dimension];
  if (!normalized && (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror)) {
    mode = cudaAddressModeClamp;
  }
  double position = normalized ? static_cast<double>(coordinate) * static_cast<double>(extent)
                               : static_cast<double>(coordinate);
  if (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror) {
    const double whole = std::floor(static_cast<double>(coordinate));
    double fraction = static_cast<double>(coordinate) - whole;
    if (mode == cudaAddressModeMirror && std::fmod(whole, 2.0) != 0.0) {
      fraction = 1.0 - fraction;
    }
    position = fraction * static_cast<double>(extent);
  }
  if (std::isnan(position)) {
    return mode == cudaAddressModeBorder ? -1 : 0;
  }
  const double index = std::floor(position);
  if (mode == cudaAddressModeBorder) {
    return index < 0.0 || index >= static_cast<double>(extent) ? -1 : static_cast<long long>(index);
  }
  return index < 0.0                                ? 0
         : index >= static_cast<double>(extent - 1) ? extent - 1
                                                    : static_cast<long long>(index);
}

/// Point sampling at (x, y) of the binding (y is 0 for tex1D).
template <class Texel>
const Texel* sampled_texel(const textureReference& reference, float x, float y,
                           bool two_dimensional, const char* fetch,
                           ::memcarlo::host::CallSite where) {
  if (reference.memcarlo_dimensions == 0) {
    invalid_use(fetch, where);
  }
  if (reference.filterMode != cudaFilterModePoint) {
    unsupported("texture linear filtering (cudaFilterModeLinear)", where);
  }
  const auto columns = static_cast<long long>(reference.memcarlo_row_bytes / sizeof(Texel));
  const long long column = sampled_index(reference, 0, x, columns);
  const long long row =
      two_dimensional
          ? sampled_index(reference, 1, y, static_cast<long long>(reference.memcarlo_rows))
          : 0;
  return bound_texel<Texel>(reference, column, row, fetch, where);
}

}  // namespace memcarlo::host::detail

// ---- binding
// --------------------------------------------------------------------------------------

template <class Texel, int Dimensions, cudaTextureReadMode Mode>
cudaError_t cudaBindTexture(std::size_t* offset, const texture<Texel, Dimensions, Mode>& reference,
                            const void* address, std::size_t size = ~std::size_t{0}) {
  if (offset != nullptr) {
    *offset = 0;
  }
  return ::memcarlo::host::detail::bind_texture(reference, address, size, 1, size, 1);
}
template <class Texel, int Dimensions, cudaTextureReadMode Mode>
cudaError_t cudaBindTexture(std::size_t* offset, const texture<Texel, Dimensions, Mode>& reference,
                            const void* address, const cudaChannelFormatDesc& description,
                            std::size_t size = ~std::size_t{0}) {
  if (::memcarlo::host::detail::channel_bytes(description) != static_cast<int>(sizeof(Texel))) {
    return cudaErrorInvalidChannelDescriptor;
  }
  const_cast<texture<Texel, Dimensions, Mode>&>(reference).channelDesc = description;
  return cudaBindTexture(offset, reference, address, size);
}
/// The C form (`cudaBindTexture(0, &reference, pointer, &description, bytes)`).
inline cudaError_t cudaBindTexture(std::size_t* offset, const textureReference* reference,
                                   const void* address, const cudaChannelFormatDesc* description,
                                   std::size_t size = ~std::size_t{0}) {
  if (reference == nullptr || description == nullptr) {
    return cudaErrorInvalidValue;
  }
  if (::memcarlo::host::detail::channel_bytes(*description) !=
      ::memcarlo::host::detail::channel_bytes(reference->channelDesc)) {
    return cudaErrorInvalidChannelDescriptor;
  }
  if (offset != nullptr) {
    *offset = 0;
  }
  return ::memcarlo::host::detail::bind_texture(*reference, address, size, 1, size, 1);
}

template <class Texel, int Dimensions, cudaTextureReadMode Mode>
cudaError_t cudaBindTexture2D(std::size_t* offset,
                              const texture<Texel, Dimensions, Mode>& reference,
                              const void* address, std::size_t width, std::size_t height,
                              std::size_t pitch) {
  if (offset != nullptr) {
    *offset = 0;
  }
  return ::memcarlo::host::detail::bind_texture(reference, address, width * sizeof(Texel), height,
                                                pitch, 2);
}
template <class Texel, int Dimensions, cudaTextureReadMode Mode>
cudaError_t cudaBindTexture2D(std::size_t* offset,
                              const texture<Texel, Dimensions, Mode>& reference,
                              const void* address, const cudaChannelFormatDesc& description,
                              std::size_t width, std::size_t height, std::size_t pitch) {
  if (::memcarlo::host::detail::channel_bytes(description) != static_cast<int>(sizeof(Texel))) {
    return cudaErrorInvalidChannelDescriptor;
  }
  const_cast<texture<Texel, Dimensions, Mode>&>(reference).channelDesc = description;
  return cudaBindTexture2D(offset, reference, address, width, height, pitch);
}
inline cudaError_t cudaBindTexture2D(std::size_t* offset, const textureReference* reference,
                                     const void* address, const cudaChannelFormatDesc* description,
                                     std::size_t width, std::size_t height, std::size_t pitch) {
  if (reference == nullptr || description == nullptr) {
    return cudaErrorInvalidValue;
  }
  const int texel_bytes = ::memcarlo::host::detail::channel_bytes(*description);
  if (texel_bytes != ::memcarlo::host::detail::channel_bytes(reference->channelDesc)) {
    return cudaErrorInvalidChannelDescriptor;
  }
  if (offset != nullptr) {
    *offset = 0;
  }
  return ::memcarlo::host::detail::bind_texture(
      *reference, address, width * static_cast<std::size_t>(texel_bytes), height, pitch, 2);
}

template <class Texel, int Dimensions, cudaTextureReadMode Mode>
cudaError_t cudaUnbindTexture(const texture<Texel, Dimensions, Mode>& reference) {
  return ::memcarlo::host::detail::unbind_texture(reference);
}
inline cudaError_t cudaUnbindTexture(const textureReference* reference) {
  return reference != nullptr ? ::memcarlo::host::detail::unbind_texture(*reference)
                              : cudaErrorInvalidValue;
}
/// Bindings start where the program asked (docs/host-runtime.md), so the offset is always 0.
template <class Texel, int Dimensions, cudaTextureReadMode Mode>
cudaError_t cudaGetTextureAlignmentOffset(std::size_t* offset,
                                          const texture<Texel, Dimensions, Mode>&) {
  if (offset != nullptr) {
    *offset = 0;
  }
  return cudaSuccess;
}
inline cudaError_t cudaGetTextureReference(const textureReference** reference, const void* symbol) {
  if (reference == nullptr || symbol == nullptr) {
    return cudaErrorInvalidValue;
  }
  *reference = static_cast<const textureReference*>(symbol);
  return cudaSuccess;
}

template <class Texel, int Dimensions, cudaTextureReadMode Mode>
cudaError_t cudaBindTextureToArray(const texture<Texel, Dimensions, Mode>&, cudaArray_const_t,
                                   ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported(
      "texture references bound to CUDA arrays (cudaBindTextureToArray)", where);
}
template <class Texel, int Dimensions, cudaTextureReadMode Mode>
cudaError_t cudaBindTextureToArray(const texture<Texel, Dimensions, Mode>&, cudaArray_const_t,
                                   const cudaChannelFormatDesc&,
                                   ::memcarlo::host::CallSite where = {}) {
  ::memcarlo::host::detail::unsupported(
      "texture references bound to CUDA arrays (cudaBindTextureToArray)", where);
}

// ---- fetches ------------------------------------------------------------------------------------

/// The address tex1Dfetch(reference, x) reads: texel x of the bound memory, or a zero texel in host
/// memory when x lies outside it. Every texel a texture reference fetch returns is read through
/// this function or memcarlo_texture_sample_address, so that a probe can wrap the address:
/// `memcarlo_texture_value(t, *memcarlo_probe(unit, id, memcarlo_texture_fetch_address(t, i)))`
/// is tex1Dfetch(t, i) with the read recorded.
template <class Texel, int Dimensions, cudaTextureReadMode Mode>
inline const Texel* memcarlo_texture_fetch_address(
    const texture<Texel, Dimensions, Mode>& reference, int x,
    ::memcarlo::host::CallSite where = {}) {
  if (reference.memcarlo_dimensions == 2) {
    ::memcarlo::host::detail::invalid_use(
        "tex1Dfetch reads a texture reference bound with cudaBindTexture, not cudaBindTexture2D",
        where);
  }
  return ::memcarlo::host::detail::bound_texel<Texel>(
      reference, x, 0, "tex1Dfetch through a texture reference that is not bound", where);
}
/// The address tex1D(reference, x) (y absent) or tex2D(reference, x, y) reads, point sampled.
template <class Texel, int Dimensions, cudaTextureReadMode Mode>
inline const Texel* memcarlo_texture_sample_address(
    const texture<Texel, Dimensions, Mode>& reference, float x,
    ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::sampled_texel<Texel>(
      reference, x, 0.0f, false, "tex1D through a texture reference that is not bound", where);
}
template <class Texel, int Dimensions, cudaTextureReadMode Mode>
inline const Texel* memcarlo_texture_sample_address(
    const texture<Texel, Dimensions, Mode>& reference, float x, float y,
    ::memcarlo::host::CallSite where = {}) {
  return ::memcarlo::host::detail::sampled_texel<Texel>(
      reference, x, y, true, "tex2D through a texture reference that is not bound", where);
}
/// A fetched texel as the reference's read mode returns it.
template <class Texel, int Dimensions, cudaTextureReadMode Mode>
inline typename ::memcarlo::host::detail::fetch_result<Texel, Mode>::type memcarlo_texture_value(
    const texture<Texel, Dimensions, Mode>&, const Texel& texel) {
  return ::memcarlo::host::detail::texel_value<Texel, Mode>(texel);
}

template <class Texel, int Dimensions, cudaTextureReadMode Mode>
typename ::memcarlo::host::detail::fetch_result<Texel, Mode>::type tex1Dfetch(
    const texture<Texel, Dimensions, Mode>& reference, int x,
    ::memcarlo::host::CallSite where = {}) {
  return memcarlo_texture_value(reference, *memcarlo_texture_fetch_address(reference, x, where));
}
template <class Texel, int Dimensions, cudaTextureReadMode Mode>
typename ::memcarlo::host::detail::fetch_result<Texel, Mode>::type tex1D(
    const texture<Texel, Dimensions, Mode>& reference, float x,
    ::memcarlo::host::CallSite where = {}) {
  return memcarlo_texture_value(reference, *memcarlo_texture_sample_address(reference, x, where));
}
template <class Texel, int Dimensions, cudaTextureReadMode Mode>
typename ::memcarlo::host::detail::fetch_result<Texel, Mode>::type tex2D(
    const texture<Texel, Dimensions, Mode>& reference, float x, float y,
    ::memcarlo::host::CallSite where = {}) {
  return memcarlo_texture_value(reference,
                                *memcarlo_texture_sample_address(reference, x, y, where));
}

// Fetches that need a CUDA array (which the emulation does not have) or filtering it does not do.
#define MEMCARLO_UNSUPPORTED_FETCH(name, ...)                                              \
  template <class Texel, int Dimensions, cudaTextureReadMode Mode>                         \
  typename ::memcarlo::host::detail::fetch_result<Texel, Mode>::type name(                 \
      const texture<Texel, Dimensions, Mode>&, __VA_ARGS__,                                \
      ::memcarlo::host::CallSite where = {}) {                                             \
    ::memcarlo::host::detail::unsupported("texture reference fetches (" #name ")", where); \
  }
MEMCARLO_UNSUPPORTED_FETCH(tex3D, float, float, float)
MEMCARLO_UNSUPPORTED_FETCH(tex1DLayered, float, int)
MEMCARLO_UNSUPPORTED_FETCH(tex2DLayered, float, float, int)
MEMCARLO_UNSUPPORTED_FETCH(texCubemap, float, float, float)
MEMCARLO_UNSUPPORTED_FETCH(tex1DLod, float, float)
MEMCARLO_UNSUPPORTED_FETCH(tex2DLod, float, float, float)
#undef MEMCARLO_UNSUPPORTED_FETCH
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
