// From a .cu file to a report, on the bundled examples: each example builds with
// `memcarlo-cc --backend host`, runs on the CPU and passes its own check, and `memcarlo run`
// writes a trace whose lane and warp-instruction counts per static access are what the algorithm
// implies. Then the SpMV case study of the paper (§6.2) through `memcarlo profile` and
// `memcarlo simulate`: indices[j] and val[j] slower than y[ind], and faster when vectorized.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/run_command.hpp"
#include "memcarlo/tracebuf/reader.hpp"
#include "memcarlo/tracebuf/trace_comparison.hpp"
#include "spmv/spmv_problem.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kBinaryDir = MEMCARLO_BINARY_DIR;
const std::string kMemcarlo = kBinaryDir + "/cli/memcarlo";
const std::string kCc = kBinaryDir + "/cli/memcarlo-cc";
const std::string kExamples = std::string(MEMCARLO_SOURCE_DIR) + "/examples";

using memcarlo::test_support::CommandResult;

/// `command`, standard error with standard output.
CommandResult run(const std::string& command) {
  return memcarlo::test_support::run_command(command + " 2>&1");
}

fs::path work_dir() {
  const fs::path dir = fs::temp_directory_path() / ("memcarlo-e2e-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

/// Builds examples/<source> with memcarlo-cc for the host backend; the build must instrument the
/// file (memcarlo-cc falls back to the original source with a warning when it cannot).
std::string build(const std::string& source) {
  const std::string exe = (work_dir() / fs::path(source).stem()).string();
  const CommandResult r =
      run(kCc + " --backend host -std=c++17 -O2 " + kExamples + "/" + source + " -o " + exe);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("warning"), std::string::npos) << r.output;
  return exe;
}

/// Per static access of one traced launch: active lanes summed over its records, and records.
struct Counts {
  std::uint64_t lanes = 0;
  std::uint64_t records = 0;
};

struct TracedLaunch {
  memcarlo::tracebuf::LaunchInfo info;
  std::map<std::string, Counts> by_expression;  // all kinds together
  std::map<std::pair<std::string, memcarlo::tracebuf::AccessKind>, Counts> by_kind;
};

/// Runs `exe args` under `memcarlo run` and reads back the trace, launch by launch.
std::vector<TracedLaunch> trace(const std::string& exe, const std::string& args,
                                const std::string& expected_output) {
  const std::string path = exe + ".mct";
  const CommandResult r = run(kMemcarlo + " run -H fermi-c2050 --trace " + path + " -- " + exe + " " +
                       args);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(expected_output), std::string::npos) << r.output;
  const CommandResult check = run(kMemcarlo + " trace check " + path);
  EXPECT_EQ(check.exit_code, 0) << check.output;

  const auto reader = memcarlo::tracebuf::TraceReader::open(path);
  std::vector<TracedLaunch> out;
  for (const auto& launch : reader.launches()) {
    TracedLaunch traced{launch.info, {}, {}};
    for (const auto& warp : launch.warps) {
      warp.for_each([&](const memcarlo::tracebuf::RecordView& record) {
        const std::string& expression = reader.loads().at(record.static_id()).expression;
        for (Counts* c : {&traced.by_expression[expression],
                          &traced.by_kind[{expression, record.kind()}]}) {
          c->lanes += record.active_lanes();
          c->records += 1;
        }
      });
    }
    out.push_back(std::move(traced));
  }
  return out;
}

/// The snapshot must cover the whole grid for the counts below to be whole-kernel counts.
void expect_whole_grid(const TracedLaunch& launch) {
  EXPECT_EQ(launch.info.snapshot_first_block, 0u);
  EXPECT_EQ(launch.info.snapshot_block_count, launch.info.grid.volume()) << launch.info.kernel;
}

std::uint64_t lanes(const TracedLaunch& launch, const std::string& expression) {
  const auto found = launch.by_expression.find(expression);
  return found == launch.by_expression.end() ? 0 : found->second.lanes;
}

std::uint64_t lanes(const TracedLaunch& launch, const std::string& expression,
                    memcarlo::tracebuf::AccessKind kind) {
  const auto found = launch.by_kind.find({expression, kind});
  return found == launch.by_kind.end() ? 0 : found->second.lanes;
}

