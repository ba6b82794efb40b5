// Locality graphs (LocalityGuru): the sweep on hand-made intervals, the static graph of our own
// versions of the paper's kernels against the counts the paper states and against counts worked
// out by hand from the kernels' footprints, the reasons of uncovered reads, and the static graph
// against a measured one from a trace written here thread by thread.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "common/run_command.hpp"
#include "memcarlo/locality/comparison.hpp"
#include "memcarlo/locality/heatmap.hpp"
#include "memcarlo/tracebuf/metadata.hpp"
#include "memcarlo/tracebuf/writer.hpp"

namespace memcarlo::locality {
namespace {

std::vector<tracebuf::LoadInfo> fixture(const std::string& name) {
  std::ifstream in(std::string(MEMCARLO_SOURCE_DIR) + "/tests/locality/loads/" + name + ".json");
  std::stringstream text;
  text << in.rdbuf();
  return tracebuf::loads_from_json(text.str());
}

StaticOptions launch_of(const std::string& kernel, tracebuf::Dim3 grid, tracebuf::Dim3 block,
                        std::map<std::string, std::int64_t> values) {
  StaticOptions options;
  options.kernel = kernel;
  options.launch = {grid, block, std::move(values)};
  return options;
}

/// Every pair i > j of the grid: the graph's entry against expected(i, j) (zeros included).
void expect_graph(const SparseGraph& graph, const tracebuf::Dim3& grid,
                  const std::function<Weight(BlockCoordinates, BlockCoordinates)>& expected) {
  const std::uint64_t blocks = grid.volume();
  ASSERT_EQ(graph.rows(), static_cast<std::int64_t>(blocks));
  std::uint64_t wrong = 0;
  for (std::uint64_t i = 0; i < blocks; ++i) {
    for (std::uint64_t j = 0; j < i; ++j) {
      const Weight want = expected(coordinates_of(i, grid), coordinates_of(j, grid));
      const Weight got = graph.coeff(static_cast<std::int64_t>(i), static_cast<std::int64_t>(j));
      if (want != got && ++wrong <= 5) {
        ADD_FAILURE() << "L(" << i << ", " << j << "): expected " << want << ", got " << got;
      }
    }
  }
  EXPECT_EQ(wrong, 0u);
}

Weight overlap(std::int64_t a, std::int64_t a_end, std::int64_t b, std::int64_t b_end) {
  return std::max<std::int64_t>(0, std::min(a_end, b_end) - std::max(a, b));
}

TEST(GraphBuilder, CountsKeysTwoBlocksBothReadPerSpace) {
  GraphBuilder builder(3);
  builder.add(0, 0, {{0, 10}});
  builder.add(0, 1, {{5, 15}});
  builder.add(0, 2, {{12, 20}, {8, 9}});
  // The same keys in another space (another array) are other elements.
  builder.add(1, 0, {{0, 4}});
  builder.add(1, 2, {{2, 6}});
  // A second read of block 0 overlapping its first counts each key once.
  builder.add(0, 0, {{3, 7}});
  const SparseGraph graph = builder.finish();
  EXPECT_EQ(graph.coeff(1, 0), 5);      // [5, 10)
  EXPECT_EQ(graph.coeff(2, 0), 1 + 2);  // [8, 9) in space 0, [2, 4) in space 1
  EXPECT_EQ(graph.coeff(2, 1), 1 + 3);  // [8, 9) and [12, 15)
  EXPECT_EQ(graph.coeff(0, 1), 0);      // only the lower triangle is stored
  EXPECT_EQ(summarize(graph).total, 5 + 3 + 4);
}

TEST(GraphBuilder, StridedReadsOfTheSameBlocksFoldIntoOneRunPerChangeOfReaders) {
  GraphBuilder builder(2);
  std::vector<KeyInterval> column;
  for (std::int64_t row = 0; row < 1000; ++row)
    column.push_back({row * 64, row * 64 + 1});
  builder.add(0, 0, column);
  builder.add(0, 1, column);
  EXPECT_EQ(builder.finish().coeff(1, 0), 1000);
}

TEST(GraphPattern, NamesTheGridShapeOfTheSharingPairs) {
  const tracebuf::Dim3 grid{2, 2, 1};  // blocks 0 (0,0), 1 (1,0), 2 (0,1), 3 (1,1)
  SparseGraph row(4, 4);
  row.insert(1, 0) = 3;
  EXPECT_EQ(graph_pattern(row, grid), "index_y only");
  SparseGraph column(4, 4);
  column.insert(2, 0) = 3;
  EXPECT_EQ(graph_pattern(column, grid), "index_x only");
  SparseGraph both = row + column;
  EXPECT_EQ(graph_pattern(both, grid), "index_xy");
  SparseGraph diagonal = both;
  diagonal.insert(3, 0) = 1;
  EXPECT_EQ(graph_pattern(diagonal, grid), "index_x+y");
  SparseGraph all(4, 4);
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < i; ++j)
      all.insert(i, j) = 1;
  }
  EXPECT_EQ(graph_pattern(all, grid), "fully connected");
  EXPECT_EQ(graph_pattern(SparseGraph(4, 4), grid), "none");
}

