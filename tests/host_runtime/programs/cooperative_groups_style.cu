// Cooperative groups the way the CUDA samples' simpleCooperativeGroups and multi-warp tile code use
// them, written for these tests: a reduction that takes a type-erased thread_group and is called
// with the whole block and with tiles of 16 from tiled_partition(block, 16), and tiles of 128
// threads (thread_block_tile<128>, with the block's tile memory) that reduce and exchange values.
// Prints "Result = PASS".
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

__device__ int sum_reduction(cg::thread_group group, int* workspace, int value) {
  const int lane = group.thread_rank();
  for (int half = group.size() / 2; half > 0; half /= 2) {
    workspace[lane] = value;
    group.sync();
    if (lane < half) {
      value += workspace[lane + half];
    }
    group.sync();
  }
  return value;  // complete in rank 0
}

__global__ void group_kernel(int* block_sums, int* tile_sums) {
  __shared__ int workspace[64];
  cg::thread_block block = cg::this_thread_block();
  const int rank = block.thread_rank();
  const int block_sum = sum_reduction(block, workspace, rank);
  if (rank == 0) {
    block_sums[blockIdx.x] = block_sum;
  }
  block.sync();
  cg::thread_group tile = cg::tiled_partition(block, 16);
  const int offset = rank - tile.thread_rank();
  const int tile_sum = sum_reduction(tile, workspace + offset, rank);
  if (tile.thread_rank() == 0) {
    tile_sums[blockIdx.x * 4 + rank / 16] = tile_sum;
  }
}

__global__ void wide_tile_kernel(int* sums, int* neighbours) {
  __shared__ cg::block_tile_memory<256> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  cg::thread_block_tile<128> tile = cg::tiled_partition<128>(block);
  const int rank = block.thread_rank();
  sums[blockIdx.x * 256 + rank] = cg::reduce(tile, rank, cg::plus<int>());
  neighbours[blockIdx.x * 256 + rank] = tile.shfl(rank, (tile.thread_rank() + 64) % 128);
}

int main() {
  int *block_sums, *tile_sums, *sums, *neighbours;
  cudaMalloc(&block_sums, 2 * sizeof(int));
  cudaMalloc(&tile_sums, 8 * sizeof(int));
  cudaMalloc(&sums, 512 * sizeof(int));
  cudaMalloc(&neighbours, 512 * sizeof(int));
  group_kernel<<<2, 64>>>(block_sums, tile_sums);
  wide_tile_kernel<<<2, 256>>>(sums, neighbours);
  int host_block[2], host_tile[8], host_sums[512], host_neighbours[512];
  cudaMemcpy(host_block, block_sums, sizeof host_block, cudaMemcpyDeviceToHost);
  cudaMemcpy(host_tile, tile_sums, sizeof host_tile, cudaMemcpyDeviceToHost);
  cudaMemcpy(host_sums, sums, sizeof host_sums, cudaMemcpyDeviceToHost);
  cudaMemcpy(host_neighbours, neighbours, sizeof host_neighbours, cudaMemcpyDeviceToHost);
  int errors = 0;
  for (int b = 0; b < 2; ++b) {
    errors += host_block[b] != 64 * 63 / 2;
    for (int t = 0; t < 4; ++t) {
      errors += host_tile[b * 4 + t] != 16 * 16 * t + 16 * 15 / 2;
    }
  }
  for (int i = 0; i < 512; ++i) {
    const int rank = i % 256;
    const int first = rank / 128 * 128;
    errors += host_sums[i] != 128 * first + 128 * 127 / 2;
    errors += host_neighbours[i] != first + (rank - first + 64) % 128;
  }
  std::printf("block sums %d %d, first tile sum %d, %d errors\n", host_block[0], host_block[1],
              host_tile[0], errors);
  std::printf("Result = %s\n", errors == 0 ? "PASS" : "FAIL");
  cudaFree(block_sums);
  cudaFree(tile_sums);
  cudaFree(sums);
  cudaFree(neighbours);
  return errors == 0 ? 0 : 1;
}
