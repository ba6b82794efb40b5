// Whole programs through `memcarlo-cc --backend host` and `memcarlo run`, as a user builds and
// runs them: CUDA-samples-style programs on our stand-ins for the samples' Common headers,
// classic-benchmark-style programs (texture references, symbols named by strings, cooperative
// groups), and programs that go wrong (an out-of-bounds read, a null device pointer, a race
// within warps, a texture object, host variables named like the built-ins), each of which must be
// told.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "common/kill_at.hpp"
#include "common/run_command.hpp"
#include "memcarlo/tracebuf/reader.hpp"
#include "memcarlo/tracebuf/trace_comparison.hpp"

#include "programs_fixture.h"

class HostSamplePrograms : public ::testing::TestWithParam<const char*> {};

TEST_P(HostSamplePrograms, BuildWithTheCommonHeadersRunAndPass) {
  const std::string exe = build("samples", GetParam());
  const CommandResult result = memcarlo_run(exe);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result, "Result = PASS")) << result.output;
  EXPECT_TRUE(contains(result, "memcarlo run: wrote")) << result.output;
}

INSTANTIATE_TEST_SUITE_P(CudaSamplesStyle, HostSamplePrograms,
                         ::testing::Values("matrix_mul", "transpose", "reduction",
                                           "simple_atomic_intrinsics"));

TEST(HostProgramDiagnostics, OutOfBoundsReadNamesTheAccessAndTheRunFails) {
  const std::string exe = build("programs", "out_of_bounds");
  const CommandResult result = memcarlo_run(exe);
  EXPECT_EQ(result.exit_code, 70) << result.output;
  EXPECT_TRUE(contains(result,
                       "memcarlo host runtime: out-of-bounds global memory read in kernel "
                       "'srad_like', block (3,0,0), thread (207,0,0): J[i + cols] ("))
      << result.output;
  EXPECT_TRUE(contains(result, "out_of_bounds.cu:12:")) << result.output;
  EXPECT_TRUE(contains(result, "reads 4 bytes at 0x")) << result.output;
  EXPECT_TRUE(contains(result, "which begins 0 bytes after the end of allocation 'J' (4000 bytes"))
      << result.output;
  EXPECT_TRUE(contains(result, "exited with status 70")) << result.output;
  EXPECT_FALSE(contains(result, "done")) << result.output;
  // The advice is memcarlo run's option: it sets MEMCARLO_BOUNDS_CHECK itself, either way.
  EXPECT_TRUE(contains(result, "The run failed (--no-bounds-check turns this check off)."))
      << result.output;
  EXPECT_FALSE(contains(result, "MEMCARLO_BOUNDS_CHECK=0")) << result.output;
}

TEST(HostProgramDiagnostics, NoBoundsCheckRunsTheReadIntoThePadding) {
  const std::string exe = build("programs", "out_of_bounds");
  const CommandResult result = memcarlo_run(exe, "--no-bounds-check");
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result, "done")) << result.output;
  // The runtime's own switch, without memcarlo run: on unless MEMCARLO_BOUNDS_CHECK=0.
  EXPECT_EQ(run("MEMCARLO_BOUNDS_CHECK=0 " + exe).exit_code, 0);
  const CommandResult alone = run(exe);
  EXPECT_EQ(alone.exit_code, 70);
  EXPECT_TRUE(contains(alone, "The run failed (MEMCARLO_BOUNDS_CHECK=0 turns this check off)."))
      << alone.output;
}

TEST(HostProgramDiagnostics, NoBoundsCheckReadsTheRowBeforeTheFirstAllocationAsZeros) {
  const std::string exe = build("programs", "row_before");
  const CommandResult checked = memcarlo_run(exe);
  EXPECT_EQ(checked.exit_code, 70) << checked.output;
  EXPECT_TRUE(contains(checked, "before the start of allocation")) << checked.output;
  // Off: the read lands in the first megabyte below the device arena, which then reads as zeros,
  // instead of the guard's SIGSEGV; the run and its trace finish.
  const CommandResult unchecked = memcarlo_run(exe, "--no-bounds-check");
  EXPECT_EQ(unchecked.exit_code, 0) << unchecked.output;
  EXPECT_TRUE(contains(unchecked, "done")) << unchecked.output;
  EXPECT_TRUE(contains(unchecked, "memcarlo run: wrote")) << unchecked.output;
}

