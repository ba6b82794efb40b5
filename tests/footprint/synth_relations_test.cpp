// The index forms memcarlo synth writes for its spmv, matmul and stencil2d listings give the
// relations TAFE would register by hand for that source (§3, Table 4: SpMV is TID_DEP + INDIR +
// INDIR_RANGE, stencils and matmul TID_DEP), and the footprints follow from them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "memcarlo/footprint/footprint.hpp"
#include "memcarlo/synth/synth.hpp"
#include "memcarlo/tracebuf/writer.hpp"

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

/// A copy of the trace at `from` with `registrations` (taf_register records, a JSON array text
/// without brackets) added to its annotations.
std::string with_registrations(const std::string& from, const std::string& registrations) {
  const auto reader = tracebuf::TraceReader::open(from);
  const std::string to = from + ".taf.mct";
  tracebuf::TraceWriter writer(to, reader.meta());
  writer.write_loads(reader.loads());
  writer.write_allocations(reader.allocations());
  std::string annotations = reader.annotations_json();
  annotations.pop_back();  // "]"
  annotations += (annotations.size() > 1 ? ", " : "") + registrations + "]";
  writer.write_annotations(annotations);
  for (const tracebuf::LaunchStreams& launch : reader.launches()) {
    const std::uint32_t index = writer.begin_launch(launch.info);
    for (const tracebuf::WarpStream& warp : launch.warps) {
      std::vector<tracebuf::WarpRecord> records;
      warp.for_each(
          [&](const tracebuf::RecordView& record) { records.push_back(record.to_record()); });
      writer.write_warp_records(index, warp.block, warp.warp, records);
    }
  }
  writer.finish();
  return to;
}

std::string registration(std::uint64_t base, std::uint64_t size, const std::string& rest) {
  return R"({"kind": "taf_register", "payload": {"base": )" + std::to_string(base) +
         R"(, "size": )" + std::to_string(size) + R"(, "element_size": 4, )" + rest + "}}";
}

std::uint64_t base_of(const tracebuf::TraceReader& reader, const std::string& name) {
  for (const tracebuf::Allocation& allocation : reader.allocations()) {
    if (allocation.name == name)
      return allocation.base;
  }
  ADD_FAILURE() << "no allocation " << name;
  return 0;
}

std::uint64_t elements_of(const tracebuf::TraceReader& reader, const std::string& name) {
  for (const tracebuf::Allocation& allocation : reader.allocations()) {
    if (allocation.name == name)
      return allocation.size / 4;
  }
  ADD_FAILURE() << "no allocation " << name;
  return 0;
}

/// The cells with the blocks cut into `modules` contiguous chunks; `hand_relations` receives the
/// number of taf_register relations in force (every derived one they replace is superseded).
FootprintComparison cells(const std::string& path, std::uint32_t modules,
                          std::size_t& hand_relations) {
  const auto reader = tracebuf::TraceReader::open(path);
  const LaunchFootprint fp = launch_footprint(reader, 0);
  hand_relations = 0;
  for (const RelationUse& use : fp.relations) {
    if (use.source == "taf_register") {
      ++hand_relations;
      EXPECT_TRUE(use.fallback.empty()) << use.fallback;
    }
  }
  std::vector<std::uint32_t> module(fp.blocks.size());
  for (std::size_t b = 0; b < module.size(); ++b) {
    module[b] = static_cast<std::uint32_t>(b * modules / module.size());
  }
  return compare_footprints(reader, fp, module, modules, 4);
}

