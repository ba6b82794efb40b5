// Snapshot selection (paper §3.1): which launches are traced and which consecutive blocks, from
// the device limits, block resources and factor; environment parsing; occupancy arithmetic.
// Stopping after the traced launches: stop_after_trace_test.cu.
#include <cuda_runtime.h>

#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "host_config.hpp"
#include "host_test_util.h"
#include "loads_registry.hpp"
#include "memcarlo/host/occupancy.hpp"
#include "memcarlo/tracebuf/reader.hpp"
#include "snapshot_fixture.h"

using host_test::DeviceArray;
using memcarlo::host::BlockResources;
using memcarlo::host::DeviceLimits;
using memcarlo::tracebuf::TraceReader;

namespace {

// The loads table of snapshot_fixture.h's kernels, for the whole test binary.
static const char memcarlo_loads_table_json[] = R"json([
  {"id": 0, "function": "touch", "expression": "data[i]", "kind": "rmw", "element_size": 4}
])json";
MEMCARLO_REGISTER_LOADS(kSnapshotTu, memcarlo_loads_table_json)

std::set<std::uint32_t> traced_blocks(const TraceReader& reader, std::size_t launch) {
  std::set<std::uint32_t> blocks;
  for (const auto& stream : reader.launches().at(launch).warps) {
    blocks.insert(stream.block);
  }
  return blocks;
}

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


}  // namespace

TEST(HostOccupancy, ResidentBlocksAreTheTightestLimit) {
  const DeviceLimits fermi;  // Tesla C2050
  EXPECT_EQ(resident_blocks_per_sm(fermi, BlockResources{256, 0, 32}), 4u) << "registers";
  EXPECT_EQ(resident_blocks_per_sm(fermi, BlockResources{256, 0, 16}), 6u) << "threads, warps";
  EXPECT_EQ(resident_blocks_per_sm(fermi, BlockResources{64, 0, 16}), 8u) << "blocks";
  EXPECT_EQ(resident_blocks_per_sm(fermi, BlockResources{64, 20 * 1024, 16}), 2u) << "shared";
  EXPECT_EQ(resident_blocks_per_sm(fermi, BlockResources{48, 0, 16}), 8u);
  EXPECT_EQ(resident_blocks_per_sm(fermi, BlockResources{2048, 0, 16}), 0u) << "too large";
  EXPECT_EQ(resident_blocks_per_sm(fermi, BlockResources{1024, 0, 64}), 0u) << "registers";
  const DeviceLimits hopper = h100_like();
  EXPECT_EQ(resident_blocks_per_sm(hopper, BlockResources{256, 0, 32}), 8u);
  EXPECT_EQ(resident_blocks_per_sm(hopper, BlockResources{128, 64 * 1024, 32}), 3u);
  EXPECT_EQ(snapshot_block_count(fermi, 4, 4), 14u * 4 * 4);
}

TEST_F(HostSnapshot, DefaultSnapshotIsSmsTimesResidentBlocksTimesFour) {
  memcarlo::host::set_runtime_options(host_test::trace_options(path_));
  DeviceArray<int> data(300 * 256);
  data.fill(0);
  memcarlo_launch("touch", touch, 300, 256, 0, 0, data.get());
  const TraceReader reader = finish();
  const auto& info = reader.launches().at(0).info;
  EXPECT_EQ(info.resident_blocks_per_sm, 4u);
  EXPECT_EQ(info.snapshot_first_block, 0u);
  EXPECT_EQ(info.snapshot_block_count, 14u * 4 * 4);
  const std::set<std::uint32_t> blocks = traced_blocks(reader, 0);
  ASSERT_EQ(blocks.size(), 224u);
  EXPECT_EQ(*blocks.begin(), 0u);
  EXPECT_EQ(*blocks.rbegin(), 223u);
  EXPECT_EQ(reader.launches()[0].warps.size(), 224u * 8);
  EXPECT_EQ(reader.total_records(), 224u * 8);
  for (int v : data.to_host()) {
    ASSERT_EQ(v, 1) << "untraced blocks run too";
  }
}

