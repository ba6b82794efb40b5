// Built-in index variables in 1-, 2- and 3-D grids, launch forms, per-thread argument copies and
// CUDA's launch configuration checks.
#include <cuda_runtime.h>

#include <vector>

#include "host_test_util.h"

using host_test::DeviceArray;

namespace {

__global__ void write_linear_index(unsigned* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = 3 * i + 1;
  }
}

// Each thread records its own coordinates at its global linear position.
__global__ void write_coordinates(uint4* threads, uint4* blocks) {
  const unsigned block_linear = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  const unsigned thread_linear =
      (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const unsigned block_size = blockDim.x * blockDim.y * blockDim.z;
  const unsigned i = block_linear * block_size + thread_linear;
  threads[i] = make_uint4(threadIdx.x, threadIdx.y, threadIdx.z, thread_linear);
  blocks[i] = make_uint4(blockIdx.x, blockIdx.y, blockIdx.z, block_linear);
}

__global__ void grid_stride_square(int* values, int n) {
  for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < n;
       i += static_cast<int>(blockDim.x * gridDim.x)) {
    values[i] = values[i] * values[i];
  }
}

// Modifies its by-value parameters: every CUDA thread must start from the launch's values.
__global__ void consume_parameters(int* out, int base, const int* cursor) {
  base += static_cast<int>(threadIdx.x);
  cursor += threadIdx.x;
  out[threadIdx.x] = base + *cursor;
}

}  // namespace

TEST(HostIndexing, OneDimensionalGridCoversEveryThreadOnce) {
  const unsigned n = 1000;
  DeviceArray<unsigned> out(n);
  out.fill(0);
  memcarlo_launch("write_linear_index", write_linear_index, (n + 127) / 128, 128, 0, 0, out.get(),
                  n);
  ASSERT_CUDA(cudaGetLastError());
  ASSERT_CUDA(cudaDeviceSynchronize());
  const std::vector<unsigned> values = out.to_host();
  for (unsigned i = 0; i < n; ++i) {
    ASSERT_EQ(values[i], 3 * i + 1) << "thread " << i;
  }
}

TEST(HostIndexing, ThreeDimensionalGridAndBlockFollowCudaLayout) {
  const dim3 grid(3, 2, 2);
  const dim3 block(4, 3, 5);
  const unsigned total = 3 * 2 * 2 * 4 * 3 * 5;
  DeviceArray<uint4> threads(total);
  DeviceArray<uint4> blocks(total);
  memcarlo_launch("write_coordinates", write_coordinates, grid, block, 0, nullptr, threads.get(),
                  blocks.get());
  ASSERT_CUDA(cudaGetLastError());
  const std::vector<uint4> t = threads.to_host();
  const std::vector<uint4> b = blocks.to_host();
  for (unsigned i = 0; i < total; ++i) {
    const unsigned thread_linear = i % 60;
    const unsigned block_linear = i / 60;
    EXPECT_EQ(t[i].x, thread_linear % 4);
    EXPECT_EQ(t[i].y, thread_linear / 4 % 3);
    EXPECT_EQ(t[i].z, thread_linear / 12);
    EXPECT_EQ(t[i].w, thread_linear);
    EXPECT_EQ(b[i].x, block_linear % 3);
    EXPECT_EQ(b[i].y, block_linear / 3 % 2);
    EXPECT_EQ(b[i].z, block_linear / 6);
    EXPECT_EQ(b[i].w, block_linear);
  }
}

TEST(HostIndexing, TwoDimensionalGridWithGridStrideLoop) {
  const int n = 5000;
  std::vector<int> input(n);
  for (int i = 0; i < n; ++i) {
    input[static_cast<std::size_t>(i)] = i - 2500;
  }
  DeviceArray<int> values(input);
  memcarlo_launch("grid_stride_square", grid_stride_square, dim3(7), dim3(64), 0, 0, values.get(),
                  n);
  ASSERT_CUDA(cudaGetLastError());
  const std::vector<int> squared = values.to_host();
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(squared[static_cast<std::size_t>(i)], (i - 2500) * (i - 2500));
  }
}

TEST(HostIndexing, EveryThreadGetsItsOwnCopyOfTheArguments) {
  std::vector<int> cursor_values(64);
  for (int i = 0; i < 64; ++i) {
    cursor_values[static_cast<std::size_t>(i)] = 1000 * i;
  }
  DeviceArray<int> cursor(cursor_values);
  DeviceArray<int> out(64);
  memcarlo_launch("consume_parameters", consume_parameters, 1, 64, 0, 0, out.get(), 7,
                  cursor.get());
  const std::vector<int> values = out.to_host();
  for (int i = 0; i < 64; ++i) {
    EXPECT_EQ(values[static_cast<std::size_t>(i)], 7 + i + 1000 * i);
  }
}

TEST(HostIndexing, CudaLaunchKernelPassesArgumentsByPointer) {
  const unsigned n = 300;
  DeviceArray<unsigned> out(n);
  unsigned* pointer = out.get();
  unsigned count = n;
  void* args[] = {&pointer, &count};
  ASSERT_CUDA(cudaLaunchKernel(write_linear_index, dim3(3), dim3(128), args, 0, nullptr));
  const std::vector<unsigned> values = out.to_host();
  EXPECT_EQ(values[299], 898u);
}

TEST(HostIndexing, InvalidConfigurationsAreRejectedWithoutRunning) {
  DeviceArray<unsigned> out(4096);
  out.fill(0);
  memcarlo_launch("write_linear_index", write_linear_index, 2, 2048, 0, 0, out.get(), 4096u);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "cudaGetLastError resets the error";
  memcarlo_launch("write_linear_index", write_linear_index, dim3(1, 70000), 32, 0, 0, out.get(),
                  4096u);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidConfiguration);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidConfiguration) << "peek keeps the error";
  cudaGetLastError();
  memcarlo_launch("write_linear_index", write_linear_index, 0, 32, 0, 0, out.get(), 4096u);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidConfiguration);
  for (unsigned v : out.to_host()) {
    ASSERT_EQ(v, 0u);
  }
}
