// Snapshot selection (paper §3.1): which launches are traced and which consecutive blocks, from
// the device limits, block resources and factor; environment parsing; occupancy arithmetic.
#include <cuda_runtime.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "host_config.hpp"
#include "host_test_util.h"
#include "loads_registry.hpp"
#include "memcarlo/host/occupancy.hpp"
#include "memcarlo/tracebuf/reader.hpp"
#include "memcarlo/tracebuf/stop_after_trace.hpp"
#include "memcarlo/tracebuf/trace_comparison.hpp"

using host_test::DeviceArray;
using memcarlo::host::BlockResources;
using memcarlo::host::DeviceLimits;
using memcarlo::tracebuf::TraceReader;

namespace {

static constexpr unsigned memcarlo_tu = 0x3003u;
static const char memcarlo_loads_table_json[] = R"json([
  {"id": 0, "function": "touch", "expression": "data[i]", "kind": "rmw", "element_size": 4}
])json";
MEMCARLO_REGISTER_LOADS(memcarlo_tu, memcarlo_loads_table_json)

__global__ void touch(int* data) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  *memcarlo_probe(memcarlo_tu, 0u, &(data[i])) += 1;
}

// Touches its data only when n > 0: a launch with n == 0 makes no record.
__global__ void touch_if(int* data, int n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n > 0) {
    *memcarlo_probe(memcarlo_tu, 0u, &(data[i])) += n;
  }
}

template <int Scale>
__global__ void scaled(int* data) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  *memcarlo_probe(memcarlo_tu, 0u, &(data[i])) += Scale;
}

__global__ void other_kernel(int* data) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  *memcarlo_probe(memcarlo_tu, 0u, &(data[i])) += 2;
}

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

class HostSnapshot : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = host_test::temporary_trace_path(
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
  }
  void TearDown() override { std::remove(path_.c_str()); }
  /// Finishes the trace and opens it; every trace must pass `memcarlo trace check`'s invariants
  /// with all lane addresses inside listed allocations.
  TraceReader finish() {
    memcarlo::host::finish_trace();
    TraceReader reader = TraceReader::open(path_);
    const memcarlo::tracebuf::CheckReport report = memcarlo::tracebuf::check_invariants(reader);
    EXPECT_EQ(report.addresses_outside_allocations, 0u);
    EXPECT_TRUE(report.warnings.empty()) << report.warnings.front();
    return reader;
  }

  std::string path_;
  host_test::TracingOff tracing_off_;
};

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

// MEMCARLO_STOP_AFTER_TRACE (docs/host-runtime.md, "Stopping after the traced launches"): each test
// runs the program in a death test's child, which the runtime ends with status 79 once the trace
// is complete; the parent reads what the child wrote.
class HostStopAfterTraceDeathTest : public HostSnapshot {
 protected:
  void SetUp() override {
    HostSnapshot::SetUp();
    GTEST_FLAG_SET(death_test_style, "threadsafe");
  }
  void TearDown() override {
    HostSnapshot::TearDown();
    std::remove(memcarlo::tracebuf::stop_status_path(path_).c_str());
  }
  /// One kernel before the traced one, then three launches of the traced one (64 blocks of one
  /// warp, of which the snapshot is blocks [8, 12)).
  static memcarlo::host::RuntimeOptions options(const std::string& path, bool stop) {
    memcarlo::host::RuntimeOptions options = host_test::trace_options(path);
    options.kernels = {"touch"};
    options.snapshot_first_block = 8;
    options.snapshot_blocks = 4;
    options.stop_after_trace = stop;
    return options;
  }
  static void program(int* data) {
    memcarlo_launch("other_kernel", other_kernel, 64, 32, 0, 0, data);
    for (int repeat = 0; repeat < 3; ++repeat) {
      memcarlo_launch("touch", touch, 64, 32, 0, 0, data);
    }
  }
  nlohmann::json stop_status() const {
    std::ifstream in(memcarlo::tracebuf::stop_status_path(path_));
    return nlohmann::json::parse(in, nullptr, false);
  }
};

