// Texture objects, surfaces and CUDA arrays, which the host backend does not emulate, and the
// types, enums and channel descriptors they share with texture references (which it does:
// texture_references.h). Everything is declared as CUDA declares it, so that a program using
// these compiles; the first call that needs one (creating a texture object, allocating an array,
// a surface access) ends the program with a message naming the construct and the source line
// (unsupported()).
// NOLINTBEGIN(readability-identifier-naming,bugprone-reserved-identifier): the names in this file are CUDA's.
#pragma once

#include <cstddef>
#include <type_traits>

#include "memcarlo/host/detail/call_site.h"
#include "memcarlo/host/detail/reports.h"
#include "memcarlo/host/detail/runtime_api.h"
#include "memcarlo/host/detail/vector_types.h"

// ---- types and enums ----------------------------------------------------------------------------

enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3,
};
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2,
};
enum cudaChannelFormatKind {
  cudaChannelFormatKindSigned = 0,
  cudaChannelFormatKindUnsigned = 1,
  cudaChannelFormatKindFloat = 2,
  cudaChannelFormatKindNone = 3,
};
enum cudaResourceType {
  cudaResourceTypeArray = 0,
  cudaResourceTypeMipmappedArray = 1,
  cudaResourceTypeLinear = 2,
  cudaResourceTypePitch2D = 3,
};
#define cudaArrayDefault 0x00
#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap 0x04
#define cudaArrayTextureGather 0x08

typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
struct cudaArray;
typedef cudaArray* cudaArray_t;
typedef const cudaArray* cudaArray_const_t;
struct cudaMipmappedArray;
typedef cudaMipmappedArray* cudaMipmappedArray_t;

struct cudaChannelFormatDesc {
  int x, y, z, w;
  cudaChannelFormatKind f;
};

struct cudaExtent {
  std::size_t width, height, depth;
};
struct cudaPos {
  std::size_t x, y, z;
};
struct cudaPitchedPtr {
  void* ptr;
  std::size_t pitch, xsize, ysize;
};
inline cudaExtent make_cudaExtent(std::size_t width, std::size_t height, std::size_t depth) {
  return cudaExtent{width, height, depth};
}
inline cudaPos make_cudaPos(std::size_t x, std::size_t y, std::size_t z) {
  return cudaPos{x, y, z};
}
inline cudaPitchedPtr make_cudaPitchedPtr(void* pointer, std::size_t pitch, std::size_t width,
                                          std::size_t height) {
  return cudaPitchedPtr{pointer, pitch, width, height};
}
struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  cudaPos srcPos;
  cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  cudaPos dstPos;
  cudaPitchedPtr dstPtr;
  cudaExtent extent;
  cudaMemcpyKind kind;
};

struct cudaResourceDesc {
  cudaResourceType resType;
  union {
    struct {
      cudaArray_t array;
    } array;
    struct {
      cudaMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void* devPtr;
      cudaChannelFormatDesc desc;
      std::size_t sizeInBytes;
    } linear;
    struct {
      void* devPtr;
      cudaChannelFormatDesc desc;
      std::size_t width;
      std::size_t height;
      std::size_t pitchInBytes;
    } pitch2D;
  } res;
};
struct cudaTextureDesc {
  cudaTextureAddressMode addressMode[3];
  cudaTextureFilterMode filterMode;
  cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned maxAnisotropy;
  cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};
struct cudaResourceViewDesc {
  int format;
  std::size_t width, height, depth;
  unsigned firstMipmapLevel, lastMipmapLevel, firstLayer, lastLayer;
};

struct surfaceReference {
  cudaChannelFormatDesc channelDesc;
};
template <class Texel, int Dimensions = 1>
struct surface : surfaceReference {};

namespace memcarlo::host::detail {
/// A texel type's components: its scalar type and how many (1 for scalars, 1, 2 or 4 for the
/// vector types CUDA makes channel descriptors of).
template <class Texel>
struct texel_traits {
  using component = Texel;
  static constexpr int components = 1;
};
#define MEMCARLO_VECTOR_TEXELS(name, scalar) \
  template <>                                \
  struct texel_traits<name##1> {             \
    using component = scalar;                \
    static constexpr int components = 1;     \
  };                                         \
  template <>                                \
  struct texel_traits<name##2> {             \
    using component = scalar;                \
    static constexpr int components = 2;     \
  };                                         \
  template <>                                \
  struct texel_traits<name##4> {             \
    using component = scalar;                \
    static constexpr int components = 4;     \
  };
