// A matrix multiply in the style of the CUDA samples' matrixMul, written for these tests: a tiled
// kernel templated on its block size, pinned host memory, a non-blocking stream with asynchronous
// copies, event timing, the profiler API and helper_cuda.h's device selection. Prints
// "Result = PASS" when C = A x B.
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "helper_cuda.h"
#include "helper_functions.h"

template <int BLOCK_SIZE>
__global__ void MatrixMulCUDA(float* C, const float* A, const float* B, int wA, int wB) {
  const int bx = static_cast<int>(blockIdx.x);
  const int by = static_cast<int>(blockIdx.y);
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  float sum = 0.0f;
  for (int a = wA * BLOCK_SIZE * by, b = BLOCK_SIZE * bx; a <= wA * BLOCK_SIZE * by + wA - 1;
       a += BLOCK_SIZE, b += BLOCK_SIZE * wB) {
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; ++k) {
      sum += As[ty][k] * Bs[k][tx];
    }
    __syncthreads();
  }
  C[wB * BLOCK_SIZE * by + BLOCK_SIZE * bx + wB * ty + tx] = sum;
}

int main(int argc, char** argv) {
  const char** arguments = const_cast<const char**>(argv);
  findCudaDevice(argc, arguments);
  const int block_size = 16;
  const int wA = checkCmdLineFlag(argc, arguments, "wA")
                     ? getCmdLineArgumentInt(argc, arguments, "wA=")
                     : 4 * block_size;
  const dim3 dimsA(static_cast<unsigned>(wA), 2 * block_size, 1);
  const dim3 dimsB(3 * block_size, static_cast<unsigned>(wA), 1);
  const std::size_t bytes_a = sizeof(float) * dimsA.x * dimsA.y;
  const std::size_t bytes_b = sizeof(float) * dimsB.x * dimsB.y;
  const std::size_t bytes_c = sizeof(float) * dimsB.x * dimsA.y;
  float* h_A = nullptr;
  float* h_B = nullptr;
  float* h_C = nullptr;
  checkCudaErrors(cudaMallocHost(&h_A, bytes_a));
  checkCudaErrors(cudaMallocHost(&h_B, bytes_b));
  checkCudaErrors(cudaMallocHost(&h_C, bytes_c));
  for (std::size_t i = 0; i < bytes_a / sizeof(float); ++i) {
    h_A[i] = 1.0f;
  }
  for (std::size_t i = 0; i < bytes_b / sizeof(float); ++i) {
    h_B[i] = 0.01f;
  }
  float* d_A = nullptr;
  float* d_B = nullptr;
  float* d_C = nullptr;
  checkCudaErrors(cudaMalloc(reinterpret_cast<void**>(&d_A), bytes_a));
  checkCudaErrors(cudaMalloc(reinterpret_cast<void**>(&d_B), bytes_b));
  checkCudaErrors(cudaMalloc(reinterpret_cast<void**>(&d_C), bytes_c));
  cudaStream_t stream;
  checkCudaErrors(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaEvent_t start;
  cudaEvent_t stop;
  checkCudaErrors(cudaEventCreate(&start));
  checkCudaErrors(cudaEventCreate(&stop));
  checkCudaErrors(cudaMemcpyAsync(d_A, h_A, bytes_a, cudaMemcpyHostToDevice, stream));
  checkCudaErrors(cudaMemcpyAsync(d_B, h_B, bytes_b, cudaMemcpyHostToDevice, stream));
  const dim3 threads(block_size, block_size);
  const dim3 grid(dimsB.x / threads.x, dimsA.y / threads.y);
  checkCudaErrors(cudaProfilerStart());
  checkCudaErrors(cudaEventRecord(start, stream));
  MatrixMulCUDA<block_size><<<grid, threads, 0, stream>>>(d_C, d_A, d_B, static_cast<int>(dimsA.x),
                                                          static_cast<int>(dimsB.x));
  getLastCudaError("MatrixMulCUDA launch");
  checkCudaErrors(cudaEventRecord(stop, stream));
  checkCudaErrors(cudaEventSynchronize(stop));
  checkCudaErrors(cudaProfilerStop());
  float milliseconds = 0.0f;
  checkCudaErrors(cudaEventElapsedTime(&milliseconds, start, stop));
  checkCudaErrors(cudaMemcpyAsync(h_C, d_C, bytes_c, cudaMemcpyDeviceToHost, stream));
  checkCudaErrors(cudaStreamSynchronize(stream));
  std::printf("Time= %.3f msec\n", static_cast<double>(milliseconds));
  bool correct = true;
  const double expected = static_cast<double>(dimsA.x) * 0.01;
  for (std::size_t i = 0; i < bytes_c / sizeof(float); ++i) {
    if (std::fabs(h_C[i] - expected) / expected > 1e-5) {
      std::printf("Error! Matrix[%05zu]=%.8f, ref=%.8f\n", i, static_cast<double>(h_C[i]),
                  expected);
      correct = false;
      break;
    }
  }
  checkCudaErrors(cudaFreeHost(h_A));
  checkCudaErrors(cudaFreeHost(h_B));
  checkCudaErrors(cudaFreeHost(h_C));
  checkCudaErrors(cudaFree(d_A));
  checkCudaErrors(cudaFree(d_B));
  checkCudaErrors(cudaFree(d_C));
  checkCudaErrors(cudaEventDestroy(start));
  checkCudaErrors(cudaEventDestroy(stop));
  checkCudaErrors(cudaStreamDestroy(stream));
  std::printf("Result = %s\n", correct ? "PASS" : "FAIL");
  return correct ? EXIT_SUCCESS : EXIT_FAILURE;
}
