// Launch selection and snapshot sizing of the cuda backend (paper §3.1): the same options and
// numbers as the host backend (docs/host-runtime.md), and MEMCARLO_CUDA_BUFFER_MB.
#include "launch_planner.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "cuda_options.hpp"

namespace {

using memcarlo::cuda::detail::cuda_options_from;
using memcarlo::cuda::detail::launch_selected;
using memcarlo::cuda::detail::LaunchCounter;
using memcarlo::cuda::detail::LaunchRequest;
using memcarlo::cuda::detail::modeled_resident_blocks_per_sm;
using memcarlo::cuda::detail::plan_snapshot;
using memcarlo::cuda::detail::SnapshotPlan;
using memcarlo::host::BlockResources;
using memcarlo::host::DeviceLimits;
using memcarlo::host::RuntimeOptions;

LaunchRequest request(const std::string& kernel, std::uint32_t grid, std::uint32_t block,
                      std::uint64_t shared = 0) {
  LaunchRequest r;
  r.kernel = kernel;
  r.grid = {grid, 1, 1};
  r.block = {block, 1, 1};
  r.dynamic_shared_bytes = shared;
  return r;
}

// The values the host backend's tests use for an H100 preset.
DeviceLimits h100_like() {
  DeviceLimits limits;
  limits.sm_count = 132;
  limits.max_threads_per_sm = 2048;
  limits.max_blocks_per_sm = 32;
  limits.max_warps_per_sm = 64;
  limits.shared_bytes_per_sm = 228 * 1024;
  limits.registers_per_sm = 65536;
  limits.shared_bytes_per_block = 227 * 1024;
  limits.register_allocation_unit = 256;
  return limits;
}

TEST(LaunchCounter, CountsLaunchesPerProgramAndPerKernel) {
  LaunchCounter counter;
  EXPECT_EQ(counter.count("a").nth_of_kernel, 0u);
  EXPECT_EQ(counter.count("b").nth_of_kernel, 0u);
  const LaunchCounter::Position third = counter.count("a");
  EXPECT_EQ(third.nth_of_kernel, 1u);
  EXPECT_EQ(third.sequence_in_program, 2u);
}

TEST(LaunchSelection, DefaultIsTheFirstLaunchOfEveryKernel) {
  const RuntimeOptions options;
  EXPECT_TRUE(launch_selected(options, "spmv", 0));
  EXPECT_FALSE(launch_selected(options, "spmv", 1));
  EXPECT_TRUE(launch_selected(options, "other", 0));
}

TEST(LaunchSelection, KernelListAndLaunchIndexRestrictIt) {
  RuntimeOptions options;
  options.kernels = {"spmv", "axpy"};
  options.launch = 2;
  EXPECT_FALSE(launch_selected(options, "spmv", 0));
  EXPECT_TRUE(launch_selected(options, "spmv", 2));
  EXPECT_TRUE(launch_selected(options, "axpy", 2));
  EXPECT_FALSE(launch_selected(options, "other", 2));
  options.launch.reset();  // MEMCARLO_LAUNCH=all
  EXPECT_TRUE(launch_selected(options, "axpy", 7));
}

TEST(Occupancy, FermiDefaultsWith256ThreadsAreRegisterBound) {
  BlockResources block;
  block.threads = 256;  // 8 warps; 32 registers: 8192 per block of 32768
  EXPECT_EQ(modeled_resident_blocks_per_sm(DeviceLimits{}, block), 4u);
  block.registers_per_thread = 16;  // now warps (48 / 8) and threads (1536 / 256) bind
  EXPECT_EQ(modeled_resident_blocks_per_sm(DeviceLimits{}, block), 6u);
  block.shared_bytes = 20 * 1024;  // two blocks' shared memory per SM
  EXPECT_EQ(modeled_resident_blocks_per_sm(DeviceLimits{}, block), 2u);
}

TEST(Occupancy, H100LikeLimits) {
  BlockResources block;
  block.threads = 256;
  EXPECT_EQ(modeled_resident_blocks_per_sm(h100_like(), block), 8u);
  block.threads = 96;  // 3 warps; 32 blocks bind before 64 / 3 warps
  EXPECT_EQ(modeled_resident_blocks_per_sm(h100_like(), block), 21u);
}

TEST(Occupancy, ABlockThatDoesNotFitGivesZero) {
  BlockResources block;
  block.threads = 2048;
  EXPECT_EQ(modeled_resident_blocks_per_sm(DeviceLimits{}, block), 0u);
  block.threads = 32;
  block.shared_bytes = 64 * 1024;
  EXPECT_EQ(modeled_resident_blocks_per_sm(DeviceLimits{}, block), 0u);
}

TEST(Snapshot, SmsTimesResidentBlocksTimesFactor) {
  const RuntimeOptions options;  // C2050: 14 SMs, factor 4
  const SnapshotPlan plan = plan_snapshot(options, request("k", 10000, 256), 5);
  EXPECT_EQ(plan.info.resident_blocks_per_sm, 4u);
  EXPECT_EQ(plan.info.snapshot_first_block, 0u);
  EXPECT_EQ(plan.info.snapshot_block_count, 14u * 4 * 4);
  EXPECT_EQ(plan.info.sequence_in_program, 5u);
  EXPECT_EQ(plan.info.kernel, "k");
  EXPECT_EQ(plan.info.registers_per_thread, 0u);  // unknown
  EXPECT_FALSE(plan.block_exceeds_sm);
}

TEST(Snapshot, ClampedToTheGridFromTheFirstBlock) {
  RuntimeOptions options;
  options.snapshot_first_block = 90;
  const SnapshotPlan plan = plan_snapshot(options, request("k", 100, 256), 0);
  EXPECT_EQ(plan.info.snapshot_first_block, 90u);
  EXPECT_EQ(plan.info.snapshot_block_count, 10u);
  options.snapshot_first_block = 500;
  EXPECT_EQ(plan_snapshot(options, request("k", 100, 256), 0).info.snapshot_block_count, 0u);
}

TEST(Snapshot, ExplicitBlockCountOverridesTheFormula) {
  RuntimeOptions options;
  options.snapshot_blocks = 3;
  EXPECT_EQ(plan_snapshot(options, request("k", 100, 256), 0).info.snapshot_block_count, 3u);
}

TEST(Snapshot, KernelResourcesSetRegistersAndStaticSharedMemory) {
  RuntimeOptions options;
  options.kernel_resources.push_back({"k", 63, 16 * 1024});
  const SnapshotPlan plan = plan_snapshot(options, request("k", 10000, 128, 8 * 1024), 0);
  EXPECT_EQ(plan.info.registers_per_thread, 63u);
  EXPECT_EQ(plan.info.static_shared_bytes, 16u * 1024);
  EXPECT_EQ(plan.info.dynamic_shared_bytes, 8u * 1024);
  // 24 KiB of shared memory per block: 2 per SM (the registers would allow 4).
  EXPECT_EQ(plan.info.resident_blocks_per_sm, 2u);
  EXPECT_EQ(plan.info.snapshot_block_count, 14u * 2 * 4);
}

TEST(Snapshot, ABlockLargerThanAnSmAssumesOneResidentBlock) {
  const SnapshotPlan plan = plan_snapshot(RuntimeOptions{}, request("k", 1000, 32, 1 << 20), 0);
  EXPECT_TRUE(plan.block_exceeds_sm);
  EXPECT_EQ(plan.info.resident_blocks_per_sm, 1u);
  EXPECT_EQ(plan.info.snapshot_block_count, 14u * 4);
}

TEST(Snapshot, BlockIdsStayWithin32Bits) {
  RuntimeOptions options;
  options.snapshot_first_block = 0xffffffffu;
  LaunchRequest r = request("k", 65536, 32);
  r.grid.y = 65536;  // 2^32 blocks
  r.grid.z = 2;
  const SnapshotPlan plan = plan_snapshot(options, r, 0);
  EXPECT_EQ(plan.info.snapshot_first_block, 0xffffffffu);
  EXPECT_EQ(plan.info.snapshot_block_count, 1u);
}

std::map<std::string, std::string> environment;
const char* lookup(const char* name) {
  const auto it = environment.find(name);
  return it != environment.end() ? it->second.c_str() : nullptr;
}

TEST(CudaOptions, SharedVariablesAndTheBufferBudget) {
  environment = {{"MEMCARLO_TRACE", "out.mct"},
                 {"MEMCARLO_SM_COUNT", "132"},
                 {"MEMCARLO_LAUNCH", "all"},
                 {"MEMCARLO_CUDA_BUFFER_MB", "64"}};
  const auto options = cuda_options_from(lookup);
  EXPECT_EQ(options.common.trace_path, "out.mct");
  EXPECT_EQ(options.common.limits.sm_count, 132u);
  EXPECT_FALSE(options.common.launch.has_value());
  EXPECT_EQ(options.buffer_bytes, std::uint64_t{64} << 20);
  environment.clear();
  EXPECT_EQ(cuda_options_from(lookup).buffer_bytes, std::uint64_t{256} << 20);
}

TEST(CudaOptionsDeathTest, AMalformedBudgetNamesTheVariable) {
  environment = {{"MEMCARLO_CUDA_BUFFER_MB", "lots"}};
  EXPECT_EXIT(cuda_options_from(lookup), ::testing::ExitedWithCode(78),
              "memcarlo cuda runtime: MEMCARLO_CUDA_BUFFER_MB=\"lots\": expected a whole number");
}

TEST(CudaOptionsDeathTest, AMalformedSharedVariableNamesTheVariable) {
  environment = {{"MEMCARLO_SM_COUNT", "0"}};
  EXPECT_EXIT(cuda_options_from(lookup), ::testing::ExitedWithCode(78),
              "memcarlo cuda runtime: MEMCARLO_SM_COUNT=\"0\"");
}

}  // namespace
