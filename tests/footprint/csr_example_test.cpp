// TAFE's CSR example (§4, Fig. 8b) as a known answer: the relations derived from the loads table,
// the extent tables, and the false positives of Cost that one extent per block causes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "footprint/csr_trace.hpp"
#include "memcarlo/footprint/block_order.hpp"
#include "memcarlo/footprint/footprint.hpp"
#include "memcarlo/footprint/tracking.hpp"
#include "memcarlo/tracebuf/metadata.hpp"

namespace memcarlo::footprint {
namespace {

using test_support::kCostBase;

class CsrExample : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (std::filesystem::temp_directory_path() /
             ("memcarlo_csr_footprint_" + std::to_string(::getpid()) + ".mct"))
                .string();
    test_support::write_csr_trace(path_);
  }
  void TearDown() override { std::filesystem::remove(path_); }
  std::string path_;
};

const ExtentTable* table_of(const LaunchFootprint& fp, std::uint32_t primary,
                            std::uint32_t dependent) {
  for (const ExtentTable& table : fp.extents) {
    if (table.primary_load == primary && table.dependent_load == dependent)
      return &table;
  }
  return nullptr;
}

TEST_F(CsrExample, RelationsAreDerivedFromTheLoadsTable) {
  const auto reader = tracebuf::TraceReader::open(path_);
  const std::vector<Relation> relations = derive_relations(reader.loads());
  ASSERT_EQ(relations.size(), 4u);
  EXPECT_EQ(relations[0].kind, RelationKind::kTidDep);
  EXPECT_EQ(relations[1].kind, RelationKind::kTidDep);
  // for (j = Nodes[i]; j < Nodes[i + 1]; ++j) Edges[j]: INDIR_RANGE over loads 0 and 1.
  EXPECT_EQ(relations[2].kind, RelationKind::kIndirectRange);
  EXPECT_EQ(relations[2].primary, 0u);
  EXPECT_EQ(relations[2].primary_end, 1u);
  EXPECT_EQ(relations[2].range_variable, "j");
  // Cost[Edges[j]]: INDIR with m = 1, c = 0 on load 2.
  EXPECT_EQ(relations[3].kind, RelationKind::kIndirect);
  EXPECT_EQ(relations[3].primary, 2u);
  EXPECT_EQ(relations[3].primary_coefficient, 1);
  EXPECT_EQ(relations[3].primary_constant, 0);
}

TEST_F(CsrExample, ExtentTablesHoldThePapersValues) {
  const auto reader = tracebuf::TraceReader::open(path_);
  const LaunchFootprint fp = launch_footprint(reader, 0);
  ASSERT_EQ(fp.blocks.size(), 2u);
  // Fig. 8b: Nodes extents (0, 2) and (4, 6); Edges extents (0, 3) and (4, 9).
  const ExtentTable* nodes = table_of(fp, 0, 2);
  ASSERT_NE(nodes, nullptr);
  EXPECT_EQ(nodes->per_block[0].min, 0);
  EXPECT_EQ(nodes->per_block[0].max, 2);
  EXPECT_EQ(nodes->per_block[1].min, 4);
  EXPECT_EQ(nodes->per_block[1].max, 6);
  const ExtentTable* edges = table_of(fp, 2, 3);
  ASSERT_NE(edges, nullptr);
  EXPECT_EQ(edges->per_block[0].min, 0);
  EXPECT_EQ(edges->per_block[0].max, 3);
  EXPECT_EQ(edges->per_block[1].min, 4);
  EXPECT_EQ(edges->per_block[1].max, 9);
  // The row ends (Nodes[i + 1]) of block 0 are 2 and 4, of block 1 6 and 8.
  const ExtentTable* ends = table_of(fp, 1, 2);
  ASSERT_NE(ends, nullptr);
  EXPECT_EQ(ends->per_block[0].min, 2);
  EXPECT_EQ(ends->per_block[0].max, 4);
  EXPECT_EQ(ends->per_block[1].max, 8);
}

