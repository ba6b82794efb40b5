// memcarlo's declarations of the CUDA runtime API for the builtin parse setup (included by
// memcarlo_cuda_decls.h; what CUDA 12/13 removed is in memcarlo_cuda_legacy.h). Declarations only.
#pragma once

// ---- runtime API functions -----------------------------------------------------------------
#define MEMCARLO_API extern __host__ cudaError_t
MEMCARLO_API cudaMalloc(void** ptr, size_t size);
template <class T> __host__ cudaError_t cudaMalloc(T** ptr, size_t size);
MEMCARLO_API cudaMallocHost(void** ptr, size_t size);
template <class T> __host__ cudaError_t cudaMallocHost(T** ptr, size_t size, unsigned flags = 0);
MEMCARLO_API cudaHostAlloc(void** ptr, size_t size, unsigned flags);
template <class T> __host__ cudaError_t cudaHostAlloc(T** ptr, size_t size, unsigned flags);
MEMCARLO_API cudaMallocManaged(void** ptr, size_t size, unsigned flags = cudaMemAttachGlobal);
template <class T>
__host__ cudaError_t cudaMallocManaged(T** ptr, size_t size, unsigned flags = cudaMemAttachGlobal);
MEMCARLO_API cudaMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height);
template <class T> __host__ cudaError_t cudaMallocPitch(T** ptr, size_t* pitch, size_t w, size_t h);
MEMCARLO_API cudaMalloc3D(struct cudaPitchedPtr* ptr, struct cudaExtent extent);
MEMCARLO_API cudaMallocArray(cudaArray_t* array, const struct cudaChannelFormatDesc* desc,
                             size_t width, size_t height = 0, unsigned flags = 0);
MEMCARLO_API cudaMalloc3DArray(cudaArray_t* array, const struct cudaChannelFormatDesc* desc,
                               struct cudaExtent extent, unsigned flags = 0);
MEMCARLO_API cudaFree(void* ptr);
MEMCARLO_API cudaFreeHost(void* ptr);
MEMCARLO_API cudaFreeArray(cudaArray_t array);
MEMCARLO_API cudaHostRegister(void* ptr, size_t size, unsigned flags);
MEMCARLO_API cudaHostUnregister(void* ptr);
MEMCARLO_API cudaHostGetDevicePointer(void** device, void* host, unsigned flags);
template <class T> __host__ cudaError_t cudaHostGetDevicePointer(T** device, void* host, unsigned f);
MEMCARLO_API cudaMemcpy(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind);
MEMCARLO_API cudaMemcpyAsync(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind,
                             cudaStream_t stream = 0);
MEMCARLO_API cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                          size_t height, enum cudaMemcpyKind kind);
MEMCARLO_API cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch,
                               size_t width, size_t height, enum cudaMemcpyKind kind,
                               cudaStream_t stream = 0);
MEMCARLO_API cudaMemcpy3D(const struct cudaMemcpy3DParms* p);
MEMCARLO_API cudaMemcpyToArray(cudaArray_t dst, size_t w_offset, size_t h_offset, const void* src,
                               size_t count, enum cudaMemcpyKind kind);
MEMCARLO_API cudaMemcpy2DToArray(cudaArray_t dst, size_t w_offset, size_t h_offset,
                                 const void* src, size_t spitch, size_t width, size_t height,
                                 enum cudaMemcpyKind kind);
MEMCARLO_API cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t w_offset,
                                 size_t h_offset, size_t count, enum cudaMemcpyKind kind);
MEMCARLO_API cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count,
                                size_t offset = 0, enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
template <class T>
__host__ cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, size_t count,
                                        size_t offset = 0,
                                        enum cudaMemcpyKind kind = cudaMemcpyHostToDevice);
MEMCARLO_API cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count,
                                     size_t offset = 0,
                                     enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                     cudaStream_t stream = 0);
template <class T>
__host__ cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, size_t count,
                                             size_t offset = 0,
                                             enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                             cudaStream_t stream = 0);
MEMCARLO_API cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset = 0,
                                  enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
template <class T>
__host__ cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, size_t count,
                                          size_t offset = 0,
                                          enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
MEMCARLO_API cudaGetSymbolAddress(void** ptr, const void* symbol);
template <class T> __host__ cudaError_t cudaGetSymbolAddress(void** ptr, const T& symbol);
MEMCARLO_API cudaMemset(void* ptr, int value, size_t count);
MEMCARLO_API cudaMemsetAsync(void* ptr, int value, size_t count, cudaStream_t stream = 0);
MEMCARLO_API cudaMemset2D(void* ptr, size_t pitch, int value, size_t width, size_t height);
MEMCARLO_API cudaMemGetInfo(size_t* free_bytes, size_t* total_bytes);
MEMCARLO_API cudaMemPrefetchAsync(const void* ptr, size_t count, int device,
                                  cudaStream_t stream = 0);
