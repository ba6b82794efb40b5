// The static graph against the measured one on real traces (LocalityGuru §IV "Validating the
// Results"): programs/locality_kernels.cu built with memcarlo-cc for the host backend, each
// kernel traced over its whole grid by `memcarlo run`, then `memcarlo locality TRACE --static
// SOURCE.cu` (which runs memcarlo-instrument): identical element by element and line by line for
// every affine kernel; for the CSR gather, the differences and the three data-dependent reads.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "common/run_command.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kBinaryDir = MEMCARLO_BINARY_DIR;
const std::string kMemcarlo = kBinaryDir + "/cli/memcarlo";
const std::string kCc = kBinaryDir + "/cli/memcarlo-cc";
const std::string kHere = std::string(MEMCARLO_SOURCE_DIR) + "/tests/locality";

memcarlo::test_support::CommandResult run(const std::string& command) {
  return memcarlo::test_support::run_command(command + " 2>&1");
}

fs::path work_dir() {
  const fs::path dir =
      fs::temp_directory_path() / ("memcarlo-locality-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

const std::string& program() {
  static const std::string exe = [] {
    const std::string path = (work_dir() / "locality_kernels").string();
    const auto r = run(kCc + " --backend host -std=c++17 -O2 -DN=64 " + kHere +
                       "/programs/locality_kernels.cu -o " + path);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return path;
  }();
  return exe;
}

/// Traces `kernel` over its whole grid and returns `memcarlo locality --json` against its source.
json locality_of(const std::string& kernel, const std::string& defines) {
  const std::string trace = (work_dir() / (kernel + ".mct")).string();
  const auto traced = run(kMemcarlo + " run -H fermi-c2050 --snapshot-factor 64 --trace " + trace +
                          " -- " + program() + " " + kernel);
  EXPECT_EQ(traced.exit_code, 0) << traced.output;
  const std::string out = (work_dir() / (kernel + ".json")).string();
  const auto r = run(kMemcarlo + " locality " + trace + " --static " + kHere + "/kernels/" +
                     kernel + ".cu " + defines + " --json " + out);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  fs::remove(trace);
  return json::parse(text.str(), nullptr, false);
}

void expect_identical(const std::string& kernel, const std::string& defines, std::uint64_t blocks) {
  const json document = locality_of(kernel, defines);
  ASSERT_TRUE(document.is_object()) << kernel;
  EXPECT_EQ(document["measured"]["snapshot_block_count"], blocks) << kernel;
  EXPECT_EQ(document["comparison"]["elements"], "identical") << document["comparison"].dump(2);
  EXPECT_EQ(document["comparison"]["lines"], "identical") << document["comparison"].dump(2);
  EXPECT_GT(document["measured"]["elements"]["sharing_pairs"].get<std::uint64_t>(), 0u);
}

TEST(LocalityEndToEnd, TwoMmStaticEqualsMeasuredWithThePapersCounts) {
  const json document = locality_of("two_mm", "--param n=256");
  ASSERT_TRUE(document.is_object());
  EXPECT_EQ(document["comparison"]["elements"], "identical");
  EXPECT_EQ(document["comparison"]["lines"], "identical");
  // Blocks 1 and 0 are in one grid row (2,048 elements of a), blocks 8 and 0 in one grid column
  // (8,192 of b).
  bool row = false, column = false;
  for (const json& entry : document["measured"]["elements"]["entries"]) {
    if (entry[0] == 1 && entry[1] == 0)
      row = entry[2] == 2048;
    if (entry[0] == 8 && entry[1] == 0)
      column = entry[2] == 8192;
  }
  EXPECT_TRUE(row && column);
}

TEST(LocalityEndToEnd, AffineKernelsStaticEqualsMeasured) {
  expect_identical("gemm", "-D N=64", 16);
  expect_identical("syr2k", "--param n=256", 256);
  expect_identical("conv2d", "--param n=64", 16);
  expect_identical("gram_schmidt", "--param n=1024 --param k=3", 4);
  expect_identical("mvt", "--param n=2048", 8);
}

TEST(LocalityEndToEnd, DataDependentReadsAreTheMeasuredGraphsOnly) {
  const json document = locality_of("csr_gather", "");
  ASSERT_TRUE(document.is_object());
  EXPECT_EQ(document["comparison"]["elements"], "different");
  ASSERT_EQ(document["comparison"]["causes"].size(), 3u) << document["comparison"].dump(2);
  for (const json& cause : document["comparison"]["causes"]) {
    EXPECT_NE(cause["why"].get<std::string>().find("measured graph only"), std::string::npos);
  }
}

}  // namespace

namespace {

// `memcarlo descriptors` on 2MM's trace: the helper that allocates every array names them all
// "device", so arrays are told apart by allocation. a[row * n + k]: the 8 blocks of a grid row
// share their 8 rows, 8 x 256 = 2,048 elements (the paper's count); b[k * n + col]: the 32
// blocks of a grid column share a 32 x 256 strip, 8,192 elements (the paper's count), histo's
// (X_tile, Y_len, 1) / (1, GridDim.y, 1) shape.
TEST(LocalityEndToEnd, DescriptorsOfTwoMmShareThePapersCounts) {
  const std::string trace = (work_dir() / "two_mm_descriptors.mct").string();
  const auto traced = run(kMemcarlo + " run -H fermi-c2050 --trace " + trace + " -- " + program() +
                          " two_mm");
  ASSERT_EQ(traced.exit_code, 0) << traced.output;
  const std::string out = (work_dir() / "two_mm_descriptors.json").string();
  const auto proposed = run(kMemcarlo + " descriptors " + trace + " -o " + out);
  ASSERT_EQ(proposed.exit_code, 0) << proposed.output;
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  const json document = json::parse(text.str(), nullptr, false);
  ASSERT_TRUE(document.is_object()) << text.str();
  bool band = false, strip = false;
  for (const json& d : document["descriptors"]) {
    const auto tile = d["data_tile"].get<std::vector<std::uint64_t>>();
    const auto ctas = d["compute_tile"].get<std::vector<std::uint64_t>>();
    if (tile == std::vector<std::uint64_t>{2048, 1, 1} &&
        ctas == std::vector<std::uint64_t>{8, 1, 1})
      band = true;
    if (tile == std::vector<std::uint64_t>{32, 256, 1} &&
        ctas == std::vector<std::uint64_t>{1, 32, 1})
      strip = true;
  }
  EXPECT_TRUE(band) << document.dump(2);
  EXPECT_TRUE(strip) << document.dump(2);
  fs::remove(trace);
}

// The heatmap page of a trace with --static: a panel for each graph computed, elements and
// lines of the measured and of the static graph.
TEST(LocalityEndToEnd, TheHeatmapPageHasEveryGraphComputed) {
  const std::string trace = (work_dir() / "gemm_page.mct").string();
  const auto traced = run(kMemcarlo + " run -H fermi-c2050 --snapshot-factor 64 --trace " + trace +
                          " -- " + program() + " gemm");
  ASSERT_EQ(traced.exit_code, 0) << traced.output;
  const std::string page = (work_dir() / "gemm_page.html").string();
  const auto r = run(kMemcarlo + " locality " + trace + " --static " + kHere +
                     "/kernels/gemm.cu -D N=64 --html " + page);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(page);
  std::stringstream text;
  text << in.rdbuf();
  for (const char* panel :
       {"measured, elements", "measured, lines", "static, elements", "static, lines"}) {
    EXPECT_NE(text.str().find("\"title\":\"" + std::string(panel) + "\""), std::string::npos)
        << panel;
  }
  fs::remove(trace);
}

// Descriptors belong to a kernel (issue 26): in a program of two kernels, 2MM's chain, the first
// writes tmp (each block its own tile: NO-REUSE), the second re-reads it (a grid row's blocks
// share 8 rows: INTER-THREAD). `memcarlo descriptors` proposes for both, each entry naming its
// kernel; given only the first kernel's, with ldesc.cache on, the second kernel's L1 hit ratio
// is the one without descriptors (before, the first kernel's NO-REUSE made it bypass tmp).
TEST(LocalityEndToEnd, DescriptorsOfTwoKernelsApplyEachToItsOwnKernel) {
  const std::string trace = (work_dir() / "two_mm_chain.mct").string();
  const auto traced = run(kMemcarlo + " run -H fermi-c2050 --trace " + trace + " -- " + program() +
                          " two_mm_chain");
  ASSERT_EQ(traced.exit_code, 0) << traced.output;
  const std::string all = (work_dir() / "two_mm_chain.descriptors.json").string();
  const auto proposed = run(kMemcarlo + " descriptors " + trace + " -o " + all);
  ASSERT_EQ(proposed.exit_code, 0) << proposed.output;
  std::ifstream in(all);
  const json document = json::parse(in, nullptr, false);
  ASSERT_TRUE(document.is_object());
  json first = json::array();
  std::uint64_t tmp = 0;
  std::string tmp_in_second;
  for (const json& d : document["descriptors"]) {
    ASSERT_TRUE(d.contains("kernel")) << d.dump();
    EXPECT_EQ(d["grid"], json::array({2, 8, 1})) << d.dump();
    if (d["kernel"] == "two_mm_first") {
      first.push_back(d);
      // out[row * n + col]: each block its own 32 x 8 tile (c[col * n + row], also a block's
      // own, is transposed: 8 x 32).
      if (d["type"] == "NO-REUSE" && d["data_tile"] == json::array({32, 8, 1}))
        tmp = d["address"].get<std::uint64_t>();
    }
  }
  ASSERT_NE(tmp, 0u) << document.dump(2);
  for (const json& d : document["descriptors"]) {
    if (d["kernel"] == "gemm_like" && d["address"] == tmp)
      tmp_in_second = d["type"].get<std::string>();
  }
  EXPECT_EQ(tmp_in_second, "INTER-THREAD") << document.dump(2);
  const std::string only_first = (work_dir() / "two_mm_chain.first.json").string();
  std::ofstream(only_first) << json{{"descriptors", first}}.dump(2);
  // The second kernel's L1 read hit ratio with and without the first kernel's descriptors.
  const auto second_kernel_l1 = [&](const std::string& settings, const std::string& name) {
    const std::string out = (work_dir() / name).string();
    const auto r = run(kMemcarlo + " simulate " + trace +
                       " --set ldesc.cache=true --set schedule.cta=round-robin -n 2 -q -o " + out +
                       " " + settings);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    std::ifstream report_in(out);
    const json report = json::parse(report_in, nullptr, false);
    for (const json& kernel : report["kernels"]) {
      if (kernel["kernel"] == "gemm_like")
        return std::make_pair(kernel["overall"]["l1_read_hit_ratio"]["mean"].get<double>(),
                              report["inputs"]["launches"]);
    }
    ADD_FAILURE() << "no gemm_like in " << out;
    return std::make_pair(-1.0, json());
  };
  const auto [without, plain_launches] = second_kernel_l1("", "two_mm_chain.plain.json");
  const auto [with, launches] =
      second_kernel_l1("--descriptors " + only_first, "two_mm_chain.first.report.json");
  EXPECT_GT(without, 0.5);  // tmp's rows are re-read along k
  EXPECT_EQ(with, without);
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0]["descriptors"].size(), first.size());
  EXPECT_TRUE(launches[1]["descriptors"].empty()) << launches.dump(2);
  fs::remove(trace);
}