TEST(HostProgramDiagnostics, CrashInAKernelNamesKernelBlockAndThread) {
  const std::string exe = build("programs", "null_field");
  const CommandResult result = memcarlo_run(exe);
  EXPECT_EQ(result.exit_code, 128 + 11) << result.output;
  EXPECT_TRUE(contains(result,
                       "memcarlo host runtime: kernel 'scale' crashed with SIGSEGV in block "
                       "(0,0,0), thread (0,0,0): a null pointer was dereferenced"))
      << result.output;
  EXPECT_TRUE(contains(result, "was killed by signal 11")) << result.output;
  EXPECT_FALSE(contains(result, "unreachable")) << result.output;
}

TEST(HostProgramDiagnostics, RaceWithinWarpsWarns) {
  const std::string exe = build("programs", "mvt_race");
  const CommandResult result = memcarlo_run(exe);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result,
                       "warning: kernel 'mvt_kernel1': up to 8 lanes of one warp instruction "
                       "update the same address through x1[i] ("))
      << result.output;
  EXPECT_TRUE(contains(result, "mvt_race.cu:14:")) << result.output;
}

TEST(HostProgramDiagnostics, TextureObjectCompilesAndIsNamedWhenCreated) {
  const std::string exe = build("programs", "texture_object");
  const CommandResult result = memcarlo_run(exe);
  EXPECT_EQ(result.exit_code, 69) << result.output;
  EXPECT_TRUE(contains(result,
                       "texture objects (cudaCreateTextureObject) is not supported by the host "
                       "backend ("))
      << result.output;
  EXPECT_TRUE(contains(result, "texture_object.cu:29)")) << result.output;
  EXPECT_TRUE(contains(result, "ended before its first traced launch")) << result.output;
  EXPECT_FALSE(contains(result, "unreachable")) << result.output;
}

TEST(HostProgramDiagnostics, HostVariablesNamedGridDimAndBlockDim) {
  const std::string exe = build("programs", "nn_host_names");
  const CommandResult result = memcarlo_run(exe);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result, "Result = PASS")) << result.output;
}

TEST(HostClassicPrograms, KmeansStyleTextureReferenceSymbolNameAndDriverCodes) {
  // GCC warns when a cudaError_t is compared with CUDA_SUCCESS, as it does under nvcc.
  const std::string exe = build("programs", "kmeans_style", "-Xcompiler -Wno-enum-compare");
  const CommandResult result = memcarlo_run(exe);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result, "Result = PASS")) << result.output;
  // memcarlo run gives the program the clock of the hierarchy it traces for (fermi-c2050).
  EXPECT_TRUE(contains(result, "clock rate 1150000 kHz")) << result.output;
  EXPECT_TRUE(contains(result, "memcarlo run: wrote")) << result.output;
}

TEST(HostClassicPrograms, CooperativeGroupsThreadGroupsAndWideTiles) {
  const std::string exe = build("programs", "cooperative_groups_style");
  const CommandResult result = memcarlo_run(exe);
  EXPECT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result, "Result = PASS")) << result.output;
  EXPECT_TRUE(contains(result, "memcarlo run: wrote")) << result.output;
}

TEST(HostProgramTraces, TheTraceNamesTheHierarchyItsSnapshotWasSizedFor) {
  const std::string exe = build("samples", "matrix_mul");
  ASSERT_EQ(memcarlo_run(exe, "-H a100").exit_code, 0);
  const CommandResult info = run(kMemcarlo + " trace info " + exe + ".mct");
  EXPECT_TRUE(contains(info, "sized for a100 (memcarlo run -H a100)")) << info.output;
  const CommandResult simulated =
      run(kMemcarlo + " simulate " + exe + ".mct -H v100 -n 1 -o " + exe + ".json");
  EXPECT_EQ(simulated.exit_code, 0) << simulated.output;
  EXPECT_TRUE(contains(simulated, "was sized for a100")) << simulated.output;
}