TEST_F(CsrExample, ExtentApproximationMakesCost6And7FalsePositives) {
  const auto reader = tracebuf::TraceReader::open(path_);
  const LaunchFootprint fp = launch_footprint(reader, 0);
  for (const RelationUse& use : fp.relations) {
    EXPECT_TRUE(use.fallback.empty()) << use.relation.expression << ": " << use.fallback;
  }
  // Block 1 is estimated to read Cost[4-9] (the extent (4, 9)); it reads Cost 4, 5, 8, 9.
  const std::vector<ByteRange> cost_estimate = {{kCostBase + 4 * 4, kCostBase + 10 * 4}};
  std::vector<ByteRange> estimated_cost;
  for (const ByteRange& range : fp.blocks[1].estimated) {
    if (range.begin >= kCostBase)
      estimated_cost.push_back(range);
  }
  EXPECT_EQ(estimated_cost, cost_estimate);

  // One module per block, one element per page: the cells by hand.
  const FootprintComparison c = compare_footprints(reader, fp, {0, 1}, 2, 4);
  ASSERT_EQ(c.allocations.size(), 3u);
  const AllocationPages& nodes = c.allocations[0];
  // Nodes 0-2 on module 0, 2-4 on module 1, all estimated exactly: 6 TP, 4 TN of 10 cells.
  EXPECT_EQ(nodes.confusion.true_positives, 6u);
  EXPECT_EQ(nodes.confusion.true_negatives, 4u);
  EXPECT_EQ(nodes.confusion.false_positives + nodes.confusion.false_negatives, 0u);
  // Edges 0-3 on module 0 and 4-7 on module 1 (INDIR_RANGE is exact): 8 TP, 8 TN.
  const AllocationPages& edges = c.allocations[1];
  EXPECT_EQ(edges.confusion.true_positives, 8u);
  EXPECT_EQ(edges.confusion.true_negatives, 8u);
  EXPECT_EQ(edges.confusion.false_positives + edges.confusion.false_negatives, 0u);
  // Cost: module 0 reads 0-3 as estimated; module 1 reads 4, 5, 8, 9 of the estimated 4-9.
  const AllocationPages& cost = c.allocations[2];
  EXPECT_EQ(cost.name, "Cost");
  EXPECT_EQ(cost.confusion.true_positives, 8u);
  EXPECT_EQ(cost.confusion.false_positives, 2u);
  EXPECT_EQ(cost.confusion.false_negatives, 0u);
  EXPECT_EQ(cost.confusion.true_negatives, 10u);
  EXPECT_EQ(cost.estimated[6], 0b10u);  // Cost[6]: module 1 estimated, not accessed
  EXPECT_EQ(cost.actual[6], 0u);
  EXPECT_EQ(cost.estimated[7], 0b10u);
  EXPECT_DOUBLE_EQ(cost.confusion.accuracy(), 18.0 / 20.0);
  EXPECT_EQ(c.overall.cells(), 46u);
  EXPECT_DOUBLE_EQ(c.overall.accuracy(), 44.0 / 46.0);
}

TEST_F(CsrExample, OnePageForEverythingIsExact) {
  // With a page larger than the arrays, every array is one page: both modules touch all three.
  const auto reader = tracebuf::TraceReader::open(path_);
  const LaunchFootprint fp = launch_footprint(reader, 0);
  const FootprintComparison c = compare_footprints(reader, fp, {0, 1}, 2, 1 << 20);
  EXPECT_EQ(c.overall.true_positives, 6u);  // Nodes, Edges and Cost share the one page
  EXPECT_EQ(c.overall.false_positives + c.overall.false_negatives, 0u);
}