// A grid-stride loop (the CUDA samples' scalarProd): grid_stride_dot's 4 blocks of 64 threads
// take vectors b, b + 4, b + 8, b + 12 of 256 elements each, so block b reads elements
// [256 (b + 4 r), 256 (b + 4 r) + 256) of a and b for r < 4: rows of 1,024 elements, of which each
// block reads its own 256-wide column, the histo tile (256, 4, 1) for one CTA each; it writes
// partial[64 (b + 4 r) + t]: 64-wide columns of rows of 256. rows_above's block b reads the b rows
// above its own, a range that grows with the block: no descriptor for `a`, and a note says why.
TEST(LocalityEndToEnd, DescriptorsTileWhatAGridStrideLoopVisitsAndNameARangeThatGrows) {
  const std::string trace = (work_dir() / "grid_stride.mct").string();
  const auto traced = run(kMemcarlo + " run -H fermi-c2050 --snapshot-factor 64 --trace " + trace +
                          " -- " + program() + " grid_stride");
  ASSERT_EQ(traced.exit_code, 0) << traced.output;
  const std::string out = (work_dir() / "grid_stride.descriptors.json").string();
  const auto proposed = run(kMemcarlo + " descriptors " + trace + " -o " + out);
  ASSERT_EQ(proposed.exit_code, 0) << proposed.output;
  EXPECT_NE(proposed.output.find("rows: no descriptor: load "), std::string::npos)
      << proposed.output;
  EXPECT_NE(proposed.output.find("`a[row * width + threadIdx.x]`: its loop `row`'s range grows or "
                                 "shrinks with the block"),
            std::string::npos)
      << proposed.output;
  std::ifstream in(out);
  const json document = json::parse(in, nullptr, false);
  ASSERT_TRUE(document.is_object());
  std::map<std::string, json> dot;
  std::map<std::string, json> above;
  for (const json& d : document["descriptors"]) {
    (d["kernel"] == "grid_stride_dot" ? dot : above)[d["name"].get<std::string>()] = d;
  }
  ASSERT_EQ(dot.size(), 3u) << document.dump(2);
  for (const std::string name : {"a", "b"}) {
    const json& d = dot[name];
    EXPECT_EQ(d["shape"], json::array({1024, 4, 1})) << d.dump();
    EXPECT_EQ(d["data_tile"], json::array({256, 4, 1})) << d.dump();
    EXPECT_EQ(d["compute_tile"], json::array({1, 1, 1})) << d.dump();
    EXPECT_EQ(d["compute_data_map"], json::array({1, 0, 0})) << d.dump();
    EXPECT_EQ(d["size"], 16 * 256 * 4) << d.dump();
    EXPECT_EQ(d["type"], "NO-REUSE") << d.dump();  // each thread steps 64 elements, 2 lines
  }
  EXPECT_EQ(dot["partial"]["shape"], json::array({256, 4, 1})) << dot["partial"].dump();
  EXPECT_EQ(dot["partial"]["data_tile"], json::array({64, 4, 1})) << dot["partial"].dump();
  // 16 reads of a and of b per thread against 4 writes of partial.
  EXPECT_LT(dot["partial"]["priority"], dot["b"]["priority"]);
  ASSERT_EQ(above.size(), 1u) << document.dump(2);
  EXPECT_EQ(above.begin()->first, "sums");
  EXPECT_EQ(above["sums"]["data_tile"], json::array({64, 1, 1})) << above["sums"].dump();
  fs::remove(trace);
}