TEST_F(HostStopAfterTraceDeathTest, StopsAfterTheSnapshotWithTheTraceOfTheFullRun) {
  const std::string full_path = path_ + ".full.mct";
  memcarlo::host::set_runtime_options(options(full_path, false));
  DeviceArray<int> data(64 * 32);
  data.fill(0);
  program(data.get());
  memcarlo::host::finish_trace();
  for (int v : data.to_host()) {
    ASSERT_EQ(v, 2 + 3) << "the full run runs every launch in full";
  }

  EXPECT_EXIT(
      {
        memcarlo::host::set_runtime_options(options(path_, true));
        DeviceArray<int> child_data(64 * 32);
        child_data.fill(0);
        program(child_data.get());
        std::exit(0);  // not reached: the runtime stops the program after launch 1
      },
      ::testing::ExitedWithCode(memcarlo::tracebuf::kExitStoppedAfterTrace),
      "stopped after the traced launches \\(MEMCARLO_STOP_AFTER_TRACE=1\\): launch 1 of the "
      "program \\('touch'\\) ran 4 of its 64 blocks");
  const TraceReader stopped = finish();
  const TraceReader full = TraceReader::open(full_path);
  std::remove(full_path.c_str());
  ASSERT_EQ(stopped.launches().size(), 1u);
  ASSERT_EQ(full.launches().size(), 1u);
  EXPECT_EQ(stopped.total_records(), 4u) << "4 blocks of one warp, one access each";
  const auto comparison = memcarlo::tracebuf::compare_traces(full, stopped, true);
  EXPECT_TRUE(comparison.equal()) << comparison.differences.front();
  EXPECT_EQ(comparison.records_compared, 4u);
  const nlohmann::json status = stop_status();
  ASSERT_TRUE(status.is_object());
  EXPECT_EQ(status["launch"], 0);
  EXPECT_EQ(status["kernel"], "touch");
  EXPECT_EQ(status["sequence_in_program"], 1);
  EXPECT_EQ(status["blocks_run"], 4);
  EXPECT_EQ(status["blocks"], 64);
}

TEST_F(HostStopAfterTraceDeathTest, ATracedLaunchThatLeavesKernelsToTraceRunsEveryBlock) {
  const auto child = [this] {
    memcarlo::host::RuntimeOptions stop = options(path_, true);
    stop.kernels = {"touch", "other_kernel"};
    memcarlo::host::set_runtime_options(stop);
    DeviceArray<int> child_data(64 * 32);
    child_data.fill(0);
    memcarlo_launch("touch", touch, 64, 32, 0, 0, child_data.get());
    for (int v : child_data.to_host()) {
      if (v != 1) {
        std::exit(3);  // a block of the first traced launch did not run
      }
    }
    memcarlo_launch("other_kernel", other_kernel, 64, 32, 0, 0, child_data.get());
    std::exit(0);
  };
  EXPECT_EXIT(child(), ::testing::ExitedWithCode(memcarlo::tracebuf::kExitStoppedAfterTrace),
              "launch 1 of the program \\('other_kernel'\\) ran 4 of its 64 blocks");
  EXPECT_EQ(finish().launches().size(), 2u);
}

TEST_F(HostStopAfterTraceDeathTest, ALaunchWhoseTracedBlocksAllPassTheEventBudgetCompletesIt) {
  // Each traced block buffers 32 events before it ends, over a budget of 8: it keeps no record,
  // yet the launch accessed memory and is the kernel's traced launch (PolyBench CORR's case), in
  // the full run (one traced launch, not the 8 empty ones) and under the option (a stop).
  const auto budget_options = [](const std::string& path, bool stop) {
    memcarlo::host::RuntimeOptions over_budget = options(path, stop);
    over_budget.max_block_events = 8;
    return over_budget;
  };
  const std::string full_path = path_ + ".full.mct";
  memcarlo::host::set_runtime_options(budget_options(full_path, false));
  DeviceArray<int> data(64 * 32);
  ::testing::internal::CaptureStderr();
  program(data.get());
  ::testing::internal::GetCapturedStderr();
  memcarlo::host::finish_trace();
  EXPECT_EXIT(
      {
        memcarlo::host::set_runtime_options(budget_options(path_, true));
        DeviceArray<int> child_data(64 * 32);
        program(child_data.get());
        std::exit(0);
      },
      ::testing::ExitedWithCode(memcarlo::tracebuf::kExitStoppedAfterTrace),
      "launch 1 of the program \\('touch'\\) ran 4 of its 64 blocks");
  const TraceReader stopped = finish();
  const TraceReader full = TraceReader::open(full_path);
  std::remove(full_path.c_str());
  EXPECT_EQ(full.launches().size(), 1u);
  EXPECT_EQ(stopped.launches().size(), 1u);
  EXPECT_EQ(stopped.total_records(), 0u);
}