TEST_F(CsrExample, HistoryBufferOverSequentialInitialization) {
  // §4.3: Nodes is initialized Nodes[0..4] in order. Its relation (Nodes[tid]) gives block 0
  // indices 0-1 and block 1 indices 2-3: stores 0 and 2 miss, 1 and 3 hit, 4 is no block's
  // (only Nodes[tid + 1] reads it) and misses after searching both blocks.
  const auto reader = tracebuf::TraceReader::open(path_);
  const LaunchFootprint fp = launch_footprint(reader, 0);
  const auto ranges_of = [&](std::uint32_t load) -> const ExtentTable* {
    for (const ExtentTable& table : fp.index_ranges) {
      if (table.primary_load == load)
        return &table;
    }
    return nullptr;
  };
  ASSERT_NE(ranges_of(0), nullptr);
  const std::vector<std::int64_t> nodes_stores = {0, 1, 2, 3, 4};
  const HistoryBufferStats nodes = track_primary_stores(ranges_of(0)->per_block, nodes_stores);
  EXPECT_EQ(nodes.stores, 5u);
  EXPECT_EQ(nodes.hits, 2u);
  EXPECT_EQ(nodes.misses, 3u);
  EXPECT_EQ(nodes.untracked, 1u);
  EXPECT_EQ(nodes.ranges_computed, 1u + 1u + 2u);
  // Edges, a data-dependent primary (INDIR_RANGE): blocks 0 and 1 read Edges[0-3] and [4-7].
  ASSERT_NE(ranges_of(2), nullptr);
  EXPECT_EQ(ranges_of(2)->per_block[1].min, 4);
  EXPECT_EQ(ranges_of(2)->per_block[1].max, 7);
  const std::vector<std::int64_t> edges_stores = {0, 1, 2, 3, 4, 5, 6, 7};
  const HistoryBufferStats edges = track_primary_stores(ranges_of(2)->per_block, edges_stores);
  EXPECT_EQ(edges.hits, 6u);
  EXPECT_DOUBLE_EQ(edges.hit_rate(), 6.0 / 8.0);
}

/// Cells of the CSR example with one module per block and one element per page.
FootprintComparison csr_cells(const std::string& path) {
  const auto reader = tracebuf::TraceReader::open(path);
  return compare_footprints(reader, launch_footprint(reader, 0), {0, 1}, 2, 4);
}

TEST(TafRegister, HandRegistrationsOfListing1AgreeWithTheDerivedRelations) {
  // The registrations of the paper's Listing 1 give Edges and Cost the cells the derived relations
  // give. Nodes is registered with Nodes[tid] only, so Nodes[tid + 1]'s last element per block
  // (Nodes[2] on module 0, Nodes[4] on module 1) is a false negative the derived relations, one
  // per access, do not have.
  for (const bool with_index_forms : {true, false}) {
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("memcarlo_csr_taf_" + std::to_string(::getpid()) + ".mct"))
                                 .string();
    test_support::write_csr_trace(path, with_index_forms, test_support::listing1_registrations());
    const FootprintComparison c = csr_cells(path);
    ASSERT_EQ(c.allocations.size(), 3u);
    const Confusion& nodes = c.allocations[0].confusion;
    EXPECT_EQ(nodes.true_positives, 4u) << with_index_forms;
    EXPECT_EQ(nodes.false_negatives, 2u);
    EXPECT_EQ(nodes.false_positives, 0u);
    EXPECT_EQ(nodes.true_negatives, 4u);
    const Confusion& edges = c.allocations[1].confusion;
    EXPECT_EQ(edges.true_positives, 8u);
    EXPECT_EQ(edges.false_positives + edges.false_negatives, 0u);
    const Confusion& cost = c.allocations[2].confusion;
    EXPECT_EQ(cost.true_positives, 8u);
    EXPECT_EQ(cost.false_positives, 2u);
    EXPECT_EQ(cost.false_negatives, 0u);
    const auto reader = tracebuf::TraceReader::open(path);
    const LaunchFootprint fp = launch_footprint(reader, 0);
    std::size_t hand = 0;
    for (const RelationUse& use : fp.relations) {
      if (use.source == "taf_register") {
        ++hand;
        EXPECT_TRUE(use.fallback.empty()) << use.fallback;
      } else {
        EXPECT_TRUE(use.superseded_by.has_value()) << use.relation.expression;
      }
    }
    EXPECT_EQ(hand, 3u);
    std::filesystem::remove(path);
  }
}