// LocalityGuru §IV: 2MM at N = 256, grid 8x32, block 32x8. A grid row shares blockDim.y * N =
// 2,048 elements of a; a grid column blockDim.x * N = 8,192 of b; c[col * n + row] nothing.
TEST(StaticGraph, TwoMmSharesThePapersCountsInRowsAndColumns) {
  const tracebuf::Dim3 grid{8, 32, 1};
  const StaticGraph graph =
      static_graph(fixture("two_mm"), launch_of("two_mm_first", grid, {32, 8, 1}, {{"n", 256}}));
  expect_graph(graph.elements, grid, [](BlockCoordinates i, BlockCoordinates j) {
    return Weight{2048} * (i.y == j.y) + Weight{8192} * (i.x == j.x);
  });
  // Lines of 128 B (32 floats): a grid row's 8 rows of a are 8 x 8 lines; a grid column's 32
  // columns of b are one line in each of 256 rows; c's element (col, row) lies in line
  // col * 8 + row / 32, so blocks of one column whose rows fall in one 32-row band (by / 4)
  // share their 32 columns' line.
  expect_graph(graph.lines, grid, [](BlockCoordinates i, BlockCoordinates j) {
    return Weight{64} * (i.y == j.y) + Weight{256} * (i.x == j.x) +
           Weight{32} * (i.x == j.x && i.y / 4 == j.y / 4);
  });
  EXPECT_EQ(graph_pattern(graph.elements, grid), "index_xy");
  EXPECT_EQ(graph.array_patterns.at("a"), "index_y only");
  EXPECT_EQ(graph.array_patterns.at("b"), "index_x only");
  EXPECT_EQ(graph.array_patterns.at("c"), "index_x+y");
  for (const StaticLoad& load : graph.loads)
    EXPECT_EQ(load.not_covered, "") << load.expression;
}

// LocalityGuru §IV: GEMM at N = 64 (a macro, folded into the forms), grid 2x8, block 32x8:
// 512 elements along a grid row, 2,048 along a column.
TEST(StaticGraph, GemmSharesThePapersCounts) {
  const tracebuf::Dim3 grid{2, 8, 1};
  const StaticGraph graph =
      static_graph(fixture("gemm"), launch_of("gemm_like", grid, {32, 8, 1}, {}));
  expect_graph(graph.elements, grid, [](BlockCoordinates i, BlockCoordinates j) {
    return Weight{512} * (i.y == j.y) + Weight{2048} * (i.x == j.x);
  });
}

// SYR2K at N = 256, grid 8x32, block 32x8: block (x, y) reads rows [8y, 8y + 8) and
// [32x, 32x + 32) of both a and b, every column of them: two arrays x 256 x the shared rows.
TEST(StaticGraph, Syr2kSharesTheUnionOfRowAndColumnBands) {
  const tracebuf::Dim3 grid{8, 32, 1};
  const StaticGraph graph =
      static_graph(fixture("syr2k"), launch_of("syr2k_like", grid, {32, 8, 1}, {{"n", 256}}));
  expect_graph(graph.elements, grid, [](BlockCoordinates i, BlockCoordinates j) {
    std::vector<bool> rows_i(256), rows_j(256);
    for (std::uint32_t r = 0; r < 8; ++r)
      rows_i[8 * i.y + r] = rows_j[8 * j.y + r] = true;
    for (std::uint32_t r = 0; r < 32; ++r)
      rows_i[32 * i.x + r] = rows_j[32 * j.x + r] = true;
    Weight shared_rows = 0;
    for (int r = 0; r < 256; ++r)
      shared_rows += rows_i[r] && rows_j[r];
    return 2 * 256 * shared_rows;
  });
  EXPECT_EQ(graph.array_patterns.at("a"), "index_xy");
  EXPECT_EQ(graph.array_patterns.at("b"), "index_xy");
}

