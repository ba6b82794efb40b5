// Footprints at array edges (issue 26 §3): a stencil whose halo reads are guarded at the first
// and last rows (Rodinia hotspot's IN_RANGE) has relations that, unguarded, name a row before
// the first and one after the last. Those indices lie outside the array, so outside the
// footprint (TAFE's Base/Limit filter, §4.4), not in the allocation that happens to sit next to
// it; and an allocation a launch never uses gives that launch no cells. Cells worked out by hand.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "memcarlo/footprint/footprint.hpp"
#include "memcarlo/tracebuf/writer.hpp"

namespace memcarlo::footprint {
namespace {

// Rows of 32 floats (128 bytes: one "page" per row with 128-byte pages), 8 rows; three
// allocations back to back: `other` (never used by the kernel), `in`, `out`.
constexpr std::uint64_t kRowBytes = 128;
constexpr std::uint32_t kRows = 8;
constexpr std::uint64_t kOtherBase = 0x10000;
constexpr std::uint64_t kInBase = kOtherBase + kRows * kRowBytes;
constexpr std::uint64_t kOutBase = kInBase + kRows * kRowBytes;

tracebuf::LoadInfo access(std::uint32_t id, const char* root, const char* expression,
                          std::int64_t constant, tracebuf::AccessKind kind) {
  tracebuf::LoadInfo load;
  load.id = id;
  load.function = "stencil_rows";
  load.kernels = {"stencil_rows"};
  load.expression = expression;
  load.kind = kind;
  load.element_type = "float";
  load.element_size = 4;
  load.base = root;
  load.address_space = "global";
  load.extra_json = std::string(R"({"index": {"kind": "affine", "root": ")") + root +
                    R"(", "unit": "elements", "expression": ")" + expression +
                    R"(", "terms": [{"coefficient": 32, "symbols": ["blockIdx.x"]},
                     {"coefficient": 1, "symbols": ["threadIdx.x"]}], "constant": )" +
                    std::to_string(constant) +
                    R"(, "symbols": {"blockIdx.x": "block", "threadIdx.x": "thread"},
                     "inductions": [], "loads": []}})";
  return load;
}

/// Block y (one warp of 32 threads) computes row y: out[y][x] = in[y-1][x] (if y > 0) +
/// in[y][x] + in[y+1][x] (if y < 7). The guarded halo reads are not in the trace for the
/// first and last rows; their relations, like TAFE's over-approximated control divergence,
/// ignore the guard.
std::string write_guarded_stencil() {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("memcarlo_edges_" + std::to_string(::getpid()) + ".mct"))
                               .string();
  tracebuf::TraceWriter writer(path, {});
  using tracebuf::AccessKind;
  writer.write_loads(
      std::vector<tracebuf::LoadInfo>{access(0, "in", "in[(y - 1)*32 + x]", -32, AccessKind::kRead),
                                      access(1, "in", "in[y*32 + x]", 0, AccessKind::kRead),
                                      access(2, "in", "in[(y + 1)*32 + x]", 32, AccessKind::kRead),
                                      access(3, "out", "out[y*32 + x]", 0, AccessKind::kWrite)});
  writer.write_allocations(
      std::vector<tracebuf::Allocation>{{0, kOtherBase, kRows * kRowBytes, "other"},
                                        {1, kInBase, kRows * kRowBytes, "in"},
                                        {2, kOutBase, kRows * kRowBytes, "out"}});
  tracebuf::LaunchInfo launch;
  launch.kernel = "stencil_rows";
  launch.grid = {kRows, 1, 1};
  launch.block = {32, 1, 1};
  launch.snapshot_block_count = kRows;
  const std::uint32_t index = writer.begin_launch(launch);
  for (std::uint32_t y = 0; y < kRows; ++y) {
    std::vector<tracebuf::WarpRecord> records;
    const auto row = [&](std::uint32_t id, std::uint64_t base, std::uint32_t r, AccessKind kind) {
      tracebuf::WarpRecord record;
      record.static_id = id;
      record.kind = kind;
      record.element_size = 4;
      record.active_mask = 0xFFFFFFFFu;
      for (std::uint32_t lane = 0; lane < 32; ++lane)
        record.addresses[lane] = base + r * kRowBytes + 4 * lane;
      records.push_back(record);
    };
    if (y > 0)
      row(0, kInBase, y - 1, AccessKind::kRead);
    row(1, kInBase, y, AccessKind::kRead);
    if (y + 1 < kRows)
      row(2, kInBase, y + 1, AccessKind::kRead);
    row(3, kOutBase, y, AccessKind::kWrite);
    writer.write_warp_records(index, y, 0, records);
  }
  writer.finish();
  return path;
}

