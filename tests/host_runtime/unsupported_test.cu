// What the emulation refuses, and how a run ends: unsupported constructs and broken
// synchronization are reported with the construct and the source line; a program that exits
// leaves a complete trace, one that is killed a readable prefix. (Texture references work:
// texture_reference_test.cu has what they refuse.)
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <csignal>
#include <cstring>
#include <string>
#include <vector>

#include "host_test_util.h"
#include "memcarlo/tracebuf/reader.hpp"

namespace cg = cooperative_groups;
using host_test::DeviceArray;
using memcarlo::tracebuf::TraceReader;

namespace {

static constexpr unsigned memcarlo_tu = 0x4004u;
static const char memcarlo_loads_table_json[] = R"json([
  {"id": 0, "function": "traced_copy", "expression": "in[i]", "kind": "read", "element_size": 4}
])json";
MEMCARLO_REGISTER_LOADS(memcarlo_tu, memcarlo_loads_table_json)

/// A texture object set up the way CUDA programs do; creating it is what fails.
constexpr unsigned kTextureObjectLine = __LINE__ + 15;
void create_texture_object(float* buffer) {
  cudaResourceDesc resource;
  std::memset(&resource, 0, sizeof resource);
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = buffer;
  resource.res.linear.desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  resource.res.linear.sizeInBytes = 32 * sizeof(float);
  cudaTextureDesc description;
  std::memset(&description, 0, sizeof description);
  description.addressMode[0] = cudaAddressModeClamp;
  description.filterMode = cudaFilterModePoint;
  description.readMode = cudaReadModeElementType;
  description.normalizedCoords = 0;
  cudaTextureObject_t texture = 0;
  cudaCreateTextureObject(&texture, &resource, &description, nullptr);
}

constexpr unsigned kArrayLine = __LINE__ + 4;
void copy_to_array(const float* host) {
  const cudaChannelFormatDesc channel = cudaCreateChannelDesc<float>();
  cudaArray_t array = nullptr;
  cudaMallocArray(&array, &channel, 16, 16);
  cudaMemcpy2DToArray(array, 0, 0, host, 16 * sizeof(float), 16 * sizeof(float), 16,
                      cudaMemcpyHostToDevice);
}

constexpr unsigned kSurfaceLine = __LINE__ + 2;
__global__ void writes_surface(cudaSurfaceObject_t surface) {
  surf2Dwrite(1.0f, surface, static_cast<int>(threadIdx.x * sizeof(float)), 0,
              cudaBoundaryModeZero);
}

constexpr unsigned kGridSyncLine = __LINE__ + 3;
__global__ void grid_sync(float* out) {
  out[threadIdx.x] = 1.0f;
  cg::this_grid().sync();
}

__global__ void child(float* out) {
  out[threadIdx.x] = 2.0f;
}

constexpr unsigned kDynamicLaunchLine = __LINE__ + 3;
__global__ void parent(float* out) {
  if (threadIdx.x == 0) {
    memcarlo_launch("child", child, 1, 32, 0, 0, out);
  }
}

// Half the warp waits at the barrier, the other half in a full-mask shuffle that needs them.
__global__ void deadlocks(int* out) {
  if (threadIdx.x < 16) {
    __syncthreads();
  } else {
    out[threadIdx.x] = __shfl_sync(0xffffffffu, 1, 0);
  }
}

__global__ void mismatched(unsigned* out) {
  if (threadIdx.x < 16) {
    out[threadIdx.x] = static_cast<unsigned>(__shfl_sync(0xffffffffu, 1, 0));
  } else {
    out[threadIdx.x] = __ballot_sync(0xffffffffu, 1);
  }
}

__global__ void traps() {
  __trap();
}

__global__ void traced_copy(const float* in, float* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = *memcarlo_probe(memcarlo_tu, 0u, &(in[i]));
}

std::string line_pattern(unsigned line) {
  return "unsupported_test\\.cu:" + std::to_string(line) + "\\)";
}

/// Child process body: trace one launch of traced_copy into `path`.
void trace_one_launch(const std::string& path) {
  memcarlo::host::set_runtime_options(host_test::trace_options(path));
  float* in = nullptr;
  float* out = nullptr;
  cudaMalloc(&in, 4096 * sizeof(float));
  cudaMalloc(&out, 4096 * sizeof(float));
  memcarlo_launch("traced_copy", traced_copy, 32, 128, 0, 0, in, out);
}

class HostUnsupportedDeathTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

}  // namespace

TEST_F(HostUnsupportedDeathTest, TextureObjectsCompileAndCreatingOneIsNamed) {
  DeviceArray<float> buffer(32);
  EXPECT_EXIT(create_texture_object(buffer.get()), ::testing::ExitedWithCode(69),
              "memcarlo host runtime: texture objects \\(cudaCreateTextureObject\\) is not "
              "supported by the host backend \\(.*" +
                  line_pattern(kTextureObjectLine));
}