TEST(TafRegister, ResetRemovesARegistrationAndMalformedOnesAreNamed) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("memcarlo_csr_taf_reset_" + std::to_string(::getpid()) + ".mct"))
                               .string();
  std::string annotations = test_support::listing1_registrations();
  annotations.pop_back();
  annotations += ", {\"kind\": \"taf_reset\", \"payload\": {\"base\": " +
                 std::to_string(test_support::kNodesBase) + "}}]";
  test_support::write_csr_trace(path, true, annotations);
  {
    const auto reader = tracebuf::TraceReader::open(path);
    EXPECT_EQ(recorded_registrations(reader, 0).size(), 2u);
    // Nodes falls back to its derived relations: exact again.
    const FootprintComparison c = csr_cells(path);
    EXPECT_EQ(c.allocations[0].confusion.false_negatives, 0u);
  }
  test_support::write_csr_trace(
      path, true, R"([{"kind": "taf_register", "payload": {"base": 1, "type": "TID_DEP"}}])");
  const auto reader = tracebuf::TraceReader::open(path);
  try {
    (void)recorded_registrations(reader, 0);
    FAIL() << "expected a MetadataError";
  } catch (const tracebuf::MetadataError& e) {
    EXPECT_NE(std::string(e.what()).find("annotations[0] (taf_register).payload.size"),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove(path);
}

TEST(FootprintInputs, TraceWithoutIndexFormsIsMissingInformation) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("memcarlo_csr_noindex_" + std::to_string(::getpid()) + ".mct"))
                               .string();
  test_support::write_csr_trace(path, false);
  const auto reader = tracebuf::TraceReader::open(path);
  EXPECT_THROW(launch_footprint(reader, 0), MissingInformation);
  EXPECT_THROW(launch_footprint(reader, 7), MissingInformation);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace memcarlo::footprint

namespace memcarlo::footprint {
namespace {

std::string with_calls(const std::string& calls) {
  std::string annotations = test_support::listing1_registrations();
  annotations.pop_back();
  return annotations + ", " + calls + "]";
}

std::string base_call(const char* kind, std::uint64_t base) {
  return std::string("{\"kind\": \"") + kind + "\", \"payload\": {\"base\": " +
         std::to_string(base) + "}}";
}

TEST(TafRegister, OnlyArraysMarkedReadyAreEvaluatedOnceTheTraceUsesSetRdy) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("memcarlo_csr_taf_ready_" + std::to_string(::getpid()) + ".mct"))
                               .string();
  // Nodes and Cost marked ready, Edges not (the paper marks a data-dependent array ready only
  // once its primary array holds its values).
  test_support::write_csr_trace(
      path, true,
      with_calls(base_call("taf_setRdy", test_support::kNodesBase) + ", " +
                 base_call("taf_setRdy", test_support::kCostBase) +
                 R"(, {"kind": "taf_paramSetup", "payload": {"block": [2, 1, 1], "grid": [2, 1, 1]}})"));
  const auto reader = tracebuf::TraceReader::open(path);
  const auto registrations = recorded_registrations(reader, 0);
  ASSERT_EQ(registrations.size(), 3u);
  EXPECT_TRUE(registrations[0].ready);
  EXPECT_FALSE(registrations[1].ready);  // Edges
  EXPECT_TRUE(registrations[2].ready);
  const LaunchFootprint fp = launch_footprint(reader, 0);
  std::size_t hand = 0;
  for (const RelationUse& use : fp.relations) {
    hand += use.source == "taf_register" ? 1 : 0;
    if (use.relation.expression == "Edges[j]") {
      EXPECT_FALSE(use.superseded_by.has_value());  // the derived relation stands for Edges
    }
  }
  EXPECT_EQ(hand, 2u);
  ASSERT_EQ(fp.notes.size(), 1u);  // the shape matches the launch: no note about it
  EXPECT_NE(fp.notes[0].find("not marked ready"), std::string::npos) << fp.notes[0];
  std::filesystem::remove(path);
}