// Convolution2D, grid 2x8, block 32x8, n = 64 over a padded input of pitch 66: block (x, y)
// reads the rectangle rows [32x, 32x + 34) x columns [8y, 8y + 10); neighbours share the
// intersection of their rectangles, diagonal ones included (index_x+y).
TEST(StaticGraph, Convolution2dSharesHaloRectangles) {
  const tracebuf::Dim3 grid{2, 8, 1};
  const StaticGraph graph =
      static_graph(fixture("conv2d"), launch_of("conv3x3", grid, {32, 8, 1}, {{"n", 64}}));
  expect_graph(graph.elements, grid, [](BlockCoordinates i, BlockCoordinates j) {
    return overlap(32 * i.x, 32 * i.x + 34, 32 * j.x, 32 * j.x + 34) *
           overlap(8 * i.y, 8 * i.y + 10, 8 * j.y, 8 * j.y + 10);
  });
  EXPECT_EQ(graph_pattern(graph.elements, grid), "index_x+y");
  EXPECT_EQ(graph.array_patterns.at("in"), "index_x+y");
}

// Covariance kernel 2, grid 64x64 (4,096 blocks), block 32x8, n = 2048: mean[x + 1] is shared
// by the 64 blocks of a grid column, 32 elements per pair; data by no one. The graph has
// 64 x C(64, 2) = 129,024 entries, nothing like blocks x elements.
TEST(StaticGraph, CovarianceOnAThousandsOfBlocksGrid) {
  const tracebuf::Dim3 grid{64, 64, 1};
  const StaticGraph graph =
      static_graph(fixture("covariance"), launch_of("centre", grid, {32, 8, 1}, {{"n", 2048}}));
  EXPECT_EQ(summarize(graph.elements).pairs, 64u * 2016u);
  EXPECT_EQ(summarize(graph.elements).total, 32 * 64 * 2016);
  EXPECT_EQ(graph.elements.coeff(64 * 5 + 3, 3), 32);  // (3, 5) and (3, 0)
  EXPECT_EQ(graph.elements.coeff(64 * 5 + 4, 3), 0);
  EXPECT_EQ(graph_pattern(graph.elements, grid), "index_x only");
}

// Gram-Schmidt, 1-D grid of 4 blocks of 256: every block reads r[k][k], one element, so the graph
// is fully connected with weight 1; a[i * n + k] is one element per thread.
TEST(StaticGraph, GramSchmidtIsFullyConnected) {
  const tracebuf::Dim3 grid{4, 1, 1};
  const StaticGraph graph =
      static_graph(fixture("gram_schmidt"),
                   launch_of("normalise_column", grid, {256, 1, 1}, {{"n", 1024}, {"k", 3}}));
  expect_graph(graph.elements, grid, [](BlockCoordinates, BlockCoordinates) { return 1; });
  EXPECT_EQ(graph_pattern(graph.elements, grid), "fully connected");
  EXPECT_EQ(graph.array_patterns.at("r"), "fully connected");
  EXPECT_EQ(graph.array_patterns.at("a"), "index_x only");
}

// MVT: every block walks all of y1 (n elements), its own rows of a.
TEST(StaticGraph, MvtSharesAllOfTheVector) {
  const tracebuf::Dim3 grid{8, 1, 1};
  const StaticGraph graph =
      static_graph(fixture("mvt"), launch_of("mvt_first", grid, {256, 1, 1}, {{"n", 2048}}));
  expect_graph(graph.elements, grid, [](BlockCoordinates, BlockCoordinates) { return 2048; });
  EXPECT_EQ(graph_pattern(graph.elements, grid), "fully connected");
}