MEMCARLO_API cudaPointerGetAttributes(struct cudaPointerAttributes* attributes, const void* ptr);

MEMCARLO_API cudaGetDeviceCount(int* count);
MEMCARLO_API cudaGetDevice(int* device);
MEMCARLO_API cudaSetDevice(int device);
MEMCARLO_API cudaSetDeviceFlags(unsigned flags);
MEMCARLO_API cudaChooseDevice(int* device, const struct cudaDeviceProp* prop);
MEMCARLO_API cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device);
MEMCARLO_API cudaDeviceGetAttribute(int* value, enum cudaDeviceAttr attr, int device);
MEMCARLO_API cudaDeviceSynchronize(void);
MEMCARLO_API cudaDeviceReset(void);
MEMCARLO_API cudaDeviceSetCacheConfig(enum cudaFuncCache config);
MEMCARLO_API cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
MEMCARLO_API cudaDeviceSetLimit(enum cudaLimit limit, size_t value);
MEMCARLO_API cudaDeviceGetLimit(size_t* value, enum cudaLimit limit);
MEMCARLO_API cudaDeviceCanAccessPeer(int* can, int device, int peer);
MEMCARLO_API cudaDeviceEnablePeerAccess(int peer, unsigned flags);
MEMCARLO_API cudaGetLastError(void);
MEMCARLO_API cudaPeekAtLastError(void);
extern __host__ const char* cudaGetErrorString(cudaError_t error);
extern __host__ const char* cudaGetErrorName(cudaError_t error);
MEMCARLO_API cudaDriverGetVersion(int* version);
MEMCARLO_API cudaRuntimeGetVersion(int* version);
MEMCARLO_API cudaFuncSetCacheConfig(const void* func, enum cudaFuncCache config);
template <class T> __host__ cudaError_t cudaFuncSetCacheConfig(T* func, enum cudaFuncCache config);
MEMCARLO_API cudaFuncGetAttributes(struct cudaFuncAttributes* attr, const void* func);
template <class T> __host__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes* a, T* f);
template <class T> __host__ cudaError_t cudaFuncSetAttribute(T* func, int attr, int value);
MEMCARLO_API cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func,
                                                           int block_size, size_t shared_mem);
template <class T>
__host__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, T func,
                                                                   int block_size, size_t smem);
template <class T>
__host__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int* grid, int* block, T func,
                                                        size_t smem = 0, int limit = 0);
MEMCARLO_API cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args,
                              size_t shared_mem, cudaStream_t stream);

MEMCARLO_API cudaStreamCreate(cudaStream_t* stream);
MEMCARLO_API cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags);
MEMCARLO_API cudaStreamDestroy(cudaStream_t stream);
MEMCARLO_API cudaStreamSynchronize(cudaStream_t stream);
MEMCARLO_API cudaStreamQuery(cudaStream_t stream);
MEMCARLO_API cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned flags = 0);
MEMCARLO_API cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t cb, void* data,
                                   unsigned flags);
MEMCARLO_API cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* data);
MEMCARLO_API cudaEventCreate(cudaEvent_t* event);
MEMCARLO_API cudaEventCreateWithFlags(cudaEvent_t* event, unsigned flags);
MEMCARLO_API cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
MEMCARLO_API cudaEventSynchronize(cudaEvent_t event);
MEMCARLO_API cudaEventQuery(cudaEvent_t event);
MEMCARLO_API cudaEventDestroy(cudaEvent_t event);
MEMCARLO_API cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);

extern __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                                   enum cudaChannelFormatKind f);
template <class T> __host__ struct cudaChannelFormatDesc cudaCreateChannelDesc(void);
MEMCARLO_API cudaCreateTextureObject(cudaTextureObject_t* tex, const struct cudaResourceDesc* r,
                                     const struct cudaTextureDesc* t, const void* view_desc);
MEMCARLO_API cudaDestroyTextureObject(cudaTextureObject_t tex);
MEMCARLO_API cudaProfilerStart(void);
MEMCARLO_API cudaProfilerStop(void);
#undef MEMCARLO_API

static inline __host__ struct cudaPitchedPtr make_cudaPitchedPtr(void* d, size_t p, size_t xs,
                                                                 size_t ys) {
  return cudaPitchedPtr{d, p, xs, ys};
}
static inline __host__ struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) {
  return cudaExtent{w, h, d};
}
static inline __host__ struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
  return cudaPos{x, y, z};
}

