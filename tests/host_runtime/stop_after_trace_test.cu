// MEMCARLO_STOP_AFTER_TRACE (docs/host-runtime.md, "Stopping after the traced launches") on the
// kernels of snapshot_fixture.h: the program stops once every selected launch is traced, with the
// trace of the full run; which launches it awaits; what it says when it cannot stop.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "host_test_util.h"
#include "loads_registry.hpp"
#include "memcarlo/tracebuf/reader.hpp"
#include "memcarlo/tracebuf/stop_after_trace.hpp"
#include "memcarlo/tracebuf/trace_comparison.hpp"
#include "snapshot_fixture.h"

using host_test::DeviceArray;
using memcarlo::tracebuf::TraceReader;

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
          tu, tu == kSnapshotTu ? names : R"({"launches": [], "complete": true})");
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
      "[^\n]*it has launches of scaled<4>, which never came, and might have. Naming the kernels to "
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