// A CSR gather: x[cols[j]] depends on a loaded value, and vals[j], cols[j] loop from rowptr[row]
// to rowptr[row + 1], loaded values too: not covered, measured graph only. rowptr itself is
// affine: block b reads rowptr[256 b .. 256 b + 256], so neighbours share one element.
TEST(StaticGraph, DataDependentReadsAreListedAsNotAffine) {
  const tracebuf::Dim3 grid{4, 1, 1};
  const StaticGraph graph =
      static_graph(fixture("csr_gather"), launch_of("csr_row_sum", grid, {256, 1, 1}, {}));
  int not_affine = 0;
  for (const StaticLoad& load : graph.loads) {
    if (load.root == "rowptr") {
      EXPECT_EQ(load.not_covered, "");
    } else {
      EXPECT_NE(load.not_covered.find("not affine"), std::string::npos) << load.expression;
      EXPECT_NE(load.not_covered.find("measured graph only"), std::string::npos);
      ++not_affine;
    }
  }
  EXPECT_EQ(not_affine, 3);  // vals[j], x[cols[j]], cols[j]
  expect_graph(graph.elements, grid,
               [](BlockCoordinates i, BlockCoordinates j) { return Weight{i.x == j.x + 1}; });
}

// for (int k = 4 * blockIdx.x; k < 4 * blockIdx.x + 8; ++k) a[k]: the loop's range moves with
// the block, so each block is enumerated on its own: block b reads [4b, 4b + 8), its neighbour
// shares 4 elements, the next one none.
TEST(StaticGraph, ALoopWhoseRangeMovesWithTheBlockIsEnumeratedPerBlock) {
  const std::string table = R"([{"id": 0, "function": "window", "kernels": ["window"],
    "file": "window.cu", "line": 3, "column": 10, "expression": "a[k]", "kind": "read",
    "element_type": "float", "element_size": 4, "base": "a", "address_space": "global",
    "loop_depth": 1, "sequence": 0, "depends_on": [],
    "index": {"kind": "affine", "root": "a", "unit": "elements", "expression": "k",
      "terms": [{"coefficient": 1, "symbols": ["k"]}], "constant": 0,
      "symbols": {"k": "induction", "blockIdx.x": "block"},
      "inductions": [{"variable": "k", "loop_depth": 1,
        "init": {"expression": "4*blockIdx.x", "constant": 0,
                 "terms": [{"coefficient": 4, "symbols": ["blockIdx.x"]}]},
        "step": {"expression": "1", "constant": 1, "terms": []},
        "bound": {"expression": "4*blockIdx.x + 8", "constant": 8,
                  "terms": [{"coefficient": 4, "symbols": ["blockIdx.x"]}]},
        "comparison": "<"}],
      "loads": []}}])";
  const tracebuf::Dim3 grid{6, 1, 1};
  const StaticGraph graph =
      static_graph(tracebuf::loads_from_json(table), launch_of("window", grid, {32, 1, 1}, {}));
  ASSERT_EQ(graph.loads.size(), 1u);
  EXPECT_EQ(graph.loads.front().not_covered, "");
  EXPECT_EQ(graph.loads.front().pattern, "index_x only");
  expect_graph(graph.elements, grid, [](BlockCoordinates i, BlockCoordinates j) {
    return Weight{i.x == j.x + 1 ? 4 : 0};
  });
}

TEST(StaticGraph, AKernelParameterWithoutAValueIsNamedInTheReason) {
  const StaticGraph graph =
      static_graph(fixture("two_mm"), launch_of("two_mm_first", {8, 32, 1}, {32, 8, 1}, {}));
  ASSERT_FALSE(graph.loads.empty());
  for (const StaticLoad& load : graph.loads) {
    EXPECT_NE(load.not_covered.find("give --param n=VALUE"), std::string::npos) << load.not_covered;
  }
  EXPECT_EQ(graph.elements.nonZeros(), 0);
}

TEST(StaticGraph, AnUnknownKernelIsAnErrorNamingTheKernelsThere) {
  try {
    static_graph(fixture("two_mm"), launch_of("nope", {1, 1, 1}, {32, 1, 1}, {}));
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("two_mm_first"), std::string::npos) << e.what();
  }
}

// A trace names a template kernel's instance, a loads table the template (issue 28): an instance
// the table has no reads of takes the template's reads, and says which; a name without template
// arguments, or whose template is not in the table, is still an error naming the table's kernels.
TEST(StaticGraph, ATemplateInstanceTakesTheReadsOfItsTemplate) {
  const tracebuf::Dim3 grid{8, 32, 1};
  const auto table = fixture("two_mm");
  EXPECT_EQ(table_kernel(table, "two_mm_first"), "two_mm_first");
  EXPECT_EQ(table_kernel(table, "two_mm_first<32, float>"), "two_mm_first");
  EXPECT_EQ(table_kernel(table, "two_mm<32>"), "two_mm<32>");
  EXPECT_EQ(table_kernel(table, "two_mm_first_x"), "two_mm_first_x");
  const StaticGraph graph =
      static_graph(table, launch_of("two_mm_first<32, float>", grid, {32, 8, 1}, {{"n", 256}}));
  EXPECT_EQ(graph.kernel, "two_mm_first");
  expect_graph(graph.elements, grid, [](BlockCoordinates i, BlockCoordinates j) {
    return Weight{2048} * (i.y == j.y) + Weight{8192} * (i.x == j.x);
  });
  try {
    static_graph(table, launch_of("two_mm<32>", grid, {32, 8, 1}, {{"n", 256}}));
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("kernel `two_mm<32>` has no reads"), std::string::npos)
        << e.what();
  }
}