// Priorities rank the key data structure first by what its accesses send past the L1 (one trial
// on the trace's hierarchy): row_times_vector's `a` (32 rows a warp, reread from lines the L1 no
// longer holds) leads `tmp` and `x`, which tie it in accesses by the threads (one each per
// iteration) and of which `x` is shared by more CTAs (the rule before). --hierarchy names the
// hierarchy; one that does not exist is refused.
TEST(LocalityEndToEnd, DescriptorPrioritiesFollowTheRequestsThatLeaveTheL1) {
  const std::string trace = (work_dir() / "row_times_vector.mct").string();
  const auto traced = run(kMemcarlo + " run -H fermi-c2050 --trace " + trace + " -- " + program() +
                          " row_times_vector");
  ASSERT_EQ(traced.exit_code, 0) << traced.output;
  const std::string out = (work_dir() / "row_times_vector.descriptors.json").string();
  for (const std::string hierarchy : {"", " --hierarchy fermi-c2050"}) {
    const auto proposed = run(kMemcarlo + " descriptors " + trace + hierarchy + " -o " + out);
    ASSERT_EQ(proposed.exit_code, 0) << proposed.output;
    std::ifstream in(out);
    const json document = json::parse(in, nullptr, false);
    ASSERT_TRUE(document.is_object());
    std::map<std::string, std::uint32_t> priority;
    for (const json& d : document["descriptors"])
      priority[d["name"].get<std::string>()] = d["priority"].get<std::uint32_t>();
    ASSERT_EQ(priority.size(), 3u) << document.dump(2);
    EXPECT_EQ(priority["a"], 3u) << document.dump(2);
  }
  const auto refused = run(kMemcarlo + " descriptors " + trace + " --hierarchy no-such-gpu -o " +
                           out);
  EXPECT_EQ(refused.exit_code, 2) << refused.output;
  EXPECT_NE(refused.output.find("--hierarchy: "), std::string::npos) << refused.output;
  EXPECT_NE(refused.output.find("no-such-gpu"), std::string::npos) << refused.output;
  fs::remove(trace);
}

