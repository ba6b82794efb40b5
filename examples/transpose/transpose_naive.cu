// Naive matrix transpose out = inᵀ: each thread copies elements straight from global memory to
// global memory, so reads are coalesced and writes are not. The baseline for transpose_tiled.cu.
//
//   transpose_naive [--rows R] [--cols C] [--seed S]
//
// What to look for in a memcarlo report: in[row * cols + col] is one 128-byte segment per warp,
// while the store out[col * rows + row] scatters the 32 lanes over 32 rows of the output, 32
// transactions for 128 useful bytes. With write-allocate caches those stores also evict the
// lines that the loads of neighbouring warps would have hit.
#include <cstddef>
#include <vector>

#include <cuda_runtime.h>

#include "../common/example_support.h"
#include "transpose_problem.h"

using transpose::kBlockRows;
using transpose::kTileSide;

__global__ void transpose_naive(unsigned rows, unsigned cols, const float* in, float* out) {
  const unsigned col = blockIdx.x * kTileSide + threadIdx.x;
  const unsigned first_row = blockIdx.y * kTileSide + threadIdx.y;
  for (unsigned row = first_row; row < first_row + kTileSide; row += kBlockRows) {
    if (row < rows && col < cols) {
      out[col * rows + row] = in[row * cols + col];
    }
  }
}

int main(int argc, char** argv) {
  const transpose::Options options = transpose::parse_options(argc, argv);
  const std::vector<float> in = transpose::random_matrix(options);
  const std::size_t bytes = in.size() * sizeof(float);

  float* device_in = nullptr;
  float* device_out = nullptr;
  CHECK_CUDA(cudaMalloc(&device_in, bytes));
  CHECK_CUDA(cudaMalloc(&device_out, bytes));
  CHECK_CUDA(cudaMemcpy(device_in, in.data(), bytes, cudaMemcpyHostToDevice));

  const dim3 block(kTileSide, kBlockRows);
  const dim3 grid((options.cols + kTileSide - 1) / kTileSide,
                  (options.rows + kTileSide - 1) / kTileSide);
#if EXAMPLE_LOCALITY_DESCRIPTORS
  transpose::describe_locality(options, device_in, device_out);
#endif
  transpose_naive<<<grid, block>>>(options.rows, options.cols, device_in, device_out);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> out(in.size());
  CHECK_CUDA(cudaMemcpy(out.data(), device_out, bytes, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(device_in));
  CHECK_CUDA(cudaFree(device_out));
  return transpose::check_transpose("transpose_naive", options, in, out);
}