std::string expressions(const TracedLaunch& launch) {
  std::string list;
  for (const auto& [expression, counts] : launch.by_expression) {
    list += expression + " (" + std::to_string(counts.lanes) + " lanes); ";
  }
  return list;
}

TEST(Examples, SpmvScalarTraceHasOneYLoadPerNonZeroOfEverySnapshotRow) {
  const std::string exe = build("spmv/spmv_scalar.cu");
  constexpr unsigned kRows = 4096;
  const auto launches = trace(exe, "--matrix u --rows 4096", "spmv_scalar: OK");
  ASSERT_EQ(launches.size(), 1u);
  const TracedLaunch& launch = launches[0];
  const spmv::CsrMatrix matrix = spmv::generate_matrix(spmv::matrix_kind_from_letter('u'), kRows, 1);

  // Rows of the snapshot blocks (256 threads per block, one row per thread).
  const std::uint64_t first_row = launch.info.snapshot_first_block * 256;
  const std::uint64_t end_row =
      std::min<std::uint64_t>(kRows, (launch.info.snapshot_first_block +
                                      launch.info.snapshot_block_count) * 256);
  ASSERT_GT(end_row, first_row);
  std::uint64_t nonzeros = 0;
  std::uint64_t warp_iterations = 0;  // the k-th iteration of a warp's lanes is one instruction
  for (std::uint64_t warp_row = first_row; warp_row < end_row; warp_row += 32) {
    std::uint64_t longest = 0;
    for (std::uint64_t row = warp_row; row < std::min(end_row, warp_row + 32); ++row) {
      const std::uint64_t length = matrix.rowIndices[row + 1] - matrix.rowIndices[row];
      nonzeros += length;
      longest = std::max(longest, length);
    }
    warp_iterations += longest;
  }
  const auto& e = launch.by_expression;
  ASSERT_TRUE(e.count("y[ind]")) << expressions(launch);
  for (const char* per_nonzero : {"indices[j]", "y[ind]", "val[j]"}) {
    ASSERT_TRUE(e.count(per_nonzero)) << per_nonzero << ": " << expressions(launch);
    EXPECT_EQ(e.at(per_nonzero).lanes, nonzeros) << per_nonzero;
    EXPECT_EQ(e.at(per_nonzero).records, warp_iterations) << per_nonzero;
  }
  for (const char* per_row : {"rowIndices[myi]", "rowIndices[myi + 1]", "x[myi]"}) {
    ASSERT_TRUE(e.count(per_row)) << per_row << ": " << expressions(launch);
    EXPECT_EQ(e.at(per_row).lanes, end_row - first_row) << per_row;
    EXPECT_EQ(e.at(per_row).records, (end_row - first_row) / 32) << per_row;
  }
}

TEST(Examples, SpmvVectorReadsEveryNonZeroOnceAndTracesAQuarterAsManyVectorLoads) {
  const std::string exe = build("spmv/spmv_vector.cu");
  const auto launches = trace(exe, "--matrix b --rows 1024", "spmv_vector: OK");
  ASSERT_EQ(launches.size(), 1u);
  const TracedLaunch& launch = launches[0];
  expect_whole_grid(launch);
  const spmv::CsrMatrix matrix = spmv::generate_matrix(spmv::matrix_kind_from_letter('b'), 1024, 1);
  const std::uint64_t nonzeros = matrix.indices.size();
  // Every non-zero's column is read once as a scalar or as one of the four lanes of a vector load;
  // y is read once per non-zero whatever the path.
  std::uint64_t scalar_index = 0;
  std::uint64_t vector_index = 0;
  std::uint64_t y_reads = 0;
  for (const auto& [expression, counts] : launch.by_expression) {
    if (expression.rfind("indices4[", 0) == 0) {
      vector_index += counts.lanes;
    } else if (expression.rfind("indices[", 0) == 0) {
      scalar_index += counts.lanes;
    } else if (expression.rfind("y[", 0) == 0) {
      y_reads += counts.lanes;
    }
  }
  EXPECT_EQ(scalar_index + 4 * vector_index, nonzeros) << expressions(launch);
  EXPECT_EQ(y_reads, nonzeros) << expressions(launch);
  EXPECT_GT(vector_index, scalar_index);  // rows of ~32 non-zeros: mostly whole groups of four
}

