// A sum reduction in the style of the CUDA samples' reduction, written for these tests: dynamic
// shared memory behind a templated SharedMemory<T> accessor (extern __shared__ in a member
// function), kernels templated on the block size and on whether n is a power of two, warp-level
// cooperative groups (tiled_partition<32>, cg::reduce), and launch shapes from the device's
// properties. Prints "Result = PASS" when the GPU sum equals the host's.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "helper_cuda.h"
#include "helper_functions.h"

namespace cg = cooperative_groups;

template <class T>
struct SharedMemory {
  __device__ inline operator T*() {
    extern __shared__ int shared_words[];
    return reinterpret_cast<T*>(shared_words);
  }
};

template <class T, unsigned int blockSize, bool nIsPow2>
__global__ void reduce6(const T* g_idata, T* g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T* sdata = SharedMemory<T>();
  const unsigned int tid = threadIdx.x;
  const unsigned int gridSize = blockSize * gridDim.x;
  T mySum = 0;
  if (nIsPow2) {
    for (unsigned int i = blockIdx.x * blockSize * 2 + threadIdx.x; i < n; i += gridSize * 2) {
      mySum += g_idata[i];
      if (i + blockSize < n) {
        mySum += g_idata[i + blockSize];
      }
    }
  } else {
    for (unsigned int i = blockIdx.x * blockSize + threadIdx.x; i < n; i += gridSize) {
      mySum += g_idata[i];
    }
  }
  sdata[tid] = mySum;
  cg::sync(cta);
  for (unsigned int stride = blockSize / 2; stride >= 32; stride /= 2) {
    if (tid < stride) {
      sdata[tid] = mySum = mySum + sdata[tid + stride];
    }
    cg::sync(cta);
  }
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  if (cta.thread_rank() < 32) {
    mySum = cg::reduce(tile32, mySum, cg::plus<T>());
  }
  if (cta.thread_rank() == 0) {
    g_odata[blockIdx.x] = mySum;
  }
}

int main(int argc, char** argv) {
  const int device = findCudaDevice(argc, const_cast<const char**>(argv));
  cudaDeviceProp prop;
  checkCudaErrors(cudaGetDeviceProperties(&prop, device));
  const unsigned int n = 1u << 16;
  constexpr unsigned int threads = 256;
  const unsigned int blocks =
      std::min(64u, static_cast<unsigned int>(prop.maxGridSize[0]));
  if (threads > static_cast<unsigned int>(prop.maxThreadsPerBlock)) {
    std::printf("Result = WAIVED\n");
    return EXIT_WAIVED;
  }
  std::vector<int> h_idata(n);
  long long gold = 0;
  for (unsigned int i = 0; i < n; ++i) {
    h_idata[i] = static_cast<int>(i % 7) - 3;
    gold += h_idata[i];
  }
  int* d_idata = nullptr;
  int* d_odata = nullptr;
  checkCudaErrors(cudaMalloc(reinterpret_cast<void**>(&d_idata), n * sizeof(int)));
  checkCudaErrors(cudaMalloc(reinterpret_cast<void**>(&d_odata), blocks * sizeof(int)));
  checkCudaErrors(cudaMemcpy(d_idata, h_idata.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  reduce6<int, threads, true><<<blocks, threads, threads * sizeof(int)>>>(d_idata, d_odata, n);
  getLastCudaError("reduce6 launch");
  reduce6<int, threads, false><<<1, threads, threads * sizeof(int)>>>(d_odata, d_odata, blocks);
  getLastCudaError("reduce6 final launch");
  int sum = 0;
  checkCudaErrors(cudaMemcpy(&sum, d_odata, sizeof(int), cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaFree(d_idata));
  checkCudaErrors(cudaFree(d_odata));
  std::printf("GPU result = %d, CPU result = %lld\n", sum, gold);
  const bool correct = sum == gold;
  std::printf("Result = %s\n", correct ? "PASS" : "FAIL");
  return correct ? EXIT_SUCCESS : EXIT_FAILURE;
}