TEST(StaticGraph, AnEvaluationBudgetTooSmallLeavesTheLoadNotCovered) {
  StaticOptions options = launch_of("two_mm_first", {8, 32, 1}, {32, 8, 1}, {{"n", 256}});
  options.max_evaluations = 1000;
  const StaticGraph graph = static_graph(fixture("two_mm"), options);
  EXPECT_NE(graph.loads.front().not_covered.find("more than 1000"), std::string::npos);
}

/// A trace of two_mm_first's reads at n = 64, grid 2x8, block 32x8 (lane = threadIdx.x, warp =
/// threadIdx.y), written record by record as the kernel would issue them; threads with
/// row >= active_rows do not run (the guard a kernel with idle threads would have).
std::string write_two_mm_trace(const std::string& name, std::uint32_t active_rows,
                               const std::string& kernel = "two_mm_first") {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("memcarlo-locality-" + name + ".mct")).string();
  const std::uint64_t n = 64;
  const std::uint64_t a = 0x10000, b = 0x20000, c = 0x30000;
  tracebuf::TraceMeta meta;
  meta.backend = "synthetic";
  tracebuf::TraceWriter writer(path, meta);
  const std::vector<tracebuf::LoadInfo> table = fixture("two_mm");
  writer.write_loads(table);
  writer.write_allocations(std::vector<tracebuf::Allocation>{
      {0, a, n * n * 4, "a"}, {1, b, n * n * 4, "b"}, {2, c, n * n * 4, "c"}});
  tracebuf::LaunchInfo launch;
  launch.kernel = kernel;
  launch.grid = {2, 8, 1};
  launch.block = {32, 8, 1};
  launch.snapshot_first_block = 0;
  launch.snapshot_block_count = 16;
  const std::uint32_t index = writer.begin_launch(launch);
  for (std::uint32_t block = 0; block < 16; ++block) {
    const std::uint64_t bx = block % 2, by = block / 2;
    for (std::uint32_t warp = 0; warp < 8; ++warp) {
      const std::uint64_t row = by * 8 + warp;
      if (row >= active_rows)
        continue;
      std::vector<tracebuf::WarpRecord> records;
      tracebuf::WarpRecord read;
      read.active_mask = 0xffffffffu;
      for (std::uint64_t k = 0; k < n; ++k) {
        read.static_id = 0;
        for (std::uint64_t lane = 0; lane < 32; ++lane)
          read.addresses[lane] = a + 4 * (row * n + k);
        records.push_back(read);
        read.static_id = 1;
        for (std::uint64_t lane = 0; lane < 32; ++lane) {
          read.addresses[lane] = b + 4 * (k * n + bx * 32 + lane);
        }
        records.push_back(read);
      }
      read.static_id = 3;
      for (std::uint64_t lane = 0; lane < 32; ++lane) {
        read.addresses[lane] = c + 4 * ((bx * 32 + lane) * n + row);
      }
      records.push_back(read);
      writer.write_warp_records(index, block, warp, records);
    }
  }
  writer.finish();
  return path;
}

TEST(MeasuredGraph, TwoMmTraceEqualsTheStaticGraphElementByElement) {
  const std::string path = write_two_mm_trace("two-mm", 64);
  const tracebuf::TraceReader reader = tracebuf::TraceReader::open(path);
  const tracebuf::LaunchStreams& launch = reader.launches().front();
  const MeasuredGraph measured = measured_graph(launch);
  const StaticOptions options =
      launch_of("two_mm_first", launch.info.grid, launch.info.block, {{"n", 64}});
  const StaticGraph computed = static_graph(reader.loads(), options);
  const GraphComparison comparison = compare(computed, measured, reader.loads(), options, launch);
  EXPECT_TRUE(comparison.identical_elements);
  EXPECT_TRUE(comparison.identical_lines);
  EXPECT_TRUE(comparison.causes.empty());
  // And both are the paper's formula at N = 64: 8 x 64 along a row, 32 x 64 along a column.
  expect_graph(measured.elements, launch.info.grid, [](BlockCoordinates i, BlockCoordinates j) {
    return Weight{512} * (i.y == j.y) + Weight{2048} * (i.x == j.x);
  });
  std::filesystem::remove(path);
}