TEST(Examples, MatmulNaiveReadsARowAndAColumnPerElement) {
  const std::string exe = build("matmul/matmul_naive.cu");
  const auto launches = trace(exe, "--m 64 --n 48 --k 32", "matmul_naive: OK");
  ASSERT_EQ(launches.size(), 1u);
  expect_whole_grid(launches[0]);
  EXPECT_EQ(lanes(launches[0], "a[row * k + i]"), 64u * 48 * 32) << expressions(launches[0]);
  EXPECT_EQ(lanes(launches[0], "b[i * n + col]"), 64u * 48 * 32);
  EXPECT_EQ(lanes(launches[0], "c[row * n + col]"), 64u * 48);
}

TEST(Examples, MatmulTiledStagesEachElementOncePerTile) {
  const std::string exe = build("matmul/matmul_tiled.cu");
  const auto launches = trace(exe, "--m 64 --n 48 --k 32", "matmul_tiled: OK");
  ASSERT_EQ(launches.size(), 1u);
  expect_whole_grid(launches[0]);
  // Every thread stages one element of A and one of B per 16-wide tile (sizes are multiples of
  // 16, so no thread stages a zero instead); the shared tiles are not traced.
  EXPECT_EQ(lanes(launches[0], "a[row * k + a_col]"), 64u * 48 * (32 / 16))
      << expressions(launches[0]);
  EXPECT_EQ(lanes(launches[0], "b[b_row * n + col]"), 64u * 48 * (32 / 16));
  EXPECT_EQ(lanes(launches[0], "c[row * n + col]"), 64u * 48);
  EXPECT_EQ(launches[0].by_expression.size(), 3u) << expressions(launches[0]);
}

TEST(Examples, StencilTracesFiveReadsAndOneWritePerInteriorCellOfTheFirstStep) {
  const std::string exe = build("stencil/stencil2d.cu");
  const auto launches = trace(exe, "--width 64 --height 40 --steps 3", "stencil2d: OK");
  ASSERT_EQ(launches.size(), 1u);  // the first launch of each kernel, by default
  expect_whole_grid(launches[0]);
  const std::uint64_t interior = 62u * 38;
  for (const char* read : {"in[center]", "in[center - width]", "in[center + width]",
                           "in[center - 1]", "in[center + 1]", "out[center]"}) {
    EXPECT_EQ(lanes(launches[0], read), interior) << read << ": " << expressions(launches[0]);
  }
  EXPECT_EQ(launches[0].by_expression.size(), 6u);  // the __constant__ weights are not traced
}

TEST(Examples, Laplace3dTracesSixNeighboursPerInteriorPoint) {
  const std::string exe = build("laplace3d/laplace3d.cu");
  const auto launches = trace(exe, "--nx 32 --ny 12 --nz 6 --iterations 2", "laplace3d: OK");
  ASSERT_EQ(launches.size(), 1u);
  expect_whole_grid(launches[0]);
  const std::uint64_t interior = 30u * 10 * 4;
  for (const char* access : {"u[point - 1]", "u[point + 1]", "u[point - row]", "u[point + row]",
                             "u[point - plane]", "u[point + plane]", "u_next[point]"}) {
    EXPECT_EQ(lanes(launches[0], access), interior) << access << ": " << expressions(launches[0]);
  }
}

TEST(Examples, TransposeNaiveAndTiledMoveEveryElementOnce) {
  for (const char* name : {"transpose_naive", "transpose_tiled"}) {
    const std::string exe = build(std::string("transpose/") + name + ".cu");
    const auto launches = trace(exe, "--rows 64 --cols 96", std::string(name) + ": OK");
    ASSERT_EQ(launches.size(), 1u) << name;
    expect_whole_grid(launches[0]);
    std::uint64_t reads = 0;
    std::uint64_t writes = 0;
    for (const auto& [expression, counts] : launches[0].by_expression) {
      (expression.rfind("in[", 0) == 0 ? reads : writes) += counts.lanes;
    }
    EXPECT_EQ(reads, 64u * 96) << name << ": " << expressions(launches[0]);
    EXPECT_EQ(writes, 64u * 96) << name;
  }
}

