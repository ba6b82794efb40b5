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
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <math_constants.h>

namespace cg = cooperative_groups;

__constant__ DATA_TYPE coefficients[TILE_DIM];
__device__ unsigned counter;

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
}

int main() {
  DATA_TYPE* data = nullptr;
  int* flags = nullptr;
  cudaMalloc(&data, 1024 * sizeof(DATA_TYPE));
  cudaMallocManaged(&flags, 4 * sizeof(int));
  const DATA_TYPE host_coefficients[TILE_DIM] = {};
  cudaMemcpyToSymbol(coefficients, host_coefficients, sizeof host_coefficients);
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
  cudaFree(data);
  cudaFree(flags);
  return 0;
}
