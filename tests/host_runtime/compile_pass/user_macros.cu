// Must compile on the host backend with the macros benchmark suites define on the command line
// (the CMake test passes -DA=1 ... -DZ=26, PolyBench's -DNI= -DNJ= ... -DTSTEPS=, Rodinia's
// -Dfp=float, ...) and with macros the program defines before its CUDA includes: the emulation
// headers use no name a macro of these suites would replace. Every header template the program
// can reach is instantiated below.
#define BLOCK_SIZE 16
#define TILE_DIM 32
#define DATA_TYPE float

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <math_constants.h>

namespace cg = cooperative_groups;

__constant__ DATA_TYPE coefficients[TILE_DIM];
__device__ unsigned counter;
texture<DATA_TYPE, 1, cudaReadModeElementType> reference;
texture<uchar4, 2, cudaReadModeNormalizedFloat> image;

__device__ DATA_TYPE group_sum(cg::thread_group group, DATA_TYPE value) {
  group.sync();
  return value + static_cast<DATA_TYPE>(group.thread_rank() + group.size());
}

__global__ void every_intrinsic(DATA_TYPE* data, int* flags, cudaTextureObject_t texture) {
  __shared__ DATA_TYPE tile[BLOCK_SIZE][BLOCK_SIZE + 1];
  MEMCARLO_DYNAMIC_SHARED(DATA_TYPE, dynamic);
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = *memcarlo_probe(0x1u, 0u, &data[i]);
  dynamic[threadIdx.x] = __ldg(&data[i]) + coefficients[i % TILE_DIM];
  __syncthreads();
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  DATA_TYPE sum = cg::reduce(warp, tile[0][threadIdx.x], cg::plus<DATA_TYPE>());
  sum += __shfl_down_sync(0xffffffffu, sum, 16);
  sum += warp.shfl_xor(sum, 1);
  atomicAdd(&data[0], sum);
  atomicMax(&flags[0], static_cast<int>(i));
  atomicCAS(&flags[1], 0, 1);
  atomicInc(&counter, 100u);
  flags[2] = __ballot_sync(0xffffffffu, sum > 0) != 0 ? min(3, 4) : max(1u, 2u);
  data[1] = fminf(sum, CUDART_PI_F) + rsqrtf(2.0f) + __saturatef(sum);
  if (flags[3] != 0) {
    data[2] = tex1Dfetch<DATA_TYPE>(texture, static_cast<int>(i));
    surf2Dwrite(sum, texture, 0, 0);
  }
  data[3] = tex1Dfetch(reference, static_cast<int>(i)) + tex1D(reference, 0.5f);
  const float4 pixel = tex2D(image, 0.5f, 0.5f);
  data[4] = pixel.x + *memcarlo_texture_fetch_address(reference, 0);
  __shared__ cg::block_tile_memory<256> scratch;
  cg::thread_block scratch_block = cg::this_thread_block(scratch);
  cg::thread_block_tile<64> wide = cg::tiled_partition<64>(scratch_block);
  sum = group_sum(cg::tiled_partition(block, 16), sum) + group_sum(wide, sum);
  sum += cg::reduce(wide, sum, cg::plus<DATA_TYPE>()) + wide.shfl(sum, 3u);
  sum += static_cast<DATA_TYPE>(wide.any(1) + wide.all(1) + cg::tiled_partition<32>(wide).size());
  cg::coalesced_group active = cg::coalesced_threads();
  sum += cg::reduce(cg::tiled_partition(active, 4), sum, cg::greater<DATA_TYPE>());
  data[5] = sum;
}

// The reduced-precision headers' macro-stamped functions and templates, once each.
__global__ void reduced_precision(__half* halves, __half2* pairs, __nv_bfloat16* b16,
                                  __nv_fp8_e4m3* fp8) {
  halves[0] = __hfma(halves[0], halves[1], CUDART_ONE_FP16) + __int2half_rn(2);
  pairs[0] = __hmax2(__h2div(pairs[0], pairs[1]), __float2half2_rn(0.0f));
  atomicAdd(&halves[2], __shfl_down_sync(0xffffffffu, halves[0], 1));
  b16[0] = __hsub(b16[0], __float2bfloat16_rz(1.0f)) * CUDART_ONE_BF16;
  fp8[0] = __nv_fp8_e4m3(static_cast<float>(__nv_fp8_e5m2(__bfloat162float(b16[0]))));
}

int main() {
  DATA_TYPE* data = nullptr;
  int* flags = nullptr;
  cudaMalloc(&data, 1024 * sizeof(DATA_TYPE));
  cudaMallocManaged(&flags, 4 * sizeof(int));
  const DATA_TYPE host_coefficients[TILE_DIM] = {};
  cudaMemcpyToSymbol(coefficients, host_coefficients, sizeof host_coefficients);
  cudaMemcpyToSymbol("coefficients", host_coefficients, sizeof host_coefficients);
  cudaChannelFormatDesc description = cudaCreateChannelDesc<DATA_TYPE>();
  reference.filterMode = cudaFilterModePoint;
  if (cudaBindTexture(NULL, &reference, data, &description, 1024 * sizeof(DATA_TYPE)) !=
      cudaSuccess) {
    return static_cast<int>(CUDA_ERROR_INVALID_VALUE);
  }
  cudaBindTexture2D(nullptr, image, data, 16, 16, 64);
  cudaThreadSynchronize();
  int blocks = 0;
  int threads = 0;
  cudaOccupancyMaxPotentialBlockSize(&blocks, &threads, every_intrinsic);
  cudaFuncAttributes attributes{};
  cudaFuncGetAttributes(&attributes, every_intrinsic);
  cudaTextureObject_t texture = 0;
  cudaProfilerStart();
  memcarlo_launch("every_intrinsic", every_intrinsic, dim3(4), dim3(BLOCK_SIZE, 2),
                  BLOCK_SIZE * sizeof(DATA_TYPE), 0, data, flags, texture);
  void* arguments[] = {&data, &flags, &texture};
  cudaLaunchKernel(every_intrinsic, dim3(1), dim3(32), arguments);
  cudaProfilerStop();
  cudaUnbindTexture(reference);
  cudaUnbindTexture(image);
  cudaThreadExit();
  cudaFree(data);
  cudaFree(flags);
  return 0;
}