TEST(FootprintEdges, AHaloIndexOutsideTheArrayIsOutsideTheFootprint) {
  const std::string path = write_guarded_stencil();
  const auto reader = tracebuf::TraceReader::open(path);
  const LaunchFootprint fp = launch_footprint(reader, 0);
  ASSERT_EQ(fp.blocks.size(), kRows);
  for (const RelationUse& use : fp.relations) {
    EXPECT_TRUE(use.fallback.empty()) << use.relation.expression << ": " << use.fallback;
  }
  // Row 0's estimate of `in` starts at in's first byte (not at row -1, the last row of
  // `other`), row 7's ends at in's last byte (not at row 8, the first row of `out`).
  EXPECT_EQ(fp.blocks[0].estimated, (std::vector<ByteRange>{{kInBase, kInBase + 2 * kRowBytes},
                                                            {kOutBase, kOutBase + kRowBytes}}));
  EXPECT_EQ(fp.blocks[7].estimated,
            (std::vector<ByteRange>{{kInBase + 6 * kRowBytes, kInBase + 8 * kRowBytes},
                                    {kOutBase + 7 * kRowBytes, kOutBase + 8 * kRowBytes}}));
  // Block y on module y, one row per page: `in` has the rows y-1..y+1 within 0..7 of each
  // module, 8 x 3 - 2 = 22 true positives of 64 cells; `out` row y, 8 of 64; no error.
  std::vector<std::uint32_t> modules(kRows);
  for (std::uint32_t y = 0; y < kRows; ++y)
    modules[y] = y;
  const FootprintComparison c = compare_footprints(reader, fp, modules, kRows, kRowBytes);
  ASSERT_EQ(c.allocations.size(), 2u);  // `other`: never touched, never estimated
  EXPECT_EQ(c.allocations[0].name, "in");
  EXPECT_EQ(c.allocations[0].confusion.true_positives, 22u);
  EXPECT_EQ(c.allocations[0].confusion.false_positives, 0u);
  EXPECT_EQ(c.allocations[0].confusion.true_negatives, 42u);
  EXPECT_EQ(c.allocations[1].name, "out");
  EXPECT_EQ(c.allocations[1].confusion.true_positives, 8u);
  EXPECT_EQ(c.allocations[1].confusion.false_positives, 0u);
  EXPECT_EQ(c.allocations[1].confusion.true_negatives, 56u);
  EXPECT_EQ(c.overall.false_positives, 0u);
  EXPECT_EQ(c.overall.false_negatives, 0u);
  EXPECT_EQ(c.overall.cells(), 128u);
  EXPECT_DOUBLE_EQ(c.overall.accuracy(), 1.0);
  std::filesystem::remove(path);
}

TEST(FootprintEdges, AnAllocationTheLaunchNeverUsesGivesItNoCells) {
  // One module, 1 KiB pages: each allocation is one page. `in` and `out` are touched and
  // estimated (2 true positives); `other` is neither, and its true negative must not count:
  // 2 cells, not 3.
  const std::string path = write_guarded_stencil();
  const auto reader = tracebuf::TraceReader::open(path);
  const LaunchFootprint fp = launch_footprint(reader, 0);
  const FootprintComparison c =
      compare_footprints(reader, fp, std::vector<std::uint32_t>(kRows, 0), 1, kRows * kRowBytes);
  EXPECT_EQ(c.overall.cells(), 2u);
  EXPECT_EQ(c.overall.true_positives, 2u);
  ASSERT_EQ(c.allocations.size(), 2u);
  EXPECT_EQ(c.allocations[0].name, "in");
  EXPECT_EQ(c.allocations[1].name, "out");
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace memcarlo::footprint