TEST_F(HostStopAfterTraceDeathTest, WithoutKernelNamesEveryRegisteredKernelIsAwaited) {
  // The instrumenter registers each kernel with parameters; `touch_if` is traced at its first
  // launch with records (the empty launch before it stays in the trace), and only then is every
  // registered kernel traced.
  const auto registered = [this](const char* kernels, const char* launch_name) {
    memcarlo::host::detail::kernel_parameters().add(kernels);
    memcarlo::host::RuntimeOptions stop = host_test::trace_options(path_);
    stop.stop_after_trace = true;
    stop.snapshot_blocks = 4;
    memcarlo::host::set_runtime_options(stop);
    DeviceArray<int> child_data(64 * 32);
    child_data.fill(0);
    memcarlo_launch(launch_name, touch, 64, 32, 0, 0, child_data.get());
    memcarlo_launch("touch_if", touch_if, 64, 32, 0, 0, child_data.get(), 0);
    memcarlo_launch("touch_if", touch_if, 64, 32, 0, 0, child_data.get(), 2);
    std::exit(0);
  };
  const char* both = R"([{"kernel": "touch", "parameters": ["data"]},
                         {"kernel": "touch_if", "parameters": ["data", "n"]}])";
  EXPECT_EXIT(registered(both, "touch"),
              ::testing::ExitedWithCode(memcarlo::tracebuf::kExitStoppedAfterTrace),
              "launch 2 of the program \\('touch_if'\\) ran 4 of its 64 blocks");
  const TraceReader reader = finish();
  ASSERT_EQ(reader.launches().size(), 3u);
  EXPECT_EQ(reader.launches()[1].info.kernel, "touch_if");
  EXPECT_EQ(reader.total_records(), 8u) << "touch and the second touch_if, 4 blocks each";

  // A kernel launched with template arguments may have other instances to come, and a
  // registered kernel that never launched may still come: the program runs to its end.
  // The runtime says so at the end, and how to stop after them.
  EXPECT_EXIT(registered(both, "touch<4>"), ::testing::ExitedWithCode(0),
              "kernels launched with template arguments \\(touch<4>\\) might have had further "
              "instances to come. Naming the kernels to trace stops the program after them: "
              "MEMCARLO_KERNEL='touch<4>'");
  EXPECT_EXIT(registered(R"([{"kernel": "touch", "parameters": ["data"]},
                             {"kernel": "touch_if", "parameters": ["data", "n"]},
                             {"kernel": "never_launched", "parameters": ["data"]}])",
                         "touch"),
              ::testing::ExitedWithCode(0), "");
}