// `memcarlo locality TRACE --static embedded` of a template instance (issue 28): the trace names
// two_mm_first<32>, its loads table two_mm_first; the static graph is the template's, says so,
// and equals the measured one.
TEST(MeasuredGraph, ATemplateInstanceInATraceIsComparedWithItsTemplatesReads) {
  const std::string path = write_two_mm_trace("two-mm-template", 64, "two_mm_first<32>");
  const std::string json_path = path + ".json";
  const auto r = test_support::run_command(
      std::string(MEMCARLO_BINARY_DIR) + "/cli/memcarlo locality " + path +
      " --static embedded --param n=64 --json " + json_path + " 2>&1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("static graph of the loads table's template two_mm_first (the trace's "
                          "kernel two_mm_first<32>)"),
            std::string::npos)
      << r.output;
  std::ifstream in(json_path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("\"static_kernel\": \"two_mm_first\""), std::string::npos);
  // The paper's formula at N = 64 (as above): 8 grid rows x C(2, 2) x 512 + 2 columns x C(8, 2)
  // x 2,048.
  EXPECT_NE(text.str().find("\"total_shared\": " + std::to_string(8 * 512 + 2 * 28 * 2048)),
            std::string::npos);
  EXPECT_NE(r.output.find("comparison over the traced blocks: elements identical"),
            std::string::npos)
      << r.output;
  std::filesystem::remove(path);
  std::filesystem::remove(json_path);
}

// Idle threads (rows 60..63 guarded off) read less than the table's forms say: the comparison
// lists the differing pairs of the last grid row and names a[row * n + k] as the cause.
TEST(MeasuredGraph, IdleThreadsShowAsDifferencesCausedByTheirReads) {
  const std::string path = write_two_mm_trace("two-mm-idle", 60);
  const tracebuf::TraceReader reader = tracebuf::TraceReader::open(path);
  const tracebuf::LaunchStreams& launch = reader.launches().front();
  const MeasuredGraph measured = measured_graph(launch);
  const StaticOptions options =
      launch_of("two_mm_first", launch.info.grid, launch.info.block, {{"n", 64}});
  const StaticGraph computed = static_graph(reader.loads(), options);
  const GraphComparison comparison = compare(computed, measured, reader.loads(), options, launch);
  EXPECT_FALSE(comparison.identical_elements);
  ASSERT_EQ(comparison.element_differences, 1u);  // blocks 15 and 14: the last grid row
  EXPECT_EQ(comparison.first_element_differences.front().block_i, 15u);
  EXPECT_EQ(comparison.first_element_differences.front().static_weight, 512);
  EXPECT_EQ(comparison.first_element_differences.front().measured_weight, 4 * 64);
  ASSERT_EQ(comparison.causes.size(), 1u);
  EXPECT_EQ(comparison.causes.front().expression, "a[row * n + k]");
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace memcarlo::locality

namespace memcarlo::locality {
namespace {

TEST(Heatmap, DrawsTheLowerTriangleAndBinsLargeGrids) {
  SparseGraph small(4, 4);
  small.insert(1, 0) = 3;
  const std::string page = heatmap_html("t", {2, 2, 1}, {{"elements", &small}});
  EXPECT_NE(page.find("[[1,0,3]]"), std::string::npos);
  EXPECT_NE(page.find("\"per_bin\":1"), std::string::npos);
  // 1,024 blocks: bins of 2, so L(3, 0) and L(2, 1) both land in cell (1, 0).
  SparseGraph large(1024, 1024);
  large.insert(3, 0) = 5;
  large.insert(2, 1) = 7;
  const std::string binned = heatmap_html("t", {1024, 1, 1}, {{"elements", &large}});
  EXPECT_NE(binned.find("[[1,0,12]]"), std::string::npos);
  EXPECT_NE(binned.find("\"per_bin\":2"), std::string::npos);
}

}  // namespace
}  // namespace memcarlo::locality
