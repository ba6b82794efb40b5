// A matrix transpose in the style of the CUDA samples' transpose, written for these tests: a
// naive and a shared-memory tiled kernel (the tile padded by one column against bank conflicts,
// cooperative groups for the block barrier), device properties to report the device as the sample
// does (major, minor, SMs x cores per SM), and an L2 comparison. Prints "Result = PASS".
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "helper_cuda.h"
#include "helper_functions.h"

namespace cg = cooperative_groups;

#define TILE_DIM 16
#define BLOCK_ROWS 4

__global__ void transposeNaive(float* odata, const float* idata, int width, int height) {
  const int xIndex = static_cast<int>(blockIdx.x) * TILE_DIM + static_cast<int>(threadIdx.x);
  const int yIndex = static_cast<int>(blockIdx.y) * TILE_DIM + static_cast<int>(threadIdx.y);
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
    odata[xIndex * height + yIndex + i] = idata[(yIndex + i) * width + xIndex];
  }
}

__global__ void transposeCoalesced(float* odata, const float* idata, int width, int height) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int xIndex = static_cast<int>(blockIdx.x) * TILE_DIM + static_cast<int>(threadIdx.x);
  int yIndex = static_cast<int>(blockIdx.y) * TILE_DIM + static_cast<int>(threadIdx.y);
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
    tile[threadIdx.y + i][threadIdx.x] = idata[(yIndex + i) * width + xIndex];
  }
  cg::sync(cta);
  xIndex = static_cast<int>(blockIdx.y) * TILE_DIM + static_cast<int>(threadIdx.x);
  yIndex = static_cast<int>(blockIdx.x) * TILE_DIM + static_cast<int>(threadIdx.y);
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
    odata[(yIndex + i) * height + xIndex] = tile[threadIdx.x][threadIdx.y + i];
  }
}

int main(int argc, char** argv) {
  const int device = findCudaDevice(argc, const_cast<const char**>(argv));
  cudaDeviceProp deviceProp;
  checkCudaErrors(cudaGetDeviceProperties(&deviceProp, device));
  std::printf("> Device %d: \"%s\"\n", device, deviceProp.name);
  std::printf("> SM Capability %d.%d detected:\n", deviceProp.major, deviceProp.minor);
  std::printf("> [%s] has %d MP(s) x %d (Cores/MP) = %d (Cores)\n", deviceProp.name,
              deviceProp.multiProcessorCount,
              _ConvertSMVer2Cores(deviceProp.major, deviceProp.minor),
              _ConvertSMVer2Cores(deviceProp.major, deviceProp.minor) *
                  deviceProp.multiProcessorCount);
  const int width = 4 * TILE_DIM;
  const int height = 3 * TILE_DIM;
  const std::size_t bytes = sizeof(float) * width * height;
  std::vector<float> h_idata(static_cast<std::size_t>(width * height));
  std::vector<float> gold(h_idata.size());
  std::vector<float> h_odata(h_idata.size());
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      h_idata[static_cast<std::size_t>(y * width + x)] = static_cast<float>(y * width + x);
      gold[static_cast<std::size_t>(x * height + y)] = static_cast<float>(y * width + x);
    }
  }
  float* d_idata = nullptr;
  float* d_odata = nullptr;
  checkCudaErrors(cudaMalloc(reinterpret_cast<void**>(&d_idata), bytes));
  checkCudaErrors(cudaMalloc(reinterpret_cast<void**>(&d_odata), bytes));
  checkCudaErrors(cudaMemcpy(d_idata, h_idata.data(), bytes, cudaMemcpyHostToDevice));
  const dim3 grid(width / TILE_DIM, height / TILE_DIM);
  const dim3 threads(TILE_DIM, BLOCK_ROWS);
  bool correct = true;
  for (int kernel = 0; kernel < 2; ++kernel) {
    checkCudaErrors(cudaMemset(d_odata, 0, bytes));
    if (kernel == 0) {
      transposeNaive<<<grid, threads>>>(d_odata, d_idata, width, height);
    } else {
      transposeCoalesced<<<grid, threads>>>(d_odata, d_idata, width, height);
    }
    getLastCudaError("transpose kernel");
    checkCudaErrors(cudaMemcpy(h_odata.data(), d_odata, bytes, cudaMemcpyDeviceToHost));
    const bool matches =
        sdkCompareL2fe(gold.data(), h_odata.data(), static_cast<unsigned>(gold.size()), 0.01f);
    std::printf("transpose %s: %s\n", kernel == 0 ? "naive" : "coalesced",
                matches ? "matches" : "differs");
    correct = correct && matches;
  }
  checkCudaErrors(cudaFree(d_idata));
  checkCudaErrors(cudaFree(d_odata));
  std::printf("Result = %s\n", correct ? "PASS" : "FAIL");
  return correct ? EXIT_SUCCESS : EXIT_FAILURE;
}