MEMCARLO_VECTOR_TEXELS(char, signed char)
MEMCARLO_VECTOR_TEXELS(uchar, unsigned char)
MEMCARLO_VECTOR_TEXELS(short, short)
MEMCARLO_VECTOR_TEXELS(ushort, unsigned short)
MEMCARLO_VECTOR_TEXELS(int, int)
MEMCARLO_VECTOR_TEXELS(uint, unsigned int)
MEMCARLO_VECTOR_TEXELS(float, float)
#undef MEMCARLO_VECTOR_TEXELS

/// Bytes of one texel as a channel descriptor describes it.
inline int channel_bytes(const cudaChannelFormatDesc& description) {
  return (description.x + description.y + description.z + description.w) / 8;
}
}  // namespace memcarlo::host::detail

inline cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                   cudaChannelFormatKind kind) {
  return cudaChannelFormatDesc{x, y, z, w, kind};
}
/// The channel descriptor of a texel type: one channel per component, as CUDA's
/// channel_descriptor.h gives them (cudaCreateChannelDesc<float4>() is 32, 32, 32, 32, float).
template <class Texel>
cudaChannelFormatDesc cudaCreateChannelDesc() {
  using Traits = ::memcarlo::host::detail::texel_traits<Texel>;
  using Component = typename Traits::component;
  const cudaChannelFormatKind kind = std::is_floating_point_v<Component>
                                         ? cudaChannelFormatKindFloat
                                     : std::is_signed_v<Component> ? cudaChannelFormatKindSigned
                                                                   : cudaChannelFormatKindUnsigned;
  const int bits = static_cast<int>(8 * sizeof(Component));
  return cudaChannelFormatDesc{bits, Traits::components >= 2 ? bits : 0,
                               Traits::components >= 4 ? bits : 0,
                               Traits::components >= 4 ? bits : 0, kind};
}

// ---- what fails when reached --------------------------------------------------------------------

// One unsupported entry point: `construct` names it in the message, the CallSite default argument
// gives the caller's file and line.
#define MEMCARLO_UNSUPPORTED_BODY(construct) ::memcarlo::host::detail::unsupported(construct, where)

// Texture objects.
inline cudaError_t cudaCreateTextureObject(cudaTextureObject_t*, const cudaResourceDesc*,
                                           const cudaTextureDesc*, const cudaResourceViewDesc*,
                                           ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("texture objects (cudaCreateTextureObject)");
}
inline cudaError_t cudaDestroyTextureObject(cudaTextureObject_t,
                                            ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("texture objects (cudaDestroyTextureObject)");
}
inline cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc*, cudaTextureObject_t,
                                                    ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("texture objects (cudaGetTextureObjectResourceDesc)");
}
template <class Texel>
Texel tex1Dfetch(cudaTextureObject_t, int, ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("texture objects (tex1Dfetch)");
}
template <class Texel>
Texel tex1D(cudaTextureObject_t, float, ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("texture objects (tex1D)");
}
template <class Texel>
Texel tex2D(cudaTextureObject_t, float, float, ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("texture objects (tex2D)");
}
template <class Texel>
Texel tex3D(cudaTextureObject_t, float, float, float, ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("texture objects (tex3D)");
}
template <class Texel>
Texel tex1DLod(cudaTextureObject_t, float, float, ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("texture objects (tex1DLod)");
}
template <class Texel>
Texel tex2DLod(cudaTextureObject_t, float, float, float, ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("texture objects (tex2DLod)");
}
template <class Texel>
Texel tex3DLod(cudaTextureObject_t, float, float, float, float,
               ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("texture objects (tex3DLod)");
}
template <class Texel>
Texel tex1DLayered(cudaTextureObject_t, float, int, ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("texture objects (tex1DLayered)");
}
template <class Texel>
Texel tex2DLayered(cudaTextureObject_t, float, float, int, ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("texture objects (tex2DLayered)");
}
template <class Texel>
Texel texCubemap(cudaTextureObject_t, float, float, float, ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("texture objects (texCubemap)");
}
template <class Texel>
Texel tex2Dgather(cudaTextureObject_t, float, float, int = 0,
                  ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("texture objects (tex2Dgather)");
}
template <class Texel>
Texel tex2DGrad(cudaTextureObject_t, float, float, float2, float2,
                ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("texture objects (tex2DGrad)");
}