TEST_F(HostUnsupportedDeathTest, CudaArraysAndSurfacesAreNamed) {
  const std::vector<float> host(256, 1.0f);
  EXPECT_EXIT(copy_to_array(host.data()), ::testing::ExitedWithCode(69),
              "CUDA arrays \\(cudaMallocArray\\) is not supported.*" + line_pattern(kArrayLine));
  EXPECT_EXIT(memcarlo_launch("writes_surface", writes_surface, 1, 32, 0, 0,
                              cudaSurfaceObject_t{1}),
              ::testing::ExitedWithCode(69),
              "surfaces \\(surf2Dwrite\\) is not supported.*" + line_pattern(kSurfaceLine));
}

// grid.sync() needs a cooperative launch (programs/grid_sync.cu runs one); in a launch made
// otherwise it ends the program (status 70), naming the line.
TEST_F(HostUnsupportedDeathTest, GridSynchronizationOutsideACooperativeLaunch) {
  DeviceArray<float> out(32);
  EXPECT_EXIT(memcarlo_launch("grid_sync", grid_sync, 2, 32, 0, 0, out.get()),
              ::testing::ExitedWithCode(70),
              "grid.sync\\(\\) at .*unsupported_test\\.cu:" + std::to_string(kGridSyncLine) +
                  " in kernel 'grid_sync', which was not launched with "
                  "cudaLaunchCooperativeKernel");
}

TEST_F(HostUnsupportedDeathTest, DynamicParallelism) {
  DeviceArray<float> out(32);
  EXPECT_EXIT(memcarlo_launch("parent", parent, 1, 32, 0, 0, out.get()),
              ::testing::ExitedWithCode(69),
              "dynamic parallelism \\(kernel 'child' launched from device code at "
              ".*unsupported_test\\.cu:" +
                  std::to_string(kDynamicLaunchLine));
}

TEST_F(HostUnsupportedDeathTest, DeadlockIsReportedWithTheWaitingSites) {
  DeviceArray<int> out(32);
  EXPECT_EXIT(memcarlo_launch("deadlocks", deadlocks, 1, 32, 0, 0, out.get()),
              ::testing::ExitedWithCode(70),
              "deadlock in kernel 'deadlocks', block \\(0,0,0\\).*16 thread\\(s\\) wait in "
              "__shfl_sync \\(.*unsupported_test\\.cu:[0-9]+\\).*16 thread\\(s\\) wait in "
              "__syncthreads");
}

TEST_F(HostUnsupportedDeathTest, MismatchedWarpCollectives) {
  DeviceArray<unsigned> out(32);
  EXPECT_EXIT(memcarlo_launch("mismatched", mismatched, 1, 32, 0, 0, out.get()),
              ::testing::ExitedWithCode(70),
              "different warp collectives with mask 0xffffffff: __shfl_sync .* and __ballot_sync");
}

TEST_F(HostUnsupportedDeathTest, TrapAborts) {
  EXPECT_DEATH(memcarlo_launch("traps", traps, 1, 1, 0, 0), "__trap\\(\\) reached in a kernel");
}

TEST_F(HostUnsupportedDeathTest, ExitFinishesTheTrace) {
  const std::string path = host_test::temporary_trace_path("exit");
  EXPECT_EXIT(
      {
        trace_one_launch(path);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
  const TraceReader reader = TraceReader::open(path);
  EXPECT_TRUE(reader.complete());
  ASSERT_EQ(reader.launches().size(), 1u);
  EXPECT_EQ(reader.total_records(), 32u * 4);
  std::remove(path.c_str());
}

TEST_F(HostUnsupportedDeathTest, KilledProgramLeavesAReadablePrefix) {
  const std::string path = host_test::temporary_trace_path("killed");
  EXPECT_EXIT(
      {
        trace_one_launch(path);
        std::raise(SIGKILL);
      },
      ::testing::KilledBySignal(SIGKILL), "");
  memcarlo::tracebuf::ReadOptions options;
  options.allow_truncated = true;
  const TraceReader reader = TraceReader::open(path, options);
  EXPECT_FALSE(reader.complete());
  ASSERT_EQ(reader.launches().size(), 1u);
  EXPECT_EQ(reader.total_records(), 32u * 4) << "every finished block was flushed";
  EXPECT_THROW(TraceReader::open(path), memcarlo::tracebuf::TraceError);
  std::remove(path.c_str());
}

TEST_F(HostUnsupportedDeathTest, ProgramWithoutLaunchesLeavesAnEmptyCompleteTrace) {
  const std::string path = host_test::temporary_trace_path("nolaunch");
  EXPECT_EXIT(
      {
        memcarlo::host::set_runtime_options(host_test::trace_options(path));
        void* unused = nullptr;
        cudaMalloc(&unused, 64);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
  const TraceReader reader = TraceReader::open(path);
  EXPECT_TRUE(reader.complete());
  EXPECT_TRUE(reader.launches().empty());
  EXPECT_FALSE(reader.loads().empty());
  std::remove(path.c_str());
}