// `memcarlo run` killed with SIGKILL (the whole process group) at many moments of a run that
// traces many launches: every trace file it leaves is read by `trace check --allow-truncated`,
// and some of them are truncated (the kills landed while the trace was being written).
TEST(HostProgramTraces, AKilledRunAlwaysLeavesAReadablePrefix) {
  const std::string exe = (work_dir() / "stencil2d_kill").string();
  const CommandResult built =
      run(kCc + " --backend host -std=c++17 -O1 " + std::string(MEMCARLO_SOURCE_DIR) +
          "/examples/stencil/stencil2d.cu -o " + exe);
  ASSERT_EQ(built.exit_code, 0) << built.output;
  const std::string arguments = " -- " + exe + " --width 512 --height 256 --steps 24";
  const std::string reference = exe + ".whole.mct";
  const auto started = std::chrono::steady_clock::now();
  const CommandResult whole = run(kMemcarlo + " run --trace " + reference + arguments);
  ASSERT_EQ(whole.exit_code, 0) << whole.output;
  const auto full_time = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - started);

  int left = 0;
  int truncated = 0;
  constexpr int kKills = 16;
  for (int k = 0; k < kKills; ++k) {
    const std::string trace = exe + ".killed-" + std::to_string(k) + ".mct";
    std::filesystem::remove(trace);
    // Spread over the run, with a little jitter so that kills do not line up with launches.
    const auto delay =
        std::chrono::milliseconds(full_time.count() * (2 * k + 1) / (2 * kKills) + (k * 7) % 5);
    const auto result = memcarlo::test_support::run_and_kill_after(
        kMemcarlo + " run --trace " + trace + arguments, delay);
    ASSERT_TRUE(result.started);
    if (!std::filesystem::exists(trace)) {
      continue;  // killed before the program traced anything
    }
    ++left;
    const CommandResult checked = run(kMemcarlo + " trace check --allow-truncated " + trace);
    EXPECT_EQ(checked.exit_code, 0) << "kill " << k << " after " << delay.count() << " ms of "
                                    << full_time.count() << ": " << checked.output;
    truncated += run(kMemcarlo + " trace check " + trace).exit_code != 0 ? 1 : 0;
  }
  EXPECT_GE(left, kKills / 2);
  EXPECT_GT(truncated, 0);
}

TEST(HostProgramTraces, LaunchesRecordTheirScalarAndPointerArgumentsByParameterName) {
  const std::string exe = build("programs", "kernel_arguments");
  const CommandResult result = memcarlo_run(exe);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  // The program prints its two device pointers: the records must hold the same addresses.
  void* matrix = nullptr;
  void* sums = nullptr;
  const std::size_t at = result.output.find("matrix ");
  ASSERT_NE(at, std::string::npos) << result.output;
  ASSERT_EQ(std::sscanf(result.output.c_str() + at, "matrix %p sums %p", &matrix, &sums), 2)
      << result.output;
  const auto reader = memcarlo::tracebuf::TraceReader::open(exe + ".mct");
  // row_sums, scale<3>, scale<2> and scale<Factor> (from scale_all<4>; scale_all<5>'s launch has
  // the same name), each at its first launch.
  ASSERT_EQ(reader.launches().size(), 4u);
  std::map<std::uint64_t, nlohmann::json> payloads;
  for (const nlohmann::json& record : nlohmann::json::parse(reader.annotations_json())) {
    if (record["kind"] == "kernel_arguments") {
      payloads[record["launch"].get<std::uint64_t>()] = record["payload"];
    }
  }
  ASSERT_EQ(payloads.size(), 4u) << reader.annotations_json();
  EXPECT_EQ(payloads[0]["rows"], 96);
  EXPECT_EQ(payloads[0]["cols"], 40);
  EXPECT_EQ(payloads[0]["matrix"].get<std::uint64_t>(), reinterpret_cast<std::uintptr_t>(matrix));
  EXPECT_EQ(payloads[0]["sums"].get<std::uint64_t>(), reinterpret_cast<std::uintptr_t>(sums));
  EXPECT_EQ(payloads[1]["count"], 96);  // scale<3>: the template's parameter names
  EXPECT_EQ(payloads[1]["data"].get<std::uint64_t>(), reinterpret_cast<std::uintptr_t>(sums));
  EXPECT_EQ(payloads[3]["count"], 96);  // scale<Factor>, launched from scale_all<4>

  // The instrumenter registers the name of every launch the program can run, template instances
  // by the name they are launched under: --stop-after-trace ends the program after the first
  // launch of the last of them (launch 4 of the program, scale<Factor>), not held back by the
  // launch in a template never instantiated, and writes the trace of the full run.
  EXPECT_TRUE(contains(result, "done")) << result.output;
  const CommandResult stopped =
      run(kMemcarlo + " run --stop-after-trace --trace " + exe + ".stopped.mct -- " + exe);
  ASSERT_EQ(stopped.exit_code, 0) << stopped.output;
  EXPECT_TRUE(contains(stopped, "launch 4 of the program ('scale<Factor>')")) << stopped.output;
  EXPECT_FALSE(contains(stopped, "done")) << stopped.output;
  const auto comparison = memcarlo::tracebuf::compare_traces(
      reader, memcarlo::tracebuf::TraceReader::open(exe + ".stopped.mct"), true);
  EXPECT_TRUE(comparison.equal()) << comparison.differences.front();
  EXPECT_EQ(comparison.records_compared, reader.total_records());
  EXPECT_GT(comparison.records_compared, 0u);
}