TEST_F(HostSnapshot, ExplicitRangeAndCustomLimits) {
  memcarlo::host::RuntimeOptions options = host_test::trace_options(path_);
  options.snapshot_first_block = 100;
  options.snapshot_blocks = 10;
  memcarlo::host::set_runtime_options(options);
  DeviceArray<int> data(300 * 64);
  data.fill(0);
  memcarlo_launch("touch", touch, 300, 64, 0, 0, data.get());
  options.snapshot_blocks.reset();
  options.snapshot_first_block = 0;
  options.limits = h100_like();
  options.snapshot_factor = 2;
  options.kernel_resources.push_back({"other_kernel", 32, 0});
  memcarlo::host::set_runtime_options(options);
  memcarlo_launch("other_kernel", other_kernel, 300, 64, 64 * 1024, 0, data.get());
  const TraceReader reader = finish();
  ASSERT_EQ(reader.launches().size(), 2u);
  const std::set<std::uint32_t> first = traced_blocks(reader, 0);
  EXPECT_EQ(first.size(), 10u);
  EXPECT_EQ(*first.begin(), 100u);
  EXPECT_EQ(*first.rbegin(), 109u);
  const auto& info = reader.launches()[1].info;
  EXPECT_EQ(info.resident_blocks_per_sm, 3u) << "64 KiB of dynamic shared memory per block";
  EXPECT_EQ(info.registers_per_thread, 32u);
  EXPECT_EQ(info.dynamic_shared_bytes, 64u * 1024);
  EXPECT_EQ(info.snapshot_block_count, 300u) << "132 * 3 * 2 clamped to the grid";
  EXPECT_EQ(reader.launches()[0].info.registers_per_thread, 0u) << "unknown";
  EXPECT_EQ(data.to_host()[5], 3);
}

TEST_F(HostSnapshot, LaunchSelectionByKernelAndIndex) {
  memcarlo::host::RuntimeOptions options = host_test::trace_options(path_);
  options.kernels = {"touch"};
  options.launch = 1;
  memcarlo::host::set_runtime_options(options);
  DeviceArray<int> data(4 * 32);
  data.fill(0);
  for (int i = 0; i < 3; ++i) {
    memcarlo_launch("other_kernel", other_kernel, 4, 32, 0, 0, data.get());
    memcarlo_launch("touch", touch, 4, 32, 0, 0, data.get());
  }
  TraceReader reader = finish();
  ASSERT_EQ(reader.launches().size(), 1u);
  EXPECT_EQ(reader.launches()[0].info.kernel, "touch");
  EXPECT_EQ(reader.launches()[0].info.sequence_in_program, 3u);

  options.kernels.clear();
  options.launch.reset();  // every launch of every kernel
  memcarlo::host::set_runtime_options(options);
  memcarlo_launch("other_kernel", other_kernel, 4, 32, 0, 0, data.get());
  memcarlo_launch("touch", touch, 4, 32, 0, 0, data.get());
  reader = finish();
  ASSERT_EQ(reader.launches().size(), 2u);
  EXPECT_EQ(data.to_host()[0], 3 * 3 + 3);
}

TEST_F(HostSnapshot, DefaultTracesTheFirstLaunchOfEachKernel) {
  memcarlo::host::set_runtime_options(host_test::trace_options(path_));
  DeviceArray<int> data(32);
  data.fill(0);
  memcarlo_launch("touch", touch, 1, 32, 0, 0, data.get());
  memcarlo_launch("touch", touch, 1, 32, 0, 0, data.get());
  memcarlo_launch("other_kernel", other_kernel, 1, 32, 0, 0, data.get());
  const TraceReader reader = finish();
  ASSERT_EQ(reader.launches().size(), 2u);
  EXPECT_EQ(reader.launches()[0].info.kernel, "touch");
  EXPECT_EQ(reader.launches()[1].info.kernel, "other_kernel");
  EXPECT_EQ(reader.launches()[1].info.sequence_in_program, 2u);
}

