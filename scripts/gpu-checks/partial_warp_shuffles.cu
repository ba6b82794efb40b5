// What shuffles, votes and cooperative-groups reductions return in warps cut short by the end of
// the block (blocks of 1 to 48 threads), printed one value per line. scripts/validate-gpu.sh builds
// it with nvcc and with memcarlo-cc --backend host and checks that the GPU and the emulation print
// the same (docs/host-runtime.md, "Shuffles in partial warps").
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

constexpr unsigned kFull = 0xffffffffu;
constexpr int kValues = 12;  // results per thread

__global__ void partial_warp_shuffles(int* out) {
  const int t = static_cast<int>(threadIdx.x);
  const int value = 3 * t + 1;
  int* mine = out + kValues * t;
  int sum = value;
  for (int offset = 16; offset > 0; offset /= 2) {
    sum += __shfl_down_sync(kFull, sum, static_cast<unsigned>(offset));
  }
  mine[0] = sum;
  mine[1] = __shfl_sync(kFull, value, 20);
  mine[2] = __shfl_up_sync(kFull, value, 3);
  mine[3] = __shfl_down_sync(kFull, value, 5);
  mine[4] = __shfl_xor_sync(kFull, value, 16);
  mine[5] = __shfl_down_sync(kFull, value, 2, 8);
  mine[6] = static_cast<int>(__ballot_sync(kFull, t % 3 == 0));
  mine[7] = static_cast<int>(__activemask());
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  int tile_sum = value;
  for (int offset = 16; offset > 0; offset /= 2) {
    tile_sum += tile.shfl_down(tile_sum, static_cast<unsigned>(offset));
  }
  mine[8] = tile_sum;
  mine[9] = cg::reduce(tile, value, cg::plus<int>());
  mine[10] = cg::reduce(tile, -value, cg::greater<int>());
  mine[11] = static_cast<int>(tile.size());
}

int main() {
  for (const int threads : {1, 4, 8, 20, 33, 48}) {
    int* device = nullptr;
    const std::size_t bytes = sizeof(int) * kValues * static_cast<std::size_t>(threads);
    if (cudaMalloc(&device, bytes) != cudaSuccess) {
      std::fprintf(stderr, "cudaMalloc failed\n");
      return 1;
    }
    cudaMemset(device, 0, bytes);
    partial_warp_shuffles<<<1, threads>>>(device);
    std::vector<int> host(kValues * static_cast<std::size_t>(threads));
    if (cudaMemcpy(host.data(), device, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) {
      std::fprintf(stderr, "the kernel failed: %s\n", cudaGetErrorString(cudaGetLastError()));
      return 1;
    }
    cudaFree(device);
    for (int t = 0; t < threads; ++t) {
      std::printf("threads %d thread %d:", threads, t);
      for (int k = 0; k < kValues; ++k) {
        std::printf(" %d", host[kValues * t + k]);
      }
      std::printf("\n");
    }
  }
  return 0;
}
