// The CUDA runtime API of the CUDA 3-11 era that CUDA 12 and 13 removed, declared for both parse
// setups (the builtin declarations include it; the toolkit setup force-includes it after the
// toolkit's headers): texture and surface references with their fetch functions and binding
// calls, the cudaThread* functions, the launch API before <<<>>> was lowered differently, and the
// cudaDeviceProp fields CUDA 13 dropped. Declarations only, for the parse; never compiled into
// output. Classic benchmarks call these in host code around their kernels.
#ifndef MEMCARLO_CUDA_LEGACY_H
#define MEMCARLO_CUDA_LEGACY_H

// The builtin setup declares everything itself; a toolkit needs what its version removed.
#if defined(MEMCARLO_CUDA_DECLS_H) || CUDART_VERSION >= 12000
#define MEMCARLO_LEGACY_TEXTURE_REFERENCES 1
#endif

#ifdef MEMCARLO_LEGACY_TEXTURE_REFERENCES
struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int __cudaReserved[14];
};
struct surfaceReference {
  struct cudaChannelFormatDesc channelDesc;
};
// The texture-type and read-mode arguments as CUDA spelled them.
#ifndef cudaTextureType1D
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC
#endif
#ifndef cudaSurfaceType1D
#define cudaSurfaceType1D 0x01
#define cudaSurfaceType2D 0x02
#define cudaSurfaceType3D 0x03
#endif

// device_builtin_texture_type: a namespace-scope texture<> is a device-side object, which device
// code reads through the fetch functions below.
template <class Texel, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture : public textureReference {
  __host__ texture(int norm = 0, enum cudaTextureFilterMode filter = cudaFilterModePoint,
                   enum cudaTextureAddressMode address = cudaAddressModeClamp);
  __host__ texture(int norm, enum cudaTextureFilterMode filter,
                   enum cudaTextureAddressMode address,
                   struct cudaChannelFormatDesc desc);
};
template <class Texel, int dim = 1>
struct __attribute__((device_builtin_surface_type)) surface : public surfaceReference {
  __host__ surface();
  __host__ surface(struct cudaChannelFormatDesc desc);
};
#endif  // MEMCARLO_LEGACY_TEXTURE_REFERENCES

// ---- fetches through a texture reference (the toolkit setup replaces the toolkit's
// texture_fetch_functions.h, so these are needed whatever its version) ------------------------
// What a fetch returns: the element type, or float (float1/2/4) for 8- and 16-bit integer texels
// read with cudaReadModeNormalizedFloat.
template <class Texel, enum cudaTextureReadMode mode>
struct memcarlo_texel {
  typedef Texel type;
};
#define MEMCARLO_NORMALIZED_TEXEL(texel, result)              \
  template <>                                                 \
  struct memcarlo_texel<texel, cudaReadModeNormalizedFloat> { \
    typedef result type;                                      \
  };
MEMCARLO_NORMALIZED_TEXEL(char, float)
MEMCARLO_NORMALIZED_TEXEL(signed char, float)
MEMCARLO_NORMALIZED_TEXEL(unsigned char, float)
MEMCARLO_NORMALIZED_TEXEL(short, float)
MEMCARLO_NORMALIZED_TEXEL(unsigned short, float)
MEMCARLO_NORMALIZED_TEXEL(char1, float1)
MEMCARLO_NORMALIZED_TEXEL(uchar1, float1)
MEMCARLO_NORMALIZED_TEXEL(short1, float1)
MEMCARLO_NORMALIZED_TEXEL(ushort1, float1)
MEMCARLO_NORMALIZED_TEXEL(char2, float2)
MEMCARLO_NORMALIZED_TEXEL(uchar2, float2)
MEMCARLO_NORMALIZED_TEXEL(short2, float2)
MEMCARLO_NORMALIZED_TEXEL(ushort2, float2)
MEMCARLO_NORMALIZED_TEXEL(char4, float4)
MEMCARLO_NORMALIZED_TEXEL(uchar4, float4)
MEMCARLO_NORMALIZED_TEXEL(short4, float4)
MEMCARLO_NORMALIZED_TEXEL(ushort4, float4)
#undef MEMCARLO_NORMALIZED_TEXEL

