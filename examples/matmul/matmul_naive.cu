// Naive dense matrix multiply C = A·B: one thread per element of C, reading a row of A and a column
// of B straight from global memory. The baseline that matmul_tiled.cu improves on.
//
//   matmul_naive [--m M] [--n N] [--k K] [--seed S]      (C is M×N, A is M×K, B is K×N)
//
// What to look for in a memcarlo report: a warp is two rows of 16 threads, so a[row * k + i] asks
// for only 2 distinct addresses (one per row, broadcast to 16 lanes) and b[i * n + col] for 16
// consecutive floats. Each element of A is read N times and each element of B M times over the
// kernel; how much of that reuse L1 and L2 catch is what decides both loads' latency.
#include <cstddef>
#include <vector>

#include <cuda_runtime.h>

#include "../common/example_support.h"
#include "matmul_problem.h"

// 16×16 threads per block, the same shape as matmul_tiled so that the two reports compare.
constexpr unsigned kBlockSide = 16;

__global__ void matmul_naive(unsigned m, unsigned n, unsigned k, const float* a, const float* b,
                             float* c) {
  const unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  const unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    float sum = 0;
    for (unsigned i = 0; i < k; ++i) {
      sum += a[row * k + i] * b[i * n + col];
    }
    c[row * n + col] = sum;
  }
}

int main(int argc, char** argv) {
  const matmul::Options options = matmul::parse_options(argc, argv);
  const unsigned m = options.m;
  const unsigned n = options.n;
  const unsigned k = options.k;
  example::Random random(options.seed);
  const std::vector<float> a = matmul::random_matrix(m, k, &random);
  const std::vector<float> b = matmul::random_matrix(k, n, &random);

  float* device_a = nullptr;
  float* device_b = nullptr;
  float* device_c = nullptr;
  CHECK_CUDA(cudaMalloc(&device_a, a.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&device_b, b.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&device_c, std::size_t{m} * n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(device_a, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(device_b, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));

  const dim3 block(kBlockSide, kBlockSide);
  const dim3 grid((n + kBlockSide - 1) / kBlockSide, (m + kBlockSide - 1) / kBlockSide);
  matmul_naive<<<grid, block>>>(m, n, k, device_a, device_b, device_c);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> c(std::size_t{m} * n);
  CHECK_CUDA(cudaMemcpy(c.data(), device_c, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(device_a));
  CHECK_CUDA(cudaFree(device_b));
  CHECK_CUDA(cudaFree(device_c));
  return matmul::check_product("matmul_naive", options, a, b, c);
}
