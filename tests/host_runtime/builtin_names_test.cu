// The built-in index variables exist for device code only: host code may declare variables of
// the same names, as Rodinia's nn does with `dim3 gridDim(...)` and `dim3 blockDim(...)` in main
// and benchmark drivers do with launch helpers taking `dim3 gridDim, dim3 blockDim` parameters.
#include <cuda_runtime.h>

#include <vector>

#include "host_test_util.h"

using host_test::DeviceArray;

namespace {

// What the kernel sees through the built-ins, whatever the host called its own variables.
__global__ void record_shape(unsigned* out) {
  const unsigned block = blockIdx.y * gridDim.x + blockIdx.x;
  const unsigned thread = threadIdx.y * blockDim.x + threadIdx.x;
  const unsigned i = block * blockDim.x * blockDim.y + thread;
  out[4 * i + 0] = gridDim.x * 100 + gridDim.y;
  out[4 * i + 1] = blockDim.x * 100 + blockDim.y;
  out[4 * i + 2] = blockIdx.x * 100 + blockIdx.y;
  out[4 * i + 3] = threadIdx.x * 100 + threadIdx.y;
}

/// A launch helper whose parameters carry the built-ins' names.
void launch_with(dim3 gridDim, dim3 blockDim, unsigned* out) {
  memcarlo_launch("record_shape", record_shape, gridDim, blockDim, 0, 0, out);
}

void expect_shape(const std::vector<unsigned>& values, dim3 grid, dim3 block) {
  std::size_t i = 0;
  for (unsigned by = 0; by < grid.y; ++by) {
    for (unsigned bx = 0; bx < grid.x; ++bx) {
      for (unsigned ty = 0; ty < block.y; ++ty) {
        for (unsigned tx = 0; tx < block.x; ++tx, ++i) {
          ASSERT_EQ(values[4 * i + 0], grid.x * 100 + grid.y) << i;
          ASSERT_EQ(values[4 * i + 1], block.x * 100 + block.y) << i;
          ASSERT_EQ(values[4 * i + 2], bx * 100 + by) << i;
          ASSERT_EQ(values[4 * i + 3], tx * 100 + ty) << i;
        }
      }
    }
  }
}

}  // namespace

// The shadowing is the point of this test: clang's -Wshadow reports host locals that hide the
// emulation's thread-local built-ins (memcarlo_cuda_builtins::gridDim), GCC's does not. Off for
// this test only (pushed and popped), so that a clang build keeps -Werror.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wshadow"
#endif
TEST(HostBuiltinNames, HostLocalsNamedGridDimAndBlockDimDriveTheLaunch) {
  dim3 gridDim(3, 2);
  dim3 blockDim(8, 4);
  DeviceArray<unsigned> out(4 * 3 * 2 * 8 * 4);
  memcarlo_launch("record_shape", record_shape, gridDim, blockDim, 0, 0, out.get());
  ASSERT_CUDA(cudaGetLastError());
  expect_shape(out.to_host(), gridDim, blockDim);
  // The host's variables are its own: the launch did not change them.
  EXPECT_EQ(gridDim.x, 3u);
  EXPECT_EQ(blockDim.y, 4u);
}
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

TEST(HostBuiltinNames, ParametersNamedLikeTheBuiltins) {
  DeviceArray<unsigned> out(4 * 5 * 1 * 16 * 2);
  launch_with(dim3(5, 1), dim3(16, 2), out.get());
  ASSERT_CUDA(cudaGetLastError());
  expect_shape(out.to_host(), dim3(5, 1), dim3(16, 2));
}