// Surfaces.
inline cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t*, const cudaResourceDesc*,
                                           ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("surface objects (cudaCreateSurfaceObject)");
}
inline cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t,
                                            ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("surface objects (cudaDestroySurfaceObject)");
}
template <class Texel, int Dimensions>
cudaError_t cudaBindSurfaceToArray(const surface<Texel, Dimensions>&, cudaArray_const_t,
                                   ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("surface references (cudaBindSurfaceToArray)");
}
template <class Texel>
void surf1Dwrite(Texel, cudaSurfaceObject_t, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap,
                 ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("surfaces (surf1Dwrite)");
}
template <class Texel>
Texel surf1Dread(cudaSurfaceObject_t, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap,
                 ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("surfaces (surf1Dread)");
}
template <class Texel>
void surf2Dwrite(Texel, cudaSurfaceObject_t, int, int,
                 cudaSurfaceBoundaryMode = cudaBoundaryModeTrap,
                 ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("surfaces (surf2Dwrite)");
}
template <class Texel>
Texel surf2Dread(cudaSurfaceObject_t, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap,
                 ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("surfaces (surf2Dread)");
}
template <class Texel>
void surf2Dread(Texel*, cudaSurfaceObject_t, int, int,
                cudaSurfaceBoundaryMode = cudaBoundaryModeTrap,
                ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("surfaces (surf2Dread)");
}
template <class Texel>
void surf3Dwrite(Texel, cudaSurfaceObject_t, int, int, int,
                 cudaSurfaceBoundaryMode = cudaBoundaryModeTrap,
                 ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("surfaces (surf3Dwrite)");
}
template <class Texel>
Texel surf3Dread(cudaSurfaceObject_t, int, int, int, cudaSurfaceBoundaryMode = cudaBoundaryModeTrap,
                 ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("surfaces (surf3Dread)");
}

// CUDA arrays.
inline cudaError_t cudaMallocArray(cudaArray_t*, const cudaChannelFormatDesc*, std::size_t,
                                   std::size_t = 0, unsigned = 0,
                                   ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("CUDA arrays (cudaMallocArray)");
}
inline cudaError_t cudaMalloc3DArray(cudaArray_t*, const cudaChannelFormatDesc*, cudaExtent,
                                     unsigned = 0, ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("CUDA arrays (cudaMalloc3DArray)");
}
inline cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t*, const cudaChannelFormatDesc*,
                                            cudaExtent, unsigned, unsigned = 0,
                                            ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("CUDA arrays (cudaMallocMipmappedArray)");
}
inline cudaError_t cudaFreeArray(cudaArray_t, ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("CUDA arrays (cudaFreeArray)");
}
inline cudaError_t cudaMemcpyToArray(cudaArray_t, std::size_t, std::size_t, const void*,
                                     std::size_t, cudaMemcpyKind,
                                     ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("CUDA arrays (cudaMemcpyToArray)");
}
inline cudaError_t cudaMemcpy2DToArray(cudaArray_t, std::size_t, std::size_t, const void*,
                                       std::size_t, std::size_t, std::size_t, cudaMemcpyKind,
                                       ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("CUDA arrays (cudaMemcpy2DToArray)");
}
inline cudaError_t cudaMemcpyFromArray(void*, cudaArray_const_t, std::size_t, std::size_t,
                                       std::size_t, cudaMemcpyKind,
                                       ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("CUDA arrays (cudaMemcpyFromArray)");
}
inline cudaError_t cudaMemcpy2DFromArray(void*, std::size_t, cudaArray_const_t, std::size_t,
                                         std::size_t, std::size_t, std::size_t, cudaMemcpyKind,
                                         ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("CUDA arrays (cudaMemcpy2DFromArray)");
}
inline cudaError_t cudaMalloc3D(cudaPitchedPtr*, cudaExtent,
                                ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("3D allocations (cudaMalloc3D)");
}
inline cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms*, ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("3D copies (cudaMemcpy3D)");
}
inline cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc*, cudaArray_const_t,
                                      ::memcarlo::host::CallSite where = {}) {
  MEMCARLO_UNSUPPORTED_BODY("CUDA arrays (cudaGetChannelDesc)");
}
#undef MEMCARLO_UNSUPPORTED_BODY
// NOLINTEND(readability-identifier-naming,bugprone-reserved-identifier)