// A template instance (row_tiles<16>) whose index forms use its template argument: without the
// argument, each array's note says which value to give (the proposer once found no access of the
// instance, and proposed nothing, silently); with --param TILE=16 (the footprint's estimate takes
// it too), each block's 16 rows of 32 floats are its own D-Tile of in and out.
TEST(LocalityEndToEnd, DescriptorsOfATemplateInstanceNameTheArgumentToGiveAndTakeIt) {
  const std::string trace = (work_dir() / "row_tiles.mct").string();
  const auto traced = run(kMemcarlo + " run -H fermi-c2050 --trace " + trace + " -- " + program() +
                          " row_tiles");
  ASSERT_EQ(traced.exit_code, 0) << traced.output;
  const std::string out = (work_dir() / "row_tiles.descriptors.json").string();
  const auto without = run(kMemcarlo + " descriptors " + trace + " -o " + out);
  ASSERT_EQ(without.exit_code, 0) << without.output;
  for (const char* array : {"in: no descriptor", "out: no descriptor"}) {
    EXPECT_NE(without.output.find(std::string(array) + ": load "), std::string::npos)
        << without.output;
  }
  EXPECT_NE(without.output.find("`TILE` (kernel_parameter) has no value: give --param TILE=VALUE"),
            std::string::npos)
      << without.output;
  const auto with = run(kMemcarlo + " descriptors " + trace + " --param TILE=16 -o " + out);
  ASSERT_EQ(with.exit_code, 0) << with.output;
  std::ifstream in(out);
  const json document = json::parse(in, nullptr, false);
  ASSERT_TRUE(document.is_object());
  ASSERT_EQ(document["descriptors"].size(), 2u) << document.dump(2) << with.output;
  for (const json& d : document["descriptors"]) {
    EXPECT_EQ(d["kernel"], "row_tiles<16>") << d.dump();
    EXPECT_EQ(d["data_tile"], json::array({512, 1, 1})) << d.dump();  // 16 rows of 32
    EXPECT_EQ(d["compute_tile"], json::array({1, 1, 1})) << d.dump();
    EXPECT_EQ(d["shape"], json::array({4096, 1, 1})) << d.dump();
  }
  fs::remove(trace);
}

}  // namespace