// Today's CUDA that stopped programs nvcc builds as they are: reduced-precision types, a
// value-returning operator[], `register`, comments inside launches.
TEST(HostModernPrograms, HalfBfloat16AndFp8TypesComputeAndTraceTheirWidths) {
  const std::string exe = build("programs", "reduced_precision");
  const CommandResult result = memcarlo_run(exe);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result, "Result = PASS")) << result.output;
  const auto sizes = traced_sizes(exe + ".mct");
  using Sizes = std::set<std::uint32_t>;
  EXPECT_EQ(sizes.at("x[i]"), Sizes{2});  // __half
  EXPECT_EQ(sizes.at("y[i]"), Sizes{2});
  EXPECT_EQ(sizes.at("u[i]"), Sizes{4});  // __half2
  EXPECT_EQ(sizes.at("v[i]"), Sizes{4});
  EXPECT_EQ(sizes.at("source[i]"), Sizes{2});  // __nv_bfloat16
  EXPECT_EQ(sizes.at("scaled[i]"), Sizes{2});
  EXPECT_EQ(sizes.at("packed[i]"), Sizes{1});  // __nv_fp8_e4m3, written and read
  EXPECT_EQ(sizes.at("in[i]"), Sizes{4});      // float
}

TEST(HostModernPrograms, ConstSubscriptOperatorReturningAValue) {
  const std::string exe = build("programs", "value_subscript");
  const CommandResult result = memcarlo_run(exe);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result, "Result = PASS")) << result.output;
  // The points are read through the member array that operator- and operator[] read: 4 bytes.
  const auto sizes = traced_sizes(exe + ".mct");
  ASSERT_TRUE(sizes.count("x_[0]")) << "no traced read of the member array";
  EXPECT_EQ(sizes.at("x_[0]"), std::set<std::uint32_t>{4});
  EXPECT_EQ(sizes.count("r[0]"), 0u);
}

TEST(HostModernPrograms, RegisterStorageClassInDeviceCode) {
  const std::string exe = build("programs", "register_keyword");
  const CommandResult result = memcarlo_run(exe);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result, "Result = PASS")) << result.output;
  EXPECT_EQ(traced_sizes(exe + ".mct").at("matrix[row * cols + j]"), std::set<std::uint32_t>{4});
}

TEST(HostModernPrograms, LineCommentsInsideLaunches) {
  const std::string exe = build("programs", "launch_comments");
  const CommandResult result = memcarlo_run(exe);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result, "Result = PASS")) << result.output;
  EXPECT_EQ(traced_sizes(exe + ".mct").at("data[i]"), std::set<std::uint32_t>{4});
}

