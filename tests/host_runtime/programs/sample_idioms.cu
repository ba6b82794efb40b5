// Constructs of the CUDA samples that the host backend once refused, each reduced to a few lines
// of our own: a kernel launched without its defaulted last argument (shfl_scan), a block reduction
// through a volatile pointer (threadFenceReduction), a cooperative-groups tile shuffling uint4
// values and a 24-byte struct (shfl_scan's integral image), stream-ordered allocation with a
// memory pool (streamOrderedAllocation), registered host memory flags (simpleStreams) and the L2
// persistence API (simpleAttributes). Checks every result; prints "Result = PASS".
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

namespace cg = cooperative_groups;

static int failures = 0;

static void check(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}

// Adds `step` to every element, and when given, each block's first element to `firsts`.
__global__ void add_step(int* data, int step, int* firsts = NULL) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] += step;
  if (firsts != NULL && threadIdx.x == 0) firsts[blockIdx.x] = data[i];
}

template <typename T>
__global__ void scale(T* data, T factor = T(2)) {
  data[blockIdx.x * blockDim.x + threadIdx.x] *= factor;
}

// The samples' reduction tail: a volatile view of shared memory, summed in place.
__device__ void sum_block(volatile float* shared, unsigned tid) {
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (tid < half) shared[tid] = shared[tid] + shared[tid + half];
    __syncthreads();
  }
}

__global__ void block_sums(const float* in, volatile float* out) {
  __shared__ float shared[64];
  shared[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  sum_block(shared, threadIdx.x);
  if (threadIdx.x == 0) out[blockIdx.x] = shared[0];
}

struct Triple {
  double a;
  long long b;
  float c;
};

// Each lane takes its xor-1 neighbour's uint4 and its upper neighbour's Triple.
__global__ void tile_shuffles(const uint4* in, uint4* swapped, Triple* shifted) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned lane = tile.thread_rank();
  swapped[lane] = tile.shfl_xor(in[lane], 1);
  const Triple mine = {lane * 1.5, static_cast<long long>(lane) << 40, lane + 0.25f};
  shifted[lane] = tile.shfl_down(mine, 1);
}

