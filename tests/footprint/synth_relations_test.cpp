// The index forms memcarlo synth writes for its spmv, matmul and stencil2d listings give the
// relations TAFE would register by hand for that source (§3, Table 4: SpMV is TID_DEP + INDIR +
// INDIR_RANGE, stencils and matmul TID_DEP), and the footprints follow from them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "memcarlo/footprint/footprint.hpp"
#include "memcarlo/synth/synth.hpp"

namespace memcarlo::footprint {
namespace {

std::string synthesize(synth::SynthOptions options) {
  const std::string path =
      (std::filesystem::temp_directory_path() /
       ("memcarlo_fp_synth_" + options.pattern + "_" + std::to_string(::getpid()) + ".mct"))
          .string();
  synth::generate(options, path);
  return path;
}

std::vector<RelationKind> kinds(const LaunchFootprint& fp) {
  std::vector<RelationKind> out;
  for (const RelationUse& use : fp.relations) {
    EXPECT_TRUE(use.fallback.empty()) << use.relation.expression << ": " << use.fallback;
    out.push_back(use.relation.kind);
  }
  return out;
}

TEST(SynthRelations, SpmvIsTidDepIndirectRangeAndIndirect) {
  synth::SynthOptions options;
  options.pattern = "spmv";
  options.blocks = 4;
  options.threads = 64;
  options.nnz_per_row = 8;
  options.matrix = synth::MatrixLayout::kBlockDiagonal;
  const std::string path = synthesize(options);
  const auto reader = tracebuf::TraceReader::open(path);
  const LaunchFootprint fp = launch_footprint(reader, 0);
  using K = RelationKind;
  EXPECT_EQ(kinds(fp), (std::vector<K>{K::kTidDep, K::kTidDep, K::kIndirectRange, K::kIndirect,
                                       K::kIndirectRange, K::kTidDep}));
  // One module per block, 4-byte pages: the CSR arrays' ranges are contiguous per block, so
  // TID_DEP and INDIR_RANGE are exact; only y (INDIR) may have false positives.
  const FootprintComparison c = compare_footprints(reader, fp, {0, 1, 2, 3}, 4, 4);
  for (const AllocationPages& pages : c.allocations) {
    EXPECT_EQ(pages.confusion.false_negatives, 0u) << pages.name;
    if (pages.name != "y") {
      EXPECT_EQ(pages.confusion.false_positives, 0u) << pages.name;
    }
  }
  std::filesystem::remove(path);
}

TEST(SynthRelations, StencilAndMatmulAreThreadDependentWithRecordedN) {
  for (const char* pattern : {"stencil2d", "matmul"}) {
    synth::SynthOptions options;
    options.pattern = pattern;
    options.size = 64;
    options.threads = 64;
    options.block_width = 16;
    const std::string path = synthesize(options);
    const auto reader = tracebuf::TraceReader::open(path);
    EXPECT_EQ(recorded_arguments(reader, 0).at("N"), 64) << pattern;
    const LaunchFootprint fp = launch_footprint(reader, 0);
    for (const RelationKind kind : kinds(fp)) {
      EXPECT_EQ(kind, RelationKind::kTidDep) << pattern;
    }
    // Every thread of the grid touches its element in matmul; stencil2d's boundary threads do
    // not (if (x > 0 && x < N - 1 ...)), which TID_DEP over-approximates: false positives, never
    // false negatives.
    std::vector<std::uint32_t> one_module(fp.blocks.size(), 0);
    const FootprintComparison c = compare_footprints(reader, fp, one_module, 1, 4);
    EXPECT_EQ(c.overall.false_negatives, 0u) << pattern;
    if (std::string(pattern) == "matmul") {
      EXPECT_EQ(c.overall.false_positives, 0u);
    } else {
      EXPECT_GT(c.overall.false_positives, 0u);
    }
    std::filesystem::remove(path);
  }
}

}  // namespace
}  // namespace memcarlo::footprint
