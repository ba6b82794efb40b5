// Sum of an array in two passes: each block reduces its share with warp shuffles and writes one
// partial sum, then a single block reduces the partial sums with the same kernel.
//
//   reduction_shfl [--values N] [--blocks B] [--seed S]
//
// What to look for in a memcarlo report: the only global load, input[i], is a grid-stride
// stream, perfectly coalesced and never reused, so every line is a compulsory miss and the
// question is only how well DRAM batches serve it. The second pass reads the few partial sums the
// first wrote, which should still be in L2. Shuffles and shared memory are not traced.
#include <cstddef>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "../common/example_support.h"

constexpr unsigned kThreadsPerBlock = 256;  // a multiple of the warp size, at most 32 warps
constexpr unsigned kWarpsPerBlock = kThreadsPerBlock / 32;
constexpr unsigned kFullWarpMask = 0xffffffffu;

// Tree sum over the 32 lanes of a warp; lane 0 ends with the total. All lanes must take part.
__device__ float warp_sum(float value) {
  for (int offset = 16; offset > 0; offset /= 2) {
    value += __shfl_down_sync(kFullWarpMask, value, offset);
  }
  return value;
}

// Writes the sum of the block's grid-stride share of input[0, count) to block_sums[blockIdx.x].
__global__ void reduce_sum(unsigned count, const float* input, float* block_sums) {
  extern __shared__ float warp_sums[];  // one per warp of the block, sized at launch

  float sum = 0;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += blockDim.x * gridDim.x) {
    sum += input[i];
  }
  sum = warp_sum(sum);

  const unsigned lane = threadIdx.x % warpSize;
  const unsigned warp = threadIdx.x / warpSize;
  const unsigned num_warps = blockDim.x / warpSize;
  if (lane == 0) {
    warp_sums[warp] = sum;
  }
  __syncthreads();  // every warp's total is in shared memory before warp 0 adds them up

  if (warp == 0) {
    sum = lane < num_warps ? warp_sums[lane] : 0.0f;
    sum = warp_sum(sum);
    if (lane == 0) {
      block_sums[blockIdx.x] = sum;
    }
  }
}

int main(int argc, char** argv) {
  unsigned num_values = 1u << 18;
  unsigned num_blocks = 64;
  unsigned seed = 1;
  // At most 2^20 values, so that every partial sum of the inputs below stays exact.
  example::parse_flags(
      argc, argv,
      {example::Flag::whole_number("--values", &num_values, 1, 1u << 20, "values to sum"),
       example::Flag::whole_number("--blocks", &num_blocks, 1, 65535, "blocks of the first pass"),
       example::Flag::whole_number("--seed", &seed, 0, ~0u, "seed of the values")});

  // Whole numbers 0..15: every partial sum is a whole number below 2^24, which a float holds
  // exactly, so the sum is exact in any order and must equal the reference bit for bit. A lost or
  // doubled element cannot hide inside a rounding tolerance.
  example::Random random(seed);
  std::vector<float> values(num_values);
  double expected = 0;
  for (float& value : values) {
    value = static_cast<float>(random.below(16));
    expected += value;
  }

  float* device_values = nullptr;
  float* device_block_sums = nullptr;
  float* device_total = nullptr;
  CHECK_CUDA(cudaMalloc(&device_values, num_values * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&device_block_sums, num_blocks * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&device_total, sizeof(float)));
  CHECK_CUDA(
      cudaMemcpy(device_values, values.data(), num_values * sizeof(float), cudaMemcpyHostToDevice));

  // The full launch form: grid, block, dynamic shared memory (the per-warp totals) and stream.
  // Both passes go to the default stream (0), which runs them in order.
  const std::size_t shared_bytes = kWarpsPerBlock * sizeof(float);
  const cudaStream_t stream = 0;
  reduce_sum<<<num_blocks, kThreadsPerBlock, shared_bytes, stream>>>(num_values, device_values,
                                                                     device_block_sums);
  CHECK_CUDA(cudaGetLastError());
  reduce_sum<<<1, kThreadsPerBlock, shared_bytes, stream>>>(num_blocks, device_block_sums,
                                                            device_total);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  float total = 0;
  CHECK_CUDA(cudaMemcpy(&total, device_total, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(device_values));
  CHECK_CUDA(cudaFree(device_block_sums));
  CHECK_CUDA(cudaFree(device_total));

  if (double(total) != expected) {
    std::printf("reduction_shfl: FAILED sum = %.1f, expected %.1f\n", double(total), expected);
    return 1;
  }
  std::printf("reduction_shfl: OK\n");
  return 0;
}