TEST_F(HostSnapshot, AnEmptyFirstLaunchIsFollowedByTheKernelsFirstLaunchWithRecords) {
  memcarlo::host::set_runtime_options(host_test::trace_options(path_));
  DeviceArray<int> data(32);
  data.fill(0);
  for (const int n : {0, 0, 3, 5}) {
    memcarlo_launch("touch_if", touch_if, 1, 32, 0, 0, data.get(), n);
  }
  TraceReader reader = finish();
  // Launches 0 and 1 (empty, kept) and 2, the first with records; not 3.
  ASSERT_EQ(reader.launches().size(), 3u);
  EXPECT_EQ(reader.launches()[2].info.sequence_in_program, 2u);
  EXPECT_TRUE(reader.launches()[0].warps.empty() && reader.launches()[1].warps.empty());
  EXPECT_FALSE(reader.launches()[2].warps.empty());
  EXPECT_EQ(data.to_host()[0], 8);

  // An explicit launch 0 (MEMCARLO_LAUNCH=0) is that launch only, empty or not.
  memcarlo::host::RuntimeOptions chosen = host_test::trace_options(path_ + ".chosen");
  chosen.first_launch_with_records = false;
  memcarlo::host::set_runtime_options(chosen);
  for (const int n : {0, 3}) {
    memcarlo_launch("touch_if", touch_if, 1, 32, 0, 0, data.get(), n);
  }
  memcarlo::host::finish_trace();
  reader = TraceReader::open(path_ + ".chosen");
  EXPECT_EQ(reader.launches().size(), 1u);
  std::remove((path_ + ".chosen").c_str());

  // A kernel that never makes a record: at most kMaxEmptyTracedLaunches launches are traced.
  memcarlo::host::set_runtime_options(host_test::trace_options(path_));
  for (std::uint32_t i = 0; i < memcarlo::host::kMaxEmptyTracedLaunches + 3; ++i) {
    memcarlo_launch("touch_if", touch_if, 1, 32, 0, 0, data.get(), 0);
  }
  reader = finish();
  EXPECT_EQ(reader.launches().size(), memcarlo::host::kMaxEmptyTracedLaunches);
}

namespace {
std::map<std::string, std::string> fake_environment;
const char* fake_getenv(const char* name) {
  const auto it = fake_environment.find(name);
  return it != fake_environment.end() ? it->second.c_str() : nullptr;
}
}  // namespace

