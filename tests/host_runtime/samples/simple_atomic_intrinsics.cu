// Atomic intrinsics in the style of the CUDA samples' simpleAtomicIntrinsics, written for these
// tests: every thread applies each integer atomic to one word of an array, and the host checks
// the words against what the atomics must leave. Prints "Result = PASS".
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "helper_cuda.h"
#include "helper_functions.h"

__global__ void testKernel(int* g_odata) {
  const unsigned int tid = blockDim.x * blockIdx.x + threadIdx.x;
  atomicAdd(&g_odata[0], 10);
  atomicExch(&g_odata[1], static_cast<int>(tid));
  atomicMax(&g_odata[2], static_cast<int>(tid));
  atomicMin(&g_odata[3], static_cast<int>(tid));
  atomicInc(reinterpret_cast<unsigned int*>(&g_odata[4]), 17u);
  atomicDec(reinterpret_cast<unsigned int*>(&g_odata[5]), 137u);
  atomicCAS(&g_odata[6], static_cast<int>(tid) - 1, static_cast<int>(tid));
  atomicAnd(&g_odata[7], 2 * static_cast<int>(tid) + 7);
  atomicOr(&g_odata[8], 1 << tid % 32);
  atomicXor(&g_odata[9], static_cast<int>(tid));
  atomicSub(&g_odata[10], 10);
}

/// What the atomics leave, whatever order the threads ran in.
bool check(const int* data, unsigned int threads) {
  bool ok = data[0] == static_cast<int>(10 * threads);
  ok = ok && data[1] >= 0 && data[1] < static_cast<int>(threads);
  ok = ok && data[2] == static_cast<int>(threads - 1);
  ok = ok && data[3] == 0;
  ok = ok && data[4] == static_cast<int>(threads % 18);
  ok = ok && data[6] >= 0 && data[6] < static_cast<int>(threads);  // how far the CAS chain got
  int expected_and = 0xff;
  int expected_xor = 0;
  for (unsigned int t = 0; t < threads; ++t) {
    expected_and &= 2 * static_cast<int>(t) + 7;
    expected_xor ^= static_cast<int>(t);
  }
  ok = ok && data[7] == expected_and;
  ok = ok && data[8] == -1;
  ok = ok && data[9] == expected_xor;
  ok = ok && data[10] == -10 * static_cast<int>(threads);
  return ok;
}

int main(int argc, char** argv) {
  findCudaDevice(argc, const_cast<const char**>(argv));
  const unsigned int numThreads = 256;
  const unsigned int numBlocks = 64;
  const unsigned int numData = 11;
  int hOData[numData] = {0, 0, 0, 0x7fffffff, 0, 0, 0, 0xff, 0, 0, 0};
  int* dOData = nullptr;
  checkCudaErrors(cudaMalloc(reinterpret_cast<void**>(&dOData), sizeof hOData));
  checkCudaErrors(cudaMemcpy(dOData, hOData, sizeof hOData, cudaMemcpyHostToDevice));
  testKernel<<<numBlocks, numThreads>>>(dOData);
  getLastCudaError("testKernel launch");
  checkCudaErrors(cudaMemcpy(hOData, dOData, sizeof hOData, cudaMemcpyDeviceToHost));
  checkCudaErrors(cudaFree(dOData));
  const bool correct = check(hOData, numThreads * numBlocks);
  std::printf("Result = %s\n", correct ? "PASS" : "FAIL");
  return correct ? EXIT_SUCCESS : EXIT_FAILURE;
}