#define MEMCARLO_TEXEL typename memcarlo_texel<Texel, mode>::type
template <class Texel, int dim, enum cudaTextureReadMode mode>
__device__ MEMCARLO_TEXEL tex1Dfetch(texture<Texel, dim, mode> tex, int x);
template <class Texel, int dim, enum cudaTextureReadMode mode>
__device__ MEMCARLO_TEXEL tex1D(texture<Texel, dim, mode> tex, float x);
template <class Texel, int dim, enum cudaTextureReadMode mode>
__device__ MEMCARLO_TEXEL tex2D(texture<Texel, dim, mode> tex, float x, float y);
template <class Texel, int dim, enum cudaTextureReadMode mode>
__device__ MEMCARLO_TEXEL tex3D(texture<Texel, dim, mode> tex, float x, float y, float z);
template <class Texel, int dim, enum cudaTextureReadMode mode>
__device__ MEMCARLO_TEXEL tex1DLayered(texture<Texel, dim, mode> tex, float x, int layer);
template <class Texel, int dim, enum cudaTextureReadMode mode>
__device__ MEMCARLO_TEXEL tex2DLayered(texture<Texel, dim, mode> tex, float x, float y, int layer);
template <class Texel, int dim, enum cudaTextureReadMode mode>
__device__ MEMCARLO_TEXEL texCubemap(texture<Texel, dim, mode> tex, float x, float y, float z);
template <class Texel, int dim, enum cudaTextureReadMode mode>
__device__ MEMCARLO_TEXEL tex1DLod(texture<Texel, dim, mode> tex, float x, float level);
template <class Texel, int dim, enum cudaTextureReadMode mode>
__device__ MEMCARLO_TEXEL tex2DLod(texture<Texel, dim, mode> tex, float x, float y, float level);
#undef MEMCARLO_TEXEL
template <class Result, class Texel, int dim>
__device__ void surf1Dread(Result* value, surface<Texel, dim> surf, int x, int mode = 0);
template <class Result, class Texel, int dim>
__device__ Result surf1Dread(surface<Texel, dim> surf, int x, int mode = 0);
template <class Result, class Texel, int dim>
__device__ void surf2Dread(Result* value, surface<Texel, dim> surf, int x, int y, int mode = 0);
template <class Result, class Texel, int dim>
__device__ Result surf2Dread(surface<Texel, dim> surf, int x, int y, int mode = 0);
template <class Value, class Texel, int dim>
__device__ void surf1Dwrite(Value value, surface<Texel, dim> surf, int x, int mode = 0);
template <class Value, class Texel, int dim>
__device__ void surf2Dwrite(Value value, surface<Texel, dim> surf, int x, int y, int mode = 0);
template <class Value, class Texel, int dim>
__device__ void surf3Dwrite(Value value, surface<Texel, dim> surf, int x, int y, int z,
                            int mode = 0);

#ifdef MEMCARLO_LEGACY_TEXTURE_REFERENCES
// ---- binding references (host) ---------------------------------------------------------------
extern "C" {
extern __host__ cudaError_t cudaBindTexture(size_t* offset, const struct textureReference* tex,
                                            const void* ptr,
                                            const struct cudaChannelFormatDesc* desc,
                                            size_t size);
extern __host__ cudaError_t cudaBindTexture2D(size_t* offset, const struct textureReference* tex,
                                              const void* ptr,
                                              const struct cudaChannelFormatDesc* desc,
                                              size_t width, size_t height, size_t pitch);
extern __host__ cudaError_t cudaBindTextureToArray(const struct textureReference* tex,
                                                   cudaArray_const_t array,
                                                   const struct cudaChannelFormatDesc* desc);
extern __host__ cudaError_t cudaUnbindTexture(const struct textureReference* tex);
extern __host__ cudaError_t cudaGetTextureAlignmentOffset(size_t* offset,
                                                          const struct textureReference* tex);
extern __host__ cudaError_t cudaGetTextureReference(const struct textureReference** tex,
                                                    const void* symbol);
extern __host__ cudaError_t cudaBindSurfaceToArray(const struct surfaceReference* surf,
                                                   cudaArray_const_t array,
                                                   const struct cudaChannelFormatDesc* desc);
extern __host__ cudaError_t cudaGetSurfaceReference(const struct surfaceReference** surf,
                                                    const void* symbol);
}
// The C++ overloads of cuda_runtime.h (before CUDA 12) taking the reference itself.
#define MEMCARLO_TEXTURE_REFERENCE template <class Texel, int dim, enum cudaTextureReadMode mode>
#define MEMCARLO_TEXTURE const texture<Texel, dim, mode>&
MEMCARLO_TEXTURE_REFERENCE
__host__ cudaError_t cudaBindTexture(size_t* offset, MEMCARLO_TEXTURE tex, const void* ptr,
                                     size_t size = ~(size_t)0);
MEMCARLO_TEXTURE_REFERENCE
__host__ cudaError_t cudaBindTexture(size_t* offset, MEMCARLO_TEXTURE tex, const void* ptr,
                                     const struct cudaChannelFormatDesc& desc,
                                     size_t size = ~(size_t)0);