TEST(HostEnvironment, VariablesSetEveryOption) {
  fake_environment = {{"MEMCARLO_TRACE", "/tmp/x.mct"},
                      {"MEMCARLO_KERNEL", "spmv,axpy<float, 4>,k<f(1, 2)>"},
                      {"MEMCARLO_LAUNCH", "2"},
                      {"MEMCARLO_SNAPSHOT_FACTOR", "8"},
                      {"MEMCARLO_SNAPSHOT_FIRST_BLOCK", "5"},
                      {"MEMCARLO_SNAPSHOT_BLOCKS", "77"},
                      {"MEMCARLO_SM_COUNT", "132"},
                      {"MEMCARLO_MAX_THREADS_PER_SM", "2048"},
                      {"MEMCARLO_MAX_BLOCKS_PER_SM", "32"},
                      {"MEMCARLO_MAX_WARPS_PER_SM", "64"},
                      {"MEMCARLO_SHARED_BYTES_PER_SM", "233472"},
                      {"MEMCARLO_REGISTERS_PER_SM", "65536"},
                      {"MEMCARLO_REGISTERS_PER_THREAD", "40"},
                      {"MEMCARLO_KERNEL_RESOURCES", "spmv:24:0,axpy:16:4096"},
                      {"MEMCARLO_COMPUTE_CAPABILITY", "9.0"},
                      {"MEMCARLO_L2_BYTES", "52428800"},
                      {"MEMCARLO_CLOCK_KHZ", "1755000"},
                      {"MEMCARLO_THREADS", "3"},
                      {"MEMCARLO_FIBER_STACK_KB", "128"},
                      {"MEMCARLO_MAX_BLOCK_EVENTS", "5000"},
                      {"MEMCARLO_BOUNDS_CHECK", "0"},
                      {"MEMCARLO_STOP_AFTER_TRACE", "1"}};
  const auto options = memcarlo::host::detail::options_from(fake_getenv);
  EXPECT_EQ(options.trace_path, "/tmp/x.mct");
  // Commas inside a template argument list belong to the kernel's name.
  EXPECT_EQ(options.kernels, (std::vector<std::string>{"spmv", "axpy<float, 4>", "k<f(1, 2)>"}));
  EXPECT_EQ(options.launch, 2u);
  EXPECT_FALSE(options.first_launch_with_records);  // the user chose the launch
  EXPECT_EQ(options.snapshot_factor, 8u);
  EXPECT_EQ(options.snapshot_first_block, 5u);
  EXPECT_EQ(options.snapshot_blocks, 77u);
  EXPECT_EQ(options.limits.sm_count, 132u);
  EXPECT_EQ(options.limits.max_threads_per_sm, 2048u);
  EXPECT_EQ(options.limits.max_blocks_per_sm, 32u);
  EXPECT_EQ(options.limits.max_warps_per_sm, 64u);
  EXPECT_EQ(options.limits.shared_bytes_per_sm, 233472u);
  EXPECT_EQ(options.limits.registers_per_sm, 65536u);
  EXPECT_EQ(options.default_registers_per_thread, 40u);
  ASSERT_EQ(options.kernel_resources.size(), 2u);
  EXPECT_EQ(options.kernel_resources[1].kernel, "axpy");
  EXPECT_EQ(options.kernel_resources[1].static_shared_bytes, 4096u);
  EXPECT_EQ(options.compute_major, 9);
  EXPECT_EQ(options.l2_bytes, 52428800u);
  EXPECT_EQ(options.clock_khz, 1755000u);
  EXPECT_EQ(options.worker_threads, 3u);
  EXPECT_EQ(options.fiber_stack_bytes, 128u * 1024);
  EXPECT_EQ(options.max_block_events, 5000u);
  EXPECT_FALSE(options.bounds_check);
  EXPECT_TRUE(options.stop_after_trace);

  fake_environment = {{"MEMCARLO_LAUNCH", "all"}};
  EXPECT_FALSE(memcarlo::host::detail::options_from(fake_getenv).launch.has_value());
  fake_environment.clear();
  const auto defaults = memcarlo::host::detail::options_from(fake_getenv);
  EXPECT_TRUE(defaults.trace_path.empty());
  EXPECT_EQ(defaults.launch, 0u);
  EXPECT_TRUE(defaults.first_launch_with_records);
  EXPECT_EQ(defaults.snapshot_factor, 4u);
  EXPECT_EQ(defaults.limits.sm_count, 14u);
  EXPECT_TRUE(defaults.bounds_check);
  EXPECT_FALSE(defaults.stop_after_trace);
}

TEST(HostEnvironmentDeathTest, MalformedValuesNameTheVariable) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  fake_environment = {{"MEMCARLO_SNAPSHOT_FACTOR", "four"}};
  EXPECT_EXIT(memcarlo::host::detail::options_from(fake_getenv), ::testing::ExitedWithCode(78),
              "MEMCARLO_SNAPSHOT_FACTOR=\"four\": expected a whole number in \\[1, 1048576\\]");
  fake_environment = {{"MEMCARLO_KERNEL_RESOURCES", "spmv:24"}};
  EXPECT_EXIT(memcarlo::host::detail::options_from(fake_getenv), ::testing::ExitedWithCode(78),
              "MEMCARLO_KERNEL_RESOURCES=\"spmv:24\": expected comma-separated");
  fake_environment = {{"MEMCARLO_BOUNDS_CHECK", "yes"}};
  EXPECT_EXIT(memcarlo::host::detail::options_from(fake_getenv), ::testing::ExitedWithCode(78),
              "MEMCARLO_BOUNDS_CHECK=\"yes\": expected a whole number in \\[0, 1\\]");
}
