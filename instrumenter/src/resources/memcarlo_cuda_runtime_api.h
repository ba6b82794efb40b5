// memcarlo's declarations of the CUDA runtime API for the builtin parse setup (included by
// memcarlo_cuda_decls.h; what CUDA 12/13 removed is in memcarlo_cuda_legacy.h). Declarations only.
#pragma once

// ---- runtime API functions -----------------------------------------------------------------
#define MEMCARLO_API extern __host__ cudaError_t
// What CUDA's cuda_runtime_api.h marks __cudart_builtin__: nvcc lets device code call these too
// (the device runtime of dynamic parallelism: cudaDeviceSynchronize, cudaGetLastError,
// cudaMalloc and cudaFree in a kernel, ...).
#define MEMCARLO_API_ANYWHERE extern __host__ __device__ cudaError_t
MEMCARLO_API_ANYWHERE cudaMalloc(void** ptr, size_t size);
template <class Element>
__host__ __device__ cudaError_t cudaMalloc(Element** ptr, size_t size);
MEMCARLO_API cudaMallocHost(void** ptr, size_t size);
template <class Element>
__host__ cudaError_t cudaMallocHost(Element** ptr, size_t size, unsigned flags = 0);
MEMCARLO_API cudaHostAlloc(void** ptr, size_t size, unsigned flags);
template <class Element>
__host__ cudaError_t cudaHostAlloc(Element** ptr, size_t size, unsigned flags);
MEMCARLO_API_ANYWHERE cudaMallocManaged(void** ptr, size_t size,
                                        unsigned flags = cudaMemAttachGlobal);
template <class Element>
__host__ cudaError_t cudaMallocManaged(Element** ptr, size_t size,
                                       unsigned flags = cudaMemAttachGlobal);
MEMCARLO_API cudaMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height);
template <class Element>
__host__ cudaError_t cudaMallocPitch(Element** ptr, size_t* pitch, size_t width, size_t height);
MEMCARLO_API cudaMalloc3D(struct cudaPitchedPtr* ptr, struct cudaExtent extent);
MEMCARLO_API cudaMallocArray(cudaArray_t* array, const struct cudaChannelFormatDesc* desc,
                             size_t width, size_t height = 0, unsigned flags = 0);
MEMCARLO_API cudaMalloc3DArray(cudaArray_t* array, const struct cudaChannelFormatDesc* desc,
                               struct cudaExtent extent, unsigned flags = 0);
MEMCARLO_API_ANYWHERE cudaFree(void* ptr);
MEMCARLO_API cudaFreeHost(void* ptr);
MEMCARLO_API cudaFreeArray(cudaArray_t array);
MEMCARLO_API cudaHostRegister(void* ptr, size_t size, unsigned flags);
MEMCARLO_API cudaHostUnregister(void* ptr);
MEMCARLO_API cudaHostGetDevicePointer(void** device, void* host, unsigned flags);
template <class Element>
__host__ cudaError_t cudaHostGetDevicePointer(Element** device, void* host, unsigned flags);
MEMCARLO_API cudaMemcpy(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind);
MEMCARLO_API_ANYWHERE cudaMemcpyAsync(void* dst, const void* src, size_t count,
                                      enum cudaMemcpyKind kind, cudaStream_t stream = 0);
MEMCARLO_API cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                          size_t height, enum cudaMemcpyKind kind);
MEMCARLO_API_ANYWHERE cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                                        size_t width, size_t height, enum cudaMemcpyKind kind,
                                        cudaStream_t stream = 0);
MEMCARLO_API cudaMemcpy3D(const struct cudaMemcpy3DParms* parameters);
MEMCARLO_API cudaMemcpyToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src,
                               size_t count, enum cudaMemcpyKind kind);
MEMCARLO_API cudaMemcpy2DToArray(cudaArray_t dst, size_t w_offset, size_t h_offset,
                                 const void* src, size_t spitch, size_t width, size_t height,
                                 enum cudaMemcpyKind kind);
MEMCARLO_API cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t w_offset,
                                 size_t h_offset, size_t count, enum cudaMemcpyKind kind);
MEMCARLO_API cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count,
                                size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
template <class Symbol>
__host__ cudaError_t cudaMemcpyToSymbol(const Symbol& symbol, const void* src, size_t count,
                                        size_t offset = 0,
                                        enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
MEMCARLO_API cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count,
                                     size_t offset = 0,
                                     enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                     cudaStream_t stream = 0);
template <class Symbol>
__host__ cudaError_t cudaMemcpyToSymbolAsync(const Symbol& symbol, const void* src, size_t count,
                                             size_t offset = 0,
                                             enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                             cudaStream_t stream = 0);
MEMCARLO_API cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset = 0,
                                  enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
template <class Symbol>
__host__ cudaError_t cudaMemcpyFromSymbol(void* dst, const Symbol& symbol, size_t count,
                                          size_t offset = 0,
                                          enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
MEMCARLO_API cudaGetSymbolAddress(void** ptr, const void* symbol);
template <class Symbol> __host__ cudaError_t cudaGetSymbolAddress(void** ptr, const Symbol& symbol);
MEMCARLO_API cudaMemset(void* ptr, int value, size_t count);
MEMCARLO_API_ANYWHERE cudaMemsetAsync(void* ptr, int value, size_t count,
                                      cudaStream_t stream = 0);
MEMCARLO_API cudaMemset2D(void* ptr, size_t pitch, int value, size_t width, size_t height);
MEMCARLO_API cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);
MEMCARLO_API cudaMemPrefetchAsync(const void* ptr, size_t count, int device,
                                  cudaStream_t stream = 0);