MEMCARLO_TEXTURE_REFERENCE
__host__ cudaError_t cudaBindTexture2D(size_t* offset, MEMCARLO_TEXTURE tex, const void* ptr,
                                       size_t width, size_t height, size_t pitch);
MEMCARLO_TEXTURE_REFERENCE
__host__ cudaError_t cudaBindTexture2D(size_t* offset, MEMCARLO_TEXTURE tex, const void* ptr,
                                       const struct cudaChannelFormatDesc& desc, size_t width,
                                       size_t height, size_t pitch);
MEMCARLO_TEXTURE_REFERENCE
__host__ cudaError_t cudaBindTextureToArray(MEMCARLO_TEXTURE tex, cudaArray_const_t array);
MEMCARLO_TEXTURE_REFERENCE
__host__ cudaError_t cudaBindTextureToArray(MEMCARLO_TEXTURE tex, cudaArray_const_t array,
                                            const struct cudaChannelFormatDesc& desc);
MEMCARLO_TEXTURE_REFERENCE
__host__ cudaError_t cudaUnbindTexture(MEMCARLO_TEXTURE tex);
MEMCARLO_TEXTURE_REFERENCE
__host__ cudaError_t cudaGetTextureAlignmentOffset(size_t* offset, MEMCARLO_TEXTURE tex);
#undef MEMCARLO_TEXTURE
#undef MEMCARLO_TEXTURE_REFERENCE
template <class Texel, int dim>
__host__ cudaError_t cudaBindSurfaceToArray(const surface<Texel, dim>& surf,
                                            cudaArray_const_t array);
template <class Texel, int dim>
__host__ cudaError_t cudaBindSurfaceToArray(const surface<Texel, dim>& surf,
                                            cudaArray_const_t array,
                                            const struct cudaChannelFormatDesc& desc);

// ---- removed runtime functions ------------------------------------------------------------
// Without default arguments: a toolkit that still declares one of them sees a compatible
// redeclaration.
extern "C" {
extern __host__ cudaError_t cudaThreadSynchronize(void);
extern __host__ cudaError_t cudaThreadExit(void);
extern __host__ cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache* config);
extern __host__ cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache config);
extern __host__ cudaError_t cudaThreadGetLimit(size_t* value, enum cudaLimit limit);
extern __host__ cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value);
extern __host__ cudaError_t cudaSetDoubleForDevice(double* value);
extern __host__ cudaError_t cudaSetDoubleForHost(double* value);
extern __host__ cudaError_t cudaSetupArgument(const void* argument, size_t size, size_t offset);
extern __host__ cudaError_t cudaLaunch(const void* function);
extern __host__ cudaError_t cudaProfilerInitialize(const char* config, const char* output,
                                                   int mode);
}
template <class Texel>
__host__ cudaError_t cudaSetupArgument(Texel argument, size_t offset);
template <class Texel>
__host__ cudaError_t cudaLaunch(Texel* function);
#endif  // MEMCARLO_LEGACY_TEXTURE_REFERENCES

#if !defined(MEMCARLO_CUDA_DECLS_H) && CUDART_VERSION >= 12000
// cudaDeviceSynchronize from device code (dynamic parallelism before CUDA 12): the toolkit now
// declares it for the host only.
extern "C" __device__ cudaError_t cudaDeviceSynchronize(void);
#endif

#if !defined(MEMCARLO_CUDA_DECLS_H) && CUDART_VERSION >= 13000
// CUDA 13 changed these signatures (a cudaMemLocation instead of a device number).
__host__ cudaError_t cudaMemPrefetchAsync(const void* ptr, size_t count, int device,
                                          cudaStream_t stream = 0);
__host__ cudaError_t cudaMemAdvise(const void* ptr, size_t count, enum cudaMemoryAdvise advice,
                                   int device);
// cudaDeviceProp fields CUDA 13 removed (their values are device attributes now). A struct
// cannot gain members, so for the parse each name stands for a field of the same type that
// classic code never names; `prop.clockRate` then reads an int as it used to.
#define clockRate hostNumaMultinodeIpcSupported
#define deviceOverlap ipcEventSupported
#define kernelExecTimeoutEnabled clusterLaunch
#define computeMode unifiedFunctionPointers
#define maxTexture1DLinear deviceNumaConfig
#define memoryClockRate deviceNumaId
#define singleToDoublePrecisionPerfRatio mpsEnabled
#define cooperativeMultiDeviceLaunch hostNumaId
#endif

#endif  // MEMCARLO_CUDA_LEGACY_H