// What the CUDA samples use and the host backend once refused (sample_idioms.cu checks each
// result): a kernel's default arguments, volatile pointers, tile shuffles of values wider than 8
// bytes, stream-ordered allocation and memory pools, host-register flags and L2 persistence. The
// launch that leaves out an argument is traced under its kernel's name, and the volatile store is
// traced as any other.
TEST(HostModernPrograms, DefaultArgumentsVolatileWideShufflesAndStreamOrderedAllocation) {
  const std::string exe = build("programs", "sample_idioms");
  const CommandResult result = memcarlo_run(exe);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result, "Result = PASS")) << result.output;
  EXPECT_FALSE(contains(result, "FAILED")) << result.output;
  const CommandResult info = run(kMemcarlo + " trace info " + exe + ".mct");
  EXPECT_TRUE(contains(info, "] add_step grid (2,1,1)")) << info.output;
  EXPECT_TRUE(contains(info, "] scale<float> grid (1,1,1)")) << info.output;
  const auto sizes = traced_sizes(exe + ".mct");
  ASSERT_TRUE(sizes.count("out[blockIdx.x]")) << info.output;
  EXPECT_EQ(sizes.at("out[blockIdx.x]"), std::set<std::uint32_t>{4});
  EXPECT_EQ(sizes.at("data[i]"), std::set<std::uint32_t>{4});
}

// A kernel that touches only mapped host memory and shared memory runs; its launch is traced
// with no record, and `memcarlo run` says which memory memcarlo keeps and which it does not.
TEST(HostModernPrograms, ZeroCopyKernelsRunAndTheEmptyTraceSaysWhatIsNotTraced) {
  const std::string exe = build("programs", "zero_copy");
  const CommandResult result = memcarlo_run(exe);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result, "Result = PASS")) << result.output;
  EXPECT_TRUE(contains(result, "made no global-memory access that was probed (memcarlo keeps "
                               "accesses to cudaMalloc'ed and managed memory;"))
      << result.output;
  EXPECT_TRUE(contains(result, "host memory read through mapped pointers are not traced"))
      << result.output;
}


// A cooperative launch (cudaLaunchCooperativeKernel) whose blocks synchronize the whole grid
// twice (grid_sync.cu checks the sums, the grid group's shape and the refusal of a grid larger
// than the device holds). Every block is traced across the grid barriers: block 0's thread 0
// reads the 6 partial sums after the first, every thread writes its element after the second.
// grid.sync() outside a cooperative launch, and a block that ends before the others' grid.sync(),
// end the program naming why.
TEST(HostModernPrograms, CooperativeLaunchesSynchronizeTheWholeGrid) {
  const std::string exe = build("programs", "grid_sync");
  const CommandResult result = memcarlo_run(exe);
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_TRUE(contains(result, "Result = PASS")) << result.output;
  EXPECT_FALSE(contains(result, "FAILED")) << result.output;
  const auto addresses = traced_addresses(exe + ".mct");
  ASSERT_TRUE(addresses.count("partial[b]"));
  EXPECT_EQ(addresses.at("partial[b]").size(), 6u);  // one lane, one record per block's sum
  std::set<std::uint64_t> written;
  for (const auto& lanes : addresses.at("out[i]")) written.insert(lanes.begin(), lanes.end());
  EXPECT_EQ(written.size(), 6u * 128 - 40);
  const CommandResult plain = run(exe + " plain");
  EXPECT_EQ(plain.exit_code, 70) << plain.output;
  EXPECT_TRUE(contains(plain, "grid_sync.cu:41 in kernel 'plain_sync', which was not launched "
                              "with cudaLaunchCooperativeKernel"))
      << plain.output;
  const CommandResult early = run(exe + " early");
  EXPECT_EQ(early.exit_code, 70) << early.output;
  EXPECT_TRUE(contains(early, "2 of its 3 blocks wait at grid.sync() while 1 ended without "
                              "reaching it (the first, block 1)"))
      << early.output;
}
