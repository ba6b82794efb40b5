// Tiled dense matrix multiply C = A·B: each block stages 16×16 tiles of A and B in shared memory
// and every thread reuses them 16 times, so global memory sees each element N/16 or M/16 times.
//
//   matmul_tiled [--m M] [--n N] [--k K] [--seed S]      (C is M×N, A is M×K, B is K×N)
//
// What to look for in a memcarlo report, next to matmul_naive's: the only global loads left are
// a[row * k + a_col] and b[b_row * n + col], both two runs of 16 consecutive floats per warp,
// issued 16 times less often than the naive loads; the inner product reads shared memory, which
// memcarlo does not trace. The __syncthreads barriers appear as flags in the warp records.
#include <cstddef>
#include <vector>

#include <cuda_runtime.h>

#include "../common/example_support.h"
#include "matmul_problem.h"

// The tile is also the block: one thread stages one element of each tile.
constexpr unsigned kTileSide = 16;

__global__ void matmul_tiled(unsigned m, unsigned n, unsigned k, const float* a, const float* b,
                             float* c) {
  __shared__ float a_tile[kTileSide][kTileSide];
  __shared__ float b_tile[kTileSide][kTileSide];
  const unsigned tx = threadIdx.x;
  const unsigned ty = threadIdx.y;
  const unsigned row = blockIdx.y * kTileSide + ty;
  const unsigned col = blockIdx.x * kTileSide + tx;

  float sum = 0;
  for (unsigned tile_start = 0; tile_start < k; tile_start += kTileSide) {
    // Threads past an edge of A or B stage zeros, so the inner loop needs no bounds checks and
    // adds its terms in the same order as matmul_naive.
    const unsigned a_col = tile_start + tx;
    const unsigned b_row = tile_start + ty;
    a_tile[ty][tx] = (row < m && a_col < k) ? a[row * k + a_col] : 0.0f;
    b_tile[ty][tx] = (b_row < k && col < n) ? b[b_row * n + col] : 0.0f;
    __syncthreads();  // the whole tile is staged before anyone reads it

    for (unsigned i = 0; i < kTileSide; ++i) {
      sum += a_tile[ty][i] * b_tile[i][tx];
    }
    __syncthreads();  // everyone is done with the tile before the next one overwrites it
  }
  if (row < m && col < n) {
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

  const dim3 block(kTileSide, kTileSide);
  const dim3 grid((n + kTileSide - 1) / kTileSide, (m + kTileSide - 1) / kTileSide);
  matmul_tiled<<<grid, block>>>(m, n, k, device_a, device_b, device_c);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> c(std::size_t{m} * n);
  CHECK_CUDA(cudaMemcpy(c.data(), device_c, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(device_a));
  CHECK_CUDA(cudaFree(device_b));
  CHECK_CUDA(cudaFree(device_c));
  return matmul::check_product("matmul_tiled", options, a, b, c);
}
