// Tiled matrix transpose out = inᵀ: each block stages a 32×32 tile in shared memory, then writes
// it back transposed, so both the reads and the writes of global memory are coalesced.
//
//   transpose_tiled [--rows R] [--cols C] [--seed S]
//
// What to look for in a memcarlo report, next to transpose_naive's: the store out[out_row * rows
// + out_col] is now one 128-byte segment per warp, like the load, instead of 32 scattered ones.
// The transposition itself happens in shared memory, which memcarlo does not trace; the barrier
// between staging and writing shows in the warp records.
#include <cstddef>
#include <vector>

#include <cuda_runtime.h>

#include "../common/example_support.h"
#include "transpose_problem.h"

using transpose::kBlockRows;
using transpose::kTileSide;

__global__ void transpose_tiled(unsigned rows, unsigned cols, const float* in, float* out) {
  // One column of padding: reading a column of the tile then touches 32 different banks instead
  // of one bank 32 times, since row r starts at word r·33 rather than r·32.
  __shared__ float tile[kTileSide][kTileSide + 1];

  const unsigned col = blockIdx.x * kTileSide + threadIdx.x;
  const unsigned first_row = blockIdx.y * kTileSide + threadIdx.y;
  for (unsigned offset = 0; offset < kTileSide; offset += kBlockRows) {
    const unsigned row = first_row + offset;
    if (row < rows && col < cols) {
      tile[threadIdx.y + offset][threadIdx.x] = in[row * cols + col];
    }
  }
  __syncthreads();  // the tile is complete before any thread reads another thread's element

  // The block's tile lands at the mirrored position: its columns become rows of the output, and
  // threadIdx.x now runs along an output row.
  const unsigned out_col = blockIdx.y * kTileSide + threadIdx.x;
  const unsigned first_out_row = blockIdx.x * kTileSide + threadIdx.y;
  for (unsigned offset = 0; offset < kTileSide; offset += kBlockRows) {
    const unsigned out_row = first_out_row + offset;
    if (out_row < cols && out_col < rows) {
      out[out_row * rows + out_col] = tile[threadIdx.x][threadIdx.y + offset];
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
  transpose_tiled<<<grid, block>>>(options.rows, options.cols, device_in, device_out);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> out(in.size());
  CHECK_CUDA(cudaMemcpy(out.data(), device_out, bytes, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(device_in));
  CHECK_CUDA(cudaFree(device_out));
  return transpose::check_transpose("transpose_tiled", options, in, out);
}