TEST(TafRegister, AParamSetupShapeOtherThanTheLaunchsIsAWarning) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("memcarlo_csr_taf_shape_" + std::to_string(::getpid()) + ".mct"))
                               .string();
  test_support::write_csr_trace(
      path, true,
      with_calls(R"({"kind": "taf_paramSetup", "payload": {"block": [4, 1, 1], "grid": [1, 1, 1]}})"));
  const auto reader = tracebuf::TraceReader::open(path);
  ASSERT_TRUE(recorded_param_setup(reader, 0).has_value());
  EXPECT_EQ(recorded_param_setup(reader, 0)->block[0], 4u);
  const LaunchFootprint fp = launch_footprint(reader, 0);
  ASSERT_EQ(fp.notes.size(), 1u);
  EXPECT_NE(fp.notes[0].find("taf_paramSetup gave block [4, 1, 1], grid [1, 1, 1] but launch 0 "
                             "has block [2, 1, 1], grid [2, 1, 1]"),
            std::string::npos)
      << fp.notes[0];
  // Still evaluated (with the launch's ids): the three registrations are in force.
  std::size_t hand = 0;
  for (const RelationUse& use : fp.relations) {
    hand += use.source == "taf_register" ? 1 : 0;
  }
  EXPECT_EQ(hand, 3u);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace memcarlo::footprint

namespace memcarlo::footprint {
namespace {

TafRegistration tid_dep(std::array<std::int64_t, 6> m, bool ready = true) {
  TafRegistration r;
  r.type = "TID_DEP";
  r.base = 0x1000;
  r.size = 1024;
  r.element_size = 4;
  r.m = m;
  r.ready = ready;
  return r;
}

TEST(TafeBlockOrder, TheFirstReadyRegisteredArraysBlockCoefficientsDecide) {
  // a[(blockIdx.y·4 + threadIdx.y)·64 + blockIdx.x·16 + threadIdx.x]: x (16) before y (256).
  const std::vector<TafRegistration> row_major = {tid_dep({1, 64, 0, 16, 256, 0})};
  const auto rows = registered_block_order(row_major);
  ASSERT_TRUE(rows.has_value());
  EXPECT_TRUE(rows->from_registration);
  // Smallest coefficient fastest: z (0, a grid of depth 1), x (16), y (256).
  EXPECT_EQ(rows->fastest_first, (std::array<std::uint8_t, 3>{2, 0, 1}));
  EXPECT_EQ(rows->coefficients, (std::array<std::int64_t, 3>{16, 256, 0}));
  const tracebuf::Dim3 grid{4, 4, 1};
  // Column-major: a[(blockIdx.x·16 + threadIdx.x)·64 + blockIdx.y·4 + threadIdx.y]: y first.
  const std::vector<TafRegistration> column_major = {
      tid_dep({64, 1, 0, 1024, 4, 0}, false),  // not ready: skipped
      tid_dep({0, 0, 0, 0, 0, 0}),             // a scalar: says nothing about blocks
      tid_dep({64, 1, 0, 1024, 4, 0})};
  const auto columns = registered_block_order(column_major);
  ASSERT_TRUE(columns.has_value());
  // Block (x=1, y=0) comes after all of column x=0: keys of (0,1) < (1,0).
  EXPECT_LT(order_key(*columns, 0 + 4 * 1, grid), order_key(*columns, 1 + 4 * 0, grid));
  EXPECT_LT(order_key(*rows, 1 + 4 * 0, grid), order_key(*rows, 0 + 4 * 1, grid));
  EXPECT_FALSE(registered_block_order(std::vector<TafRegistration>{tid_dep({1, 0, 0, 0, 0, 0})})
                   .has_value());
  // Without a usable registration the loads table decides (here: none, launch order).
  const BlockOrder fallback = tafe_block_order({}, "k", tracebuf::Dim3{16, 4, 1}, {},
                                               std::vector<TafRegistration>{});
  EXPECT_FALSE(fallback.from_registration);
  EXPECT_FALSE(fallback.from_relation);
}

}  // namespace
}  // namespace memcarlo::footprint