int main() {
  // Default arguments.
  const int n = 128;
  int* data;
  int* firsts;
  cudaMallocManaged(&data, n * sizeof(int));
  cudaMallocManaged(&firsts, 2 * sizeof(int));
  for (int i = 0; i < n; ++i) data[i] = i;
  add_step<<<2, 64>>>(data, 10);
  add_step<<<2, 64>>>(data, 1, firsts);
  cudaDeviceSynchronize();
  bool defaults = firsts[0] == 11 && firsts[1] == 64 + 11;
  for (int i = 0; i < n; ++i) defaults = defaults && data[i] == i + 11;
  check(defaults, "a kernel launched without its defaulted argument");
  float* values;
  cudaMallocManaged(&values, 64 * sizeof(float));
  for (int i = 0; i < 64; ++i) values[i] = 1.5f;
  scale<<<1, 64>>>(values);
  scale<<<1, 64>>>(values, 3.0f);
  cudaDeviceSynchronize();
  check(values[0] == 9.0f && values[63] == 9.0f, "a template kernel's defaulted argument");

  // Volatile pointers.
  float* in;
  float* sums;
  cudaMallocManaged(&in, 128 * sizeof(float));
  cudaMallocManaged(&sums, 2 * sizeof(float));
  for (int i = 0; i < 128; ++i) in[i] = static_cast<float>(i);
  block_sums<<<2, 64>>>(in, sums);
  cudaDeviceSynchronize();
  check(sums[0] == 2016.0f && sums[1] == 6112.0f, "a reduction through volatile pointers");

  // Tile shuffles of values wider than 8 bytes.
  uint4* words;
  uint4* swapped;
  Triple* shifted;
  cudaMallocManaged(&words, 32 * sizeof(uint4));
  cudaMallocManaged(&swapped, 32 * sizeof(uint4));
  cudaMallocManaged(&shifted, 32 * sizeof(Triple));
  for (unsigned i = 0; i < 32; ++i) words[i] = make_uint4(i, 100 + i, 200 + i, 300 + i);
  tile_shuffles<<<1, 32>>>(words, swapped, shifted);
  cudaDeviceSynchronize();
  bool shuffled = true;
  for (unsigned i = 0; i < 32; ++i) {
    const unsigned from = i ^ 1u;
    shuffled = shuffled && swapped[i].x == from && swapped[i].y == 100 + from &&
               swapped[i].z == 200 + from && swapped[i].w == 300 + from;
    const unsigned source = i < 31 ? i + 1 : i;  // the last lane keeps its own value
    shuffled = shuffled && shifted[i].a == source * 1.5 &&
               shifted[i].b == static_cast<long long>(source) << 40 &&
               shifted[i].c == source + 0.25f;
  }
  check(shuffled, "tile shuffles of a uint4 and a 24-byte struct");

  // Stream-ordered allocation and memory pools.
  int supported = 0;
  cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0);
  check(supported == 1, "cudaDevAttrMemoryPoolsSupported");
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaMemPool_t pool;
  check(cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess, "cudaDeviceGetDefaultMemPool");
  unsigned long long threshold = ~0ull;
  check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold) == cudaSuccess,
        "cudaMemPoolSetAttribute");
  unsigned long long read_back = 0;
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &read_back);
  check(read_back == threshold, "the release threshold reads back");
  int* pooled;
  check(cudaMallocAsync(&pooled, n * sizeof(int), stream) == cudaSuccess, "cudaMallocAsync");
  unsigned long long used = 0;
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
  check(used == n * sizeof(int), "the pool counts the bytes allocated from it");
  cudaMemsetAsync(pooled, 0, n * sizeof(int), stream);
  add_step<<<2, 64, 0, stream>>>(pooled, 7);
  int copied[n];
  cudaMemcpyAsync(copied, pooled, sizeof copied, cudaMemcpyDeviceToHost, stream);
  check(cudaFreeAsync(pooled, stream) == cudaSuccess, "cudaFreeAsync");
  cudaStreamSynchronize(stream);
  check(copied[0] == 7 && copied[n - 1] == 7, "a kernel on stream-ordered memory");
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
  unsigned long long high = 0;
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high);
  check(used == 0 && high == n * sizeof(int), "freed bytes leave the pool, its high mark stays");
  cudaMemPoolProps props;
  std::memset(&props, 0, sizeof props);
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t own;
  check(cudaMemPoolCreate(&own, &props) == cudaSuccess, "cudaMemPoolCreate");
  float* from_pool;
  check(cudaMallocAsync(&from_pool, 256, own, stream) == cudaSuccess, "cudaMallocAsync(pool)");
  cudaMemPoolGetAttribute(own, cudaMemPoolAttrUsedMemCurrent, &used);
  check(used == 256, "an allocation counts in its own pool");
  cudaFree(from_pool);
  cudaMemPoolGetAttribute(own, cudaMemPoolAttrUsedMemCurrent, &used);
  check(used == 0, "cudaFree takes a pool's allocation out of it");
  check(cudaMemPoolDestroy(own) == cudaSuccess, "cudaMemPoolDestroy");
  check(cudaMallocFromPoolAsync(&from_pool, 256, own, stream) == cudaErrorInvalidValue,
        "a destroyed pool is refused");
  check(cudaMemPoolDestroy(pool) == cudaErrorInvalidValue, "the default pool is not destroyed");
  cudaGetLastError();

  // Registered host memory and L2 persistence.
  static int host_block[64];
  check(cudaHostRegister(host_block, sizeof host_block, cudaHostRegisterMapped) == cudaSuccess,
        "cudaHostRegister(cudaHostRegisterMapped)");
  cudaHostUnregister(host_block);
  cudaDeviceProp properties;
  cudaGetDeviceProperties(&properties, 0);
  check(properties.persistingL2CacheMaxSize == 0, "no persisting L2 lines");
  check(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0) == cudaSuccess, "a limit of 0");
  check(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 1 << 20) == cudaErrorUnsupportedLimit,
        "a persisting L2 size is refused");
  cudaGetLastError();
  cudaStreamAttrValue window;
  std::memset(&window, 0, sizeof window);
  window.accessPolicyWindow.base_ptr = data;
  window.accessPolicyWindow.num_bytes = n * sizeof(int);
  window.accessPolicyWindow.hitRatio = 0.6f;
  window.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  window.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  check(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &window) ==
            cudaSuccess,
        "cudaStreamSetAttribute");
  cudaStreamAttrValue read;
  cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &read);
  check(read.accessPolicyWindow.base_ptr == data && read.accessPolicyWindow.hitRatio == 0.6f &&
            read.accessPolicyWindow.missProp == cudaAccessPropertyStreaming,
        "the access policy window reads back");
  check(cudaCtxResetPersistingL2Cache() == cudaSuccess, "cudaCtxResetPersistingL2Cache");
  cudaStreamDestroy(stream);

  std::printf("Result = %s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