TEST(HandAgainstDerived, SpmvRegistrationsGiveTheDerivedCellsButTheRowEnds) {
  synth::SynthOptions options;
  options.pattern = "spmv";
  options.blocks = 4;
  options.threads = 64;
  options.nnz_per_row = 8;
  options.matrix = synth::MatrixLayout::kBlockDiagonal;
  const std::string path = synthesize(options);
  const auto reader = tracebuf::TraceReader::open(path);
  const std::uint64_t rows = 4 * 64;
  const std::uint64_t row_indices = base_of(reader, "rowIndices");
  // What a programmer registers for the listing (TAFE Listing 1's pattern, BLOCKSIZE 64).
  const std::string tid = R"("type": "TID_DEP", "m": [1, 0, 0, 64, 0, 0], "c": 0)";
  const std::string range = R"("type": "INDIR_RANGE", "pbase_s": )" + std::to_string(row_indices) +
                            R"(, "c_s": 0, "pbase_e": )" + std::to_string(row_indices) +
                            R"(, "c_e": 0)";
  const std::string hand = with_registrations(
      path,
      registration(row_indices, rows + 1, tid) + ", " +
          registration(base_of(reader, "indices"), elements_of(reader, "indices"), range) + ", " +
          registration(base_of(reader, "val"), elements_of(reader, "val"), range) + ", " +
          registration(base_of(reader, "y"), rows,
                       R"("type": "INDIR", "pbase": )" +
                           std::to_string(base_of(reader, "indices")) + R"(, "m": 1, "c": 0)") +
          ", " + registration(base_of(reader, "x"), rows, tid));
  std::size_t none = 0, registered = 0;
  const FootprintComparison derived = cells(path, 4, none);
  const FootprintComparison by_hand = cells(hand, 4, registered);
  EXPECT_EQ(none, 0u);
  ASSERT_EQ(derived.allocations.size(), by_hand.allocations.size());
  for (std::size_t a = 0; a < derived.allocations.size(); ++a) {
    const Confusion& d = derived.allocations[a].confusion;
    ASSERT_EQ(registered, 5u);
    const Confusion& h = by_hand.allocations[a].confusion;
    if (derived.allocations[a].name == "rowIndices") {
      // rowIndices[myi + 1] reads the next block's first row pointer (and the last one): one
      // element per block that the one registration, rowIndices[myi], leaves out.
      EXPECT_EQ(d.false_negatives, 0u);
      EXPECT_EQ(h.false_negatives, 4u);
      EXPECT_EQ(h.true_positives + 4, d.true_positives);
      continue;
    }
    EXPECT_EQ(h.true_positives, d.true_positives) << derived.allocations[a].name;
    EXPECT_EQ(h.false_positives, d.false_positives) << derived.allocations[a].name;
    EXPECT_EQ(h.false_negatives, d.false_negatives) << derived.allocations[a].name;
  }
  std::filesystem::remove(path);
  std::filesystem::remove(hand);
}

TEST(HandAgainstDerived, StencilRegistrationsGiveTheDerivedCells) {
  synth::SynthOptions options;
  options.pattern = "stencil2d";
  options.size = 64;
  options.threads = 64;
  options.block_width = 16;
  const std::string path = synthesize(options);
  const auto reader = tracebuf::TraceReader::open(path);
  // in[(y + dy) * N + x + dx], y = blockIdx.y * 4 + threadIdx.y, x = blockIdx.x * 16 +
  // threadIdx.x, N = 64: m = [1, 64, 0, 16, 256, 0], one registration per neighbour.
  const std::string m = R"("type": "TID_DEP", "m": [1, 64, 0, 16, 256, 0], "c": )";
  std::string registrations;
  for (const int c : {0, -64, 64, -1, 1}) {
    registrations += registration(base_of(reader, "in"), 64 * 64, m + std::to_string(c)) + ", ";
  }
  registrations += registration(base_of(reader, "out"), 64 * 64, m + "0");
  const std::string hand = with_registrations(path, registrations);
  std::size_t none = 0, registered = 0;
  const FootprintComparison derived = cells(path, 4, none);
  const FootprintComparison by_hand = cells(hand, 4, registered);
  EXPECT_EQ(none, 0u);
  ASSERT_EQ(derived.allocations.size(), by_hand.allocations.size());
  for (std::size_t a = 0; a < derived.allocations.size(); ++a) {
    EXPECT_EQ(by_hand.allocations[a].estimated, derived.allocations[a].estimated)
        << derived.allocations[a].name;
    EXPECT_EQ(by_hand.allocations[a].actual, derived.allocations[a].actual);
  }
  EXPECT_EQ(registered, 6u);
  EXPECT_GT(by_hand.overall.false_positives, 0u);  // boundary threads, both ways
  std::filesystem::remove(path);
  std::filesystem::remove(hand);
}

}  // namespace
}  // namespace memcarlo::footprint