MEMCARLO_API cudaPointerGetAttributes(struct cudaPointerAttributes* attributes, const void* ptr);

MEMCARLO_API_ANYWHERE cudaGetDeviceCount(int* count);
MEMCARLO_API_ANYWHERE cudaGetDevice(int* device);
MEMCARLO_API cudaSetDevice(int device);
MEMCARLO_API cudaSetDeviceFlags(unsigned flags);
MEMCARLO_API cudaChooseDevice(int* device, const struct cudaDeviceProp* prop);
MEMCARLO_API_ANYWHERE cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device);
MEMCARLO_API_ANYWHERE cudaDeviceGetAttribute(int* value, enum cudaDeviceAttr attr, int device);
MEMCARLO_API_ANYWHERE cudaDeviceSynchronize(void);
MEMCARLO_API cudaDeviceReset(void);
MEMCARLO_API cudaDeviceSetCacheConfig(enum cudaFuncCache config);
MEMCARLO_API cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
MEMCARLO_API cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
MEMCARLO_API_ANYWHERE cudaDeviceGetLimit(size_t* value, enum cudaLimit limit);
MEMCARLO_API cudaDeviceCanAccessPeer(int* can, int device, int peer);
MEMCARLO_API cudaDeviceEnablePeerAccess(int peer, unsigned flags);
MEMCARLO_API_ANYWHERE cudaGetLastError(void);
MEMCARLO_API_ANYWHERE cudaPeekAtLastError(void);
extern __host__ __device__ const char* cudaGetErrorString(cudaError_t error);
extern __host__ __device__ const char* cudaGetErrorName(cudaError_t error);
MEMCARLO_API cudaDriverGetVersion(int* version);
MEMCARLO_API_ANYWHERE cudaRuntimeGetVersion(int* version);
MEMCARLO_API cudaFuncSetCacheConfig(const void* func, enum cudaFuncCache config);
template <class Function>
__host__ cudaError_t cudaFuncSetCacheConfig(Function* func, enum cudaFuncCache config);
MEMCARLO_API_ANYWHERE cudaFuncGetAttributes(struct cudaFuncAttributes* attr, const void* func);
template <class Function>
__host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes* attributes, Function* func);
template <class Function>
__host__ cudaError_t cudaFuncSetAttribute(Function* func, int attr, int value);
MEMCARLO_API_ANYWHERE cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func,
                                                                    int block_size,
                                                                    size_t shared_mem);
template <class Function>
__host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, Function func,
                                                                   int block_size, size_t smem);
template <class Function>
__host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int* grid, int* block, Function func,
                                                        size_t smem = 0, int limit = 0);
MEMCARLO_API cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args,
                              size_t shared_mem, cudaStream_t stream);
// cuda_runtime.h's C++ form, whose last two arguments may be left out.
template <class Function>
__host__ cudaError_t cudaLaunchKernel(const Function* func, dim3 grid, dim3 block, void** args,
                                      size_t shared_mem = 0, cudaStream_t stream = 0);
// The device runtime's own launch entry points (dynamic parallelism without <<<>>>).
#define cudaStreamTailLaunch ((cudaStream_t)0x3)
#define cudaStreamFireAndForget ((cudaStream_t)0x4)
extern "C" __device__ void* cudaGetParameterBuffer(size_t alignment, size_t size);
extern "C" __device__ cudaError_t cudaLaunchDevice(void* func, void* parameter_buffer, dim3 grid,
                                                   dim3 block, unsigned shared_mem,
                                                   cudaStream_t stream);

MEMCARLO_API cudaStreamCreate(cudaStream_t* stream);
MEMCARLO_API_ANYWHERE cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags);
MEMCARLO_API_ANYWHERE cudaStreamDestroy(cudaStream_t stream);
MEMCARLO_API cudaStreamSynchronize(cudaStream_t stream);
MEMCARLO_API cudaStreamQuery(cudaStream_t stream);
MEMCARLO_API_ANYWHERE cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                          unsigned flags = 0);
MEMCARLO_API cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t cb, void* data,
                                   unsigned flags);
MEMCARLO_API cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* data);
MEMCARLO_API cudaEventCreate(cudaEvent_t* event);
MEMCARLO_API_ANYWHERE cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags);
MEMCARLO_API_ANYWHERE cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
MEMCARLO_API cudaEventSynchronize(cudaEvent_t event);
MEMCARLO_API cudaEventQuery(cudaEvent_t event);
MEMCARLO_API_ANYWHERE cudaEventDestroy(cudaEvent_t event);
MEMCARLO_API cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);

extern __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                                   enum cudaChannelFormatKind f);
template <class Element> __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(void);
MEMCARLO_API cudaCreateTextureObject(cudaTextureObject_t* tex,
                                     const struct cudaResourceDesc* resource_desc,
                                     const struct cudaTextureDesc* texture_desc,
                                     const void* view_desc);
MEMCARLO_API cudaDestroyTextureObject(cudaTextureObject_t tex);
MEMCARLO_API cudaProfilerStart(void);
MEMCARLO_API cudaProfilerStop(void);
#undef MEMCARLO_API_ANYWHERE
#undef MEMCARLO_API

static inline __host__ struct cudaPitchedPtr make_cudaPitchedPtr(void* pointer, size_t pitch,
                                                                 size_t xsize, size_t ysize) {
  return cudaPitchedPtr{pointer, pitch, xsize, ysize};
}
static inline __host__ struct cudaExtent make_cudaExtent(size_t width, size_t height,
                                                         size_t depth) {
  return cudaExtent{width, height, depth};
}
static inline __host__ struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
  return cudaPos{x, y, z};
}