TEST(Examples, ReductionReadsEveryValueOnceInTheFirstPass) {
  const std::string exe = build("reduction/reduction_shfl.cu");
  const auto launches = trace(exe, "--values 50000 --blocks 24", "reduction_shfl: OK");
  ASSERT_EQ(launches.size(), 1u);  // the second pass is another launch of the same kernel
  expect_whole_grid(launches[0]);
  EXPECT_EQ(lanes(launches[0], "input[i]"), 50000u) << expressions(launches[0]);
  EXPECT_EQ(lanes(launches[0], "block_sums[blockIdx.x]"), 24u);
  EXPECT_EQ(launches[0].by_expression.size(), 2u);  // the extern __shared__ sums are not traced
}

TEST(Examples, HistogramCountsEveryValueWithOneGlobalAtomicOrOneSharedAtomic) {
  const std::string exe = build("histogram/histogram.cu");
  const auto launches = trace(exe, "--values 40000 --bins 64", "histogram: OK");
  ASSERT_EQ(launches.size(), 2u);  // one launch of each kernel
  for (const TracedLaunch& launch : launches) {
    expect_whole_grid(launch);
    EXPECT_EQ(lanes(launch, "values[i]"), 40000u) << launch.info.kernel << ": "
                                                 << expressions(launch);
  }
  const TracedLaunch& global = launches[0];
  const TracedLaunch& shared = launches[1];
  EXPECT_EQ(global.info.kernel, "histogram_global_atomics");
  EXPECT_EQ(lanes(global, "bins[values[i]]"), 40000u) << expressions(global);
  // The shared-memory kernel merges at most one atomic per bin per block into global memory.
  const std::uint64_t merges = lanes(shared, "bins[bin]");
  EXPECT_GT(merges, 0u) << expressions(shared);
  EXPECT_LE(merges, 64u * shared.info.grid.volume());
}

TEST(Examples, BfsFirstLevelVisitsTheNeighboursOfTheSource) {
  const std::string exe = build("bfs/bfs_csr.cu");
  const auto launches = trace(exe, "--vertices 3000 --degree 6", "bfs_csr: OK");
  ASSERT_EQ(launches.size(), 1u);
  const TracedLaunch& level = launches[0];
  expect_whole_grid(level);
  using memcarlo::tracebuf::AccessKind;
  // Every thread of a vertex reads its level (the 72 threads past the last vertex do not).
  EXPECT_EQ(lanes(level, "levels[vertex]", AccessKind::kRead), 3000u) << expressions(level);
  // Every vertex but the source (level 0) looks at its edges.
  EXPECT_EQ(lanes(level, "row_offsets[vertex]"), 2999u);
  EXPECT_EQ(lanes(level, "row_offsets[vertex + 1]"), 2999u);
  EXPECT_EQ(lanes(level, "column_indices[edge]"), lanes(level, "frontier[column_indices[edge]]"));
  // The vertices reached in level 1 each write their level and flag and count themselves once.
  const std::uint64_t reached = lanes(level, "next_frontier[vertex]", AccessKind::kWrite);
  EXPECT_GT(reached, 0u);
  EXPECT_EQ(lanes(level, "levels[vertex]", AccessKind::kWrite), reached);
  EXPECT_EQ(lanes(level, "next_frontier_size", AccessKind::kAtomic), reached);
}

// --- How runs that go wrong are reported -----------------------------------------------------

/// Builds tests/end_to_end/programs/<name>.cu for the host backend and runs it under memcarlo run.
CommandResult run_program(const std::string& name, const std::string& trace_path,
                          const std::string& run_options = "") {
  const std::string exe = (work_dir() / name).string();
  const CommandResult built = run(kCc + " --backend host -std=c++17 " + std::string(MEMCARLO_SOURCE_DIR) +
                           "/tests/end_to_end/programs/" + name + ".cu -o " + exe);
  EXPECT_EQ(built.exit_code, 0) << built.output;
  return run(kMemcarlo + " run " + run_options + " --trace " + trace_path + " -- " + exe);
}

TEST(RunDiagnostics, TheProgramSeesTheDeviceOfTheHierarchyItIsTracedFor) {
  const CommandResult h100 =
      run_program("device_properties", (work_dir() / "props-h100.mct").string(), "-H h100");
  ASSERT_EQ(h100.exit_code, 0) << h100.output;
  EXPECT_NE(h100.output.find("sms 132 l2 52428800 clock 1755000"), std::string::npos)
      << h100.output;
  const CommandResult fermi =
      run_program("device_properties", (work_dir() / "props-fermi.mct").string());
  ASSERT_EQ(fermi.exit_code, 0) << fermi.output;
  EXPECT_NE(fermi.output.find("sms 14 l2 786432 clock 1150000"), std::string::npos)
      << fermi.output;
}