TEST_F(HostStopAfterTraceDeathTest, TemplateInstancesStopOnceEveryRegisteredLaunchNameIsTraced) {
  // The instrumenter registers, per unit, the names its launches give the runtime, template
  // instances included (MEMCARLO_REGISTER_LAUNCHES): two instances of `scaled`, each traced at
  // its first launch, then repeats. The program stops after the first launch of the second
  // instance (launch 2), with the trace of the full run.
  const auto program = [](int* data) {
    for (int repeat = 0; repeat < 2; ++repeat) {
      memcarlo_launch("scaled<1>", scaled<1>, 64, 32, 0, 0, data);
    }
    for (int repeat = 0; repeat < 3; ++repeat) {
      memcarlo_launch("scaled<2>", scaled<2>, 64, 32, 0, 0, data);
    }
  };
  const auto stop_options = [](const std::string& path, bool stop) {
    memcarlo::host::RuntimeOptions options = host_test::trace_options(path);
    options.stop_after_trace = stop;
    options.snapshot_first_block = 8;
    options.snapshot_blocks = 4;
    return options;
  };
  // Every unit with a loads table registers its launch names (none in the other units here), and
  // the instrumenter registers the kernel template with its parameters.
  const auto register_launches = [](const char* names) {
    memcarlo::host::detail::kernel_parameters().add(
        R"([{"kernel": "scaled", "parameters": ["data"]}])");
    for (unsigned tu : memcarlo::host::detail::loads_registry().units()) {
      memcarlo::host::detail::launch_names().add(
          tu, tu == memcarlo_tu ? names : R"({"launches": [], "complete": true})");
    }
  };
  const std::string full_path = path_ + ".full.mct";
  memcarlo::host::set_runtime_options(stop_options(full_path, false));
  DeviceArray<int> data(64 * 32);
  program(data.get());
  memcarlo::host::finish_trace();
  EXPECT_EXIT(
      {
        register_launches(R"({"launches": ["scaled<1>", "scaled<2>"], "complete": true})");
        memcarlo::host::set_runtime_options(stop_options(path_, true));
        DeviceArray<int> child_data(64 * 32);
        program(child_data.get());
        std::exit(0);
      },
      ::testing::ExitedWithCode(memcarlo::tracebuf::kExitStoppedAfterTrace),
      "launch 2 of the program \\('scaled<2>'\\) ran 4 of its 64 blocks");
  const TraceReader stopped = finish();
  const TraceReader full = TraceReader::open(full_path);
  std::remove(full_path.c_str());
  ASSERT_EQ(full.launches().size(), 2u);
  ASSERT_EQ(stopped.launches().size(), 2u);
  EXPECT_EQ(stopped.launches()[1].info.kernel, "scaled<2>");
  const auto comparison = memcarlo::tracebuf::compare_traces(full, stopped, true);
  EXPECT_TRUE(comparison.equal()) << comparison.differences.front();
  EXPECT_EQ(comparison.records_compared, 8u) << "2 launches x 4 blocks of one warp, one access";

  // The children below write their own trace: a death test's child runs this test's code up to
  // its statement, the checks above on path_ included.
  const std::string other_path = path_ + ".other.mct";
  // A unit that calls cudaLaunchKernel registers that name, which the runtime gives every launch
  // through it, whatever the kernel: it is awaited too.
  EXPECT_EXIT(
      {
        register_launches(
            R"({"launches": ["cudaLaunchKernel", "scaled<1>", "scaled<2>"], "complete": true})");
        memcarlo::host::set_runtime_options(stop_options(other_path, true));
        DeviceArray<int> child_data(64 * 32);
        program(child_data.get());
        memcarlo_launch("cudaLaunchKernel", touch, 64, 32, 0, 0, child_data.get());
        std::exit(0);
      },
      ::testing::ExitedWithCode(memcarlo::tracebuf::kExitStoppedAfterTrace),
      "launch 5 of the program \\('cudaLaunchKernel'\\)");
  // A registered name that never launches (an instance of a branch not taken) keeps the program
  // running to its end, which then names the traced launches for MEMCARLO_KERNEL. Before that, at
  // the first launch that repeats a traced kernel while only launches not made keep it running, a
  // note says so: at the second scaled<1> (scaled<2> and scaled<4> not made yet), then at the
  // second scaled<2> (scaled<4> alone), and not again at the third.
  EXPECT_EXIT(
      {
        register_launches(
            R"({"launches": ["scaled<1>", "scaled<2>", "scaled<4>"], "complete": true})");
        memcarlo::host::set_runtime_options(stop_options(other_path, true));
        DeviceArray<int> child_data(64 * 32);
        program(child_data.get());
        std::exit(0);
      },
      ::testing::ExitedWithCode(0),
      "launches it registered and has not made yet: scaled<2>, scaled<4>\\. Should they never "
      "come, it runs to its end; naming the kernels to trace stops it after them: "
      "MEMCARLO_KERNEL='scaled<1>' \\(memcarlo run --kernel 'scaled<1>'\\)\n"
      "[^\n]*launches it registered and has not made yet: scaled<4>\\. [^\n]*"
      "MEMCARLO_KERNEL='scaled<1>,scaled<2>'[^\n]*\n"
      "[^\n]*which never came");
  EXPECT_EXIT(
      {
        register_launches(
            R"({"launches": ["scaled<1>", "scaled<2>", "scaled<4>"], "complete": true})");
        memcarlo::host::set_runtime_options(stop_options(other_path, true));
        DeviceArray<int> child_data(64 * 32);
        program(child_data.get());
        std::exit(0);
      },
      ::testing::ExitedWithCode(0),
      "it has launches of scaled<4>, which never came, and might have. Naming the kernels to "
      "trace stops the program after them: MEMCARLO_KERNEL='scaled<1>,scaled<2>'");
  // A unit that names a launch only at run time, or a launch (scaled<1>) under a name no unit
  // registered (code the instrumenter did not see): the registrations are not the whole program,
  // and it runs to its end as before.
  for (const char* incomplete : {R"({"launches": ["scaled<1>", "scaled<2>"], "complete": false})",
                                 R"({"launches": ["scaled<2>"], "complete": true})"}) {
    EXPECT_EXIT(
        {
          register_launches(incomplete);
          memcarlo::host::set_runtime_options(stop_options(other_path, true));
          DeviceArray<int> child_data(64 * 32);
          program(child_data.get());
          std::exit(0);
        },
        ::testing::ExitedWithCode(0), "")
        << incomplete;
  }
  std::remove(other_path.c_str());
  std::remove(memcarlo::tracebuf::stop_status_path(other_path).c_str());
}
