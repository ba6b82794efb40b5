// A cooperative launch whose blocks synchronize the whole grid (as the CUDA samples'
// reductionMultiBlockCG): each block sums its part, grid.sync(), block 0 sums the partial sums,
// grid.sync() again, and every thread scales its element by the total. Written for these tests.
// Checks the results, the grid group's shape and the refusals; prints "Result = PASS".
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>

namespace cg = cooperative_groups;

__global__ void normalize(const float* in, float* partial, float* total, float* out, int n,
                          int* shape) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ float sums[128];
  const unsigned i = static_cast<unsigned>(grid.thread_rank());
  sums[threadIdx.x] = i < static_cast<unsigned>(n) ? in[i] : 0.0f;
  block.sync();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) sums[threadIdx.x] += sums[threadIdx.x + half];
    block.sync();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sums[0];
  grid.sync();  // every block's partial sum is written
  if (grid.block_rank() == 0 && threadIdx.x == 0) {
    float sum = 0.0f;
    for (unsigned b = 0; b < grid.num_blocks(); ++b) sum += partial[b];
    *total = sum;
  }
  grid.sync();  // the total is written
  if (i < static_cast<unsigned>(n)) out[i] = in[i] / *total;
  if (i == 0) {
    shape[0] = grid.is_valid() ? 1 : 0;
    shape[1] = static_cast<int>(grid.size());
    shape[2] = static_cast<int>(grid.num_blocks());
  }
}

__global__ void plain_sync(int* flag) {
  cg::this_grid().sync();
  *flag = 1;
}

// Block 1 ends before the grid synchronizes: the other blocks would wait forever on a GPU.
__global__ void early_exit(int* flag) {
  if (blockIdx.x == 1) return;
  cg::this_grid().sync();
  *flag = 1;
}

int main(int argc, char** argv) {
  if (argc > 1) {
    // `grid_sync plain`: grid.sync() in a launch that is not cooperative ends the program naming
    // the line; `grid_sync early`: a block that ends before grid.sync() is a deadlock.
    int* flag;
    cudaMallocManaged(&flag, sizeof(int));
    if (argv[1][0] == 'p') {
      plain_sync<<<2, 32>>>(flag);
    } else {
      void* args[] = {&flag};
      cudaLaunchCooperativeKernel(early_exit, dim3(3), dim3(32), args);
    }
    cudaDeviceSynchronize();
    std::printf("%s: not stopped\n", argv[1]);
    return 0;
  }
  int failures = 0;
  int cooperative = 0;
  cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, 0);
  if (cooperative != 1) {
    std::printf("FAILED: cudaDevAttrCooperativeLaunch is %d\n", cooperative);
    ++failures;
  }
  int per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, normalize, 128, 0);
  cudaDeviceProp properties;
  cudaGetDeviceProperties(&properties, 0);
  const int blocks = 6;
  const int n = blocks * 128 - 40;  // the last block's last 40 threads have no element
  float *in, *partial, *total, *out;
  int* shape;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&partial, blocks * sizeof(float));
  cudaMallocManaged(&total, sizeof(float));
  cudaMallocManaged(&out, n * sizeof(float));
  cudaMallocManaged(&shape, 3 * sizeof(int));
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 7 + 1);
  float expected = 0.0f;
  for (int i = 0; i < n; ++i) expected += in[i];
  int count = n;
  void* args[] = {&in, &partial, &total, &out, &count, &shape};
  // Through an untyped pointer, as the samples write it (the instrumenter makes it typed again).
  if (cudaLaunchCooperativeKernel((void*)normalize, dim3(blocks), dim3(128), args) !=
      cudaSuccess) {
    std::printf("FAILED: the cooperative launch\n");
    ++failures;
  }
  cudaDeviceSynchronize();
  if (*total != expected) {
    std::printf("FAILED: total %f, expected %f\n", *total, expected);
    ++failures;
  }
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += out[i] != in[i] / expected;
  if (wrong > 0) {
    std::printf("FAILED: %d elements not scaled by the total\n", wrong);
    ++failures;
  }
  if (shape[0] != 1 || shape[1] != blocks * 128 || shape[2] != blocks) {
    std::printf("FAILED: grid group valid %d, size %d, blocks %d\n", shape[0], shape[1], shape[2]);
    ++failures;
  }
  // A grid larger than the device holds at once is refused, as CUDA refuses it.
  const int too_many = properties.multiProcessorCount * per_sm + 1;
  if (cudaLaunchCooperativeKernel(normalize, dim3(too_many), dim3(128), args) !=
      cudaErrorCooperativeLaunchTooLarge) {
    std::printf("FAILED: %d blocks were not refused\n", too_many);
    ++failures;
  }
  cudaGetLastError();
  std::printf("Result = %s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