TEST(RunDiagnostics, CrashIsReportedAndLeavesTheTracePrefixTraceCheckAccepts) {
  const std::string trace = (work_dir() / "crash.mct").string();
  const CommandResult r = run_program("crashes", trace);
  EXPECT_EQ(r.exit_code, 128 + 11) << r.output;  // the program's own fate, passed on
  EXPECT_NE(r.output.find("launched"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("was killed by signal 11"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the trace is truncated"), std::string::npos) << r.output;
  EXPECT_NE(run(kMemcarlo + " trace check " + trace).exit_code, 0);
  const CommandResult check = run(kMemcarlo + " trace check --allow-truncated " + trace);
  EXPECT_EQ(check.exit_code, 0) << check.output;
  const auto reader = memcarlo::tracebuf::TraceReader::open(trace, {.allow_truncated = true});
  EXPECT_FALSE(reader.complete());
  EXPECT_EQ(reader.total_records(), 1u);  // the one warp of fill<<<1, 32>>>
}

TEST(RunDiagnostics, ProgramThatNeverLaunchesAKernelIsNamed) {
  const std::string trace = (work_dir() / "no-launch.mct").string();
  const CommandResult r = run_program("no_launch", trace);
  EXPECT_NE(r.output.find("launched no kernel: the trace has no launches"), std::string::npos)
      << r.output;
  const auto reader = memcarlo::tracebuf::TraceReader::open(trace);
  EXPECT_TRUE(reader.complete());
  EXPECT_TRUE(reader.launches().empty());
  EXPECT_EQ(reader.loads().size(), 1u);  // the never-called kernel's store is in the loads table
}

TEST(RunDiagnostics, UnsupportedConstructNamesItAndTheSourceLine) {
  const CommandResult r = run_program("texture", (work_dir() / "texture.mct").string());
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("tex1Dfetch"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("is not supported by the host backend"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("texture.cu:7"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("unreachable"), std::string::npos) << r.output;
}

TEST(RunDiagnostics, CudaLibrariesAreRefusedByTheHostBackendWithAReason) {
  const std::string exe = (work_dir() / "cublas").string();
  const CommandResult built = run(kCc + " --backend host " + std::string(MEMCARLO_SOURCE_DIR) +
                           "/tests/end_to_end/programs/cublas.cu -o " + exe);
  EXPECT_NE(built.exit_code, 0) << built.output;
  EXPECT_NE(built.output.find("cublas.cu"), std::string::npos) << built.output;
  // With a toolkit the instrumenter parses it and the host compile stops on <cublas_v2.h>.
  if (built.output.find("could not compile the instrumented") != std::string::npos) {
    EXPECT_NE(built.output.find("not the other CUDA libraries (cuBLAS"), std::string::npos)
        << built.output;
  }
  EXPECT_NE(built.output.find("--backend cuda"), std::string::npos) << built.output;
  EXPECT_FALSE(fs::exists(exe));
}

// --- The SpMV case study (paper §6.2) ---------------------------------------------------------

/// A report's expected latency (X) per static load, summed by expression: requests (warp
/// instructions) and requests x X, so that loads that repeat an expression add up.
struct LoadLatency {
  double requests = 0;
  double cycles = 0;  // requests x mean X
  [[nodiscard]] double per_request() const { return cycles / requests; }
};

std::map<std::string, LoadLatency> latencies(const json& report) {
  std::map<std::string, LoadLatency> out;
  for (const json& load : report.at("loads")) {
    if (load.at("latency_cycles").is_object()) {
      LoadLatency& l = out[load.at("expression").get<std::string>()];
      const double requests = load.at("requests").get<double>();
      l.requests += requests;
      l.cycles += requests * load["latency_cycles"]["mean"].get<double>();
    }
  }
  return out;
}

/// Sum over the expressions that start with one of `prefixes`.
LoadLatency total(const std::map<std::string, LoadLatency>& loads,
                  std::initializer_list<const char*> prefixes) {
  LoadLatency sum;
  for (const auto& [expression, latency] : loads) {
    for (const char* prefix : prefixes) {
      if (expression.rfind(prefix, 0) == 0) {
        sum.requests += latency.requests;
        sum.cycles += latency.cycles;
      }
    }
  }
  return sum;
}

json read_json(const fs::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

TEST(SpmvCaseStudy, ProfileOfTheScalarKernelFindsIndicesAndValuesSlowerThanY) {
  // One command from the .cu file to the report, as in the README.
  const fs::path report = work_dir() / "profile.json";
  const fs::path kept = work_dir() / "profile-work";
  const CommandResult r =
      run(kMemcarlo + " profile " + kExamples + "/spmv/spmv_scalar.cu -n 8 -q -o " +
          report.string() + " --work-dir " + kept.string() + " -- --matrix u");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // By default the program stops once its one kernel's launch is traced: that launch runs only
  // its snapshot's blocks, and the program's own check does not run.
  EXPECT_NE(r.output.find("stopped after the traced launches"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("spmv_scalar: OK"), std::string::npos) << r.output;
  const std::string trace = (kept / "spmv_scalar.mct").string();
  const auto stopped = memcarlo::tracebuf::TraceReader::open(trace);
  ASSERT_EQ(stopped.launches().size(), 1u);
  const auto& info = stopped.launches()[0].info;
  const std::uint64_t blocks = info.grid.volume();
  const json emulation = read_json(report).at("inputs").at("emulation");
  EXPECT_EQ(emulation.at("stopped_after_trace"), true);
  EXPECT_EQ(emulation.at("program_checks_ran"), false);
  // The launch ran partly when its grid is larger than its snapshot.
  ASSERT_EQ(emulation.at("partial_launches").size(), info.snapshot_block_count < blocks ? 1u : 0u);
  // A smaller snapshot (one SM, factor 1) leaves most of the grid out: memcarlo run says so.
  const std::string small = (kept / "small.mct").string();
  const CommandResult partly =
      run(kMemcarlo + " run --stop-after-trace --set sm.count=1 --snapshot-factor 1 -t " + small +
          " -- " + (kept / "spmv_scalar").string() + " --matrix u");
  ASSERT_EQ(partly.exit_code, 0) << partly.output;
  const auto small_info = memcarlo::tracebuf::TraceReader::open(small).launches().at(0).info;
  ASSERT_LT(small_info.snapshot_block_count, blocks);
  EXPECT_NE(partly.output.find("traced launch 0 ('spmv_csr_scalar') ran only its " +
                               std::to_string(small_info.snapshot_block_count) +
                               " snapshot blocks of " + std::to_string(blocks)),
            std::string::npos)
      << partly.output;
  // The program run to its end writes the same trace, and its check passes.
  const std::string full = (kept / "full.mct").string();
  const CommandResult ran =
      run(kMemcarlo + " run -t " + full + " -- " + (kept / "spmv_scalar").string() + " --matrix u");
  ASSERT_EQ(ran.exit_code, 0) << ran.output;
  EXPECT_NE(ran.output.find("spmv_scalar: OK"), std::string::npos) << ran.output;
  const auto comparison = memcarlo::tracebuf::compare_traces(
      memcarlo::tracebuf::TraceReader::open(full), stopped, true);
  EXPECT_TRUE(comparison.equal()) << comparison.differences.front();
  EXPECT_EQ(comparison.records_compared, stopped.total_records());
  const auto x = latencies(read_json(report));
  ASSERT_TRUE(x.count("indices[j]") && x.count("val[j]") && x.count("y[ind]")) << r.output;
  EXPECT_GT(x.at("indices[j]").per_request(), x.at("y[ind]").per_request());
  EXPECT_GT(x.at("val[j]").per_request(), x.at("y[ind]").per_request());
  // profile writes the HTML page beside the report, named after it (two programs profiled into
  // one folder keep their pages apart).
  EXPECT_FALSE(fs::exists(report.parent_path() / "report.html")) << r.output;
  std::ifstream page(report.parent_path() / "profile.html");
  const std::string html((std::istreambuf_iterator<char>(page)), std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("id=\"report-data\""), std::string::npos) << r.output;
}

// A block that fits no SM of the hierarchy (here an SM of 1024 registers): simulate refuses the
// trace, and profile says how to profile it instead (the whole command again, with -H), keeping
// the program and its trace.
TEST(SpmvCaseStudy, ProfileOfABlockThatFitsNoSmSaysToProfileWithAnotherHierarchy) {
  const CommandResult r =
      run(kMemcarlo + " profile " + kExamples + "/spmv/spmv_scalar.cu --set sm.registers=1024 " +
          "-n 2 -q -o " + (work_dir() / "no-fit.json").string() + " -- --matrix u");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("does not fit on one SM of hierarchy fermi-c2050"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("To profile it, give memcarlo profile such a hierarchy: memcarlo "
                          "profile -H PRESET " +
                          kExamples + "/spmv/spmv_scalar.cu (the program and its trace are "
                                      "kept in "),
            std::string::npos)
      << r.output;
  // The kept folder is the test's to remove.
  const std::size_t at = r.output.find("kept in ");
  if (at != std::string::npos) {
    const std::size_t end = r.output.find(';', at);
    const fs::path folder = r.output.substr(at + 8, end - at - 8);
    EXPECT_TRUE(fs::exists(folder / "spmv_scalar.mct")) << folder;
    fs::remove_all(folder);
  }
}

TEST(SpmvCaseStudy, AllFourMatricesScalarVersusVectorized) {
  const std::string scalar = build("spmv/spmv_scalar.cu");
  const std::string vector = build("spmv/spmv_vector.cu");
  const auto simulate = [](const std::string& exe, char matrix) {
    const std::string trace = exe + "-" + matrix + ".mct";
    const std::string report = trace + ".json";
    const CommandResult traced = run(kMemcarlo + " run -H fermi-c2050 --trace " + trace + " -- " + exe +
                              " --matrix " + matrix);
    EXPECT_EQ(traced.exit_code, 0) << traced.output;
    const CommandResult simulated =
        run(kMemcarlo + " simulate " + trace + " -H fermi-c2050 -n 8 -q -o " + report);
    EXPECT_EQ(simulated.exit_code, 0) << simulated.output;
    return latencies(read_json(report));
  };
  for (const char matrix : {'u', 'b', 'U', 'B'}) {
    const auto s = simulate(scalar, matrix);
    const auto v = simulate(vector, matrix);
    ASSERT_TRUE(s.count("indices[j]") && s.count("val[j]") && s.count("y[ind]")) << matrix;
    // Scalar kernel: per warp instruction, the per-thread sequential streams are slower than the
    // shared gather (Figure 8).
    const double s_index = s.at("indices[j]").per_request();
    const double s_value = s.at("val[j]").per_request();
    const double s_y = s.at("y[ind]").per_request();
    EXPECT_GT(s_index, s_y) << matrix;
    EXPECT_GT(s_value, s_y) << matrix;
    // Vectorized kernel: one 16-byte load replaces four, so the latency the kernel spends on the
    // index and value loads (requests x X, prologue and epilogue included) drops.
    const LoadLatency v_index = total(v, {"indices4[", "indices["});
    const LoadLatency v_value = total(v, {"val4[", "val["});
    const LoadLatency v_y = total(v, {"y["});
    ASSERT_GT(v_index.requests, 0) << matrix;
    ASSERT_GT(v_value.requests, 0) << matrix;
    EXPECT_LT(v_index.cycles, s.at("indices[j]").cycles) << matrix;
    EXPECT_LT(v_value.cycles, s.at("val[j]").cycles) << matrix;
    // ... and with fewer lines of indices and val competing for the L1, y hits more (§6.2).
    EXPECT_LT(v_y.per_request(), s_y) << matrix;
    std::printf(
        "matrix %c, cycles per warp instruction: scalar indices[j] %.0f, val[j] %.0f, y[ind] %.0f; "
        "vectorized indices4 %.0f, val4 %.0f, y %.0f; index+value latency vectorized/scalar "
        "%.2f\n",
        matrix, s_index, s_value, s_y, v.at("indices4[j / 4]").per_request(),
        v.at("val4[j / 4]").per_request(), v_y.per_request(),
        (v_index.cycles + v_value.cycles) / (s.at("indices[j]").cycles + s.at("val[j]").cycles));
  }
}

}  // namespace
