// TAF relations derived from index forms, and TID_DEP footprints evaluated with recorded kernel
// arguments, loops and control divergence (TAFE §3.1, §4.4).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "memcarlo/footprint/footprint.hpp"
#include "memcarlo/tracebuf/metadata.hpp"
#include "memcarlo/tracebuf/writer.hpp"

namespace memcarlo::footprint {
namespace {

tracebuf::LoadInfo load_with_index(std::uint32_t id, const std::string& index_json) {
  tracebuf::LoadInfo load;
  load.id = id;
  load.kernels = {"k"};
  load.expression = "a[...]";
  load.element_size = 4;
  load.base = "a";
  load.extra_json = "{\"index\": " + index_json + "}";
  return load;
}

TEST(DeriveRelations, FormsMapToTafeKinds) {
  const std::vector<tracebuf::LoadInfo> loads = {
      load_with_index(0, R"({"kind": "non_affine", "root": "a", "reason": "remainder %"})"),
      load_with_index(1, R"({"kind": "affine", "root": "load#0", "terms": [], "constant": 0})"),
      load_with_index(2, R"({"kind": "data_dependent", "root": "a", "expression": "2*load#3 + 1",
                             "terms": [{"coefficient": 2, "symbols": ["load#3"]}], "constant": 1})"),
      load_with_index(3, R"({"kind": "data_dependent", "root": "a", "expression": "load#3*n",
                             "terms": [{"coefficient": 1, "symbols": ["load#3", "n"]}], "constant": 0})"),
      load_with_index(4, R"({"kind": "affine", "root": "a", "expression": "i",
                             "terms": [{"coefficient": 1, "symbols": ["i"]}], "constant": 0,
                             "inductions": [{"variable": "i", "init": {"expression": "0", "terms": [], "constant": 0},
                                             "step": {"reason": "call to f"}}]})"),
  };
  tracebuf::LoadInfo plain;
  plain.id = 5;
  std::vector<tracebuf::LoadInfo> all = loads;
  all.push_back(plain);
  const std::vector<Relation> relations = derive_relations(all);
  ASSERT_EQ(relations.size(), 6u);
  EXPECT_EQ(relations[0].kind, RelationKind::kUnsupported);
  EXPECT_NE(relations[0].reason.find("remainder"), std::string::npos);
  EXPECT_EQ(relations[1].kind, RelationKind::kUnsupported);
  EXPECT_NE(relations[1].reason.find("loaded pointer"), std::string::npos);
  EXPECT_EQ(relations[2].kind, RelationKind::kIndirect);
  EXPECT_EQ(relations[2].primary, 3u);
  EXPECT_EQ(relations[2].primary_coefficient, 2);
  EXPECT_EQ(relations[2].primary_constant, 1);
  EXPECT_EQ(relations[3].kind, RelationKind::kUnsupported);  // not m·P[r] + c
  EXPECT_EQ(relations[4].kind, RelationKind::kUnsupported);  // a loop without a polynomial step
  EXPECT_EQ(relations[5].kind, RelationKind::kUnsupported);
  EXPECT_EQ(relations[5].reason, "no index form in the loads table");
  EXPECT_TRUE(has_index_forms(loads));
  EXPECT_FALSE(has_index_forms(std::vector<tracebuf::LoadInfo>{plain}));
}

/// Rodinia bfs's edge loop, `for (i = nodes[tid].start; i < nodes[tid].count + nodes[tid].start;
/// ++i) edges[i]`, as the instrumenter writes it: the bound rereads the start with a load of its
/// own (load 2, the same element as load 0). nodes holds {start, count} pairs.
std::vector<tracebuf::LoadInfo> count_loop_loads(const std::string& bound_start) {
  const std::string node = R"({"kind": "affine", "root": "nodes", "unit": "elements",
      "expression": "2*threadIdx.x + C", "terms": [{"coefficient": 2, "symbols": ["threadIdx.x"]}],
      "constant": C, "symbols": {"threadIdx.x": "thread"}, "inductions": []})";
  const auto node_load = [&](std::uint32_t id, const char* constant) {
    std::string index = node;
    for (std::size_t at; (at = index.find('C')) != std::string::npos;)
      index.replace(at, 1, constant);
    tracebuf::LoadInfo load = load_with_index(id, index);
    load.base = "nodes";
    return load;
  };
  std::vector<tracebuf::LoadInfo> loads = {node_load(0, "0"), node_load(1, "1"), node_load(2, "0"),
                                           node_load(3, "1")};
  loads.push_back(load_with_index(4, R"({"kind": "affine", "root": "edges", "unit": "elements",
      "expression": "i", "terms": [{"coefficient": 1, "symbols": ["i"]}], "constant": 0,
      "symbols": {"i": "induction", "load#0": "load", "load#1": "load", "load#)" +
                                         bound_start +
                                         R"(": "load"},
      "inductions": [{"variable": "i", "loop_depth": 1,
        "init": {"expression": "load#0", "terms": [{"coefficient": 1, "symbols": ["load#0"]}], "constant": 0},
        "step": {"expression": "1", "terms": [], "constant": 1},
        "bound": {"expression": "load#1 + load#B", "terms": [{"coefficient": 1, "symbols": ["load#1"]},
                  {"coefficient": 1, "symbols": ["load#)" +
                                         bound_start + R"("]}], "constant": 0},
        "comparison": "<"}]})"));
  loads[4].base = "edges";
  for (tracebuf::LoadInfo& load : loads)
    load.function = "k";
  return loads;
}

TEST(DeriveRelations, CountFromTheStartIsAnIndirectRange) {
  // The bound's second load reads the start (load 2: the element load 0 reads): INDIR_RANGE from
  // load 0 with load 1 as the count.
  const std::vector<Relation> relations = derive_relations(count_loop_loads("2"));
  ASSERT_EQ(relations.size(), 5u);
  EXPECT_EQ(relations[4].kind, RelationKind::kIndirectRange) << relations[4].reason;
  EXPECT_EQ(relations[4].primary, 0u);
  EXPECT_EQ(relations[4].primary_end, 1u);
  EXPECT_TRUE(relations[4].end_adds_start);
  // load#1 + load#3 (the count twice, never the start) is no range from the start.
  const std::vector<Relation> other = derive_relations(count_loop_loads("3"));
  EXPECT_EQ(other[4].kind, RelationKind::kUnsupported);
  EXPECT_NE(other[4].reason.find("bounded by loaded values"), std::string::npos);
}

TEST(IndirectRangeFootprint, CountFromTheStartGivesEachBlockItsEdges) {
  // One block of 2 threads, nodes = {start, count} = {0, 2}, {2, 3}: thread 0 reads edges 0-1,
  // thread 1 edges 2-4. By hand: the block's estimate is edges 0-4 (bytes 0-19 of edges), the
  // starts' extent (0, 2), the counts' (2, 3), the range variable's (0, 4); edges 5-7 are not
  // estimated.
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("memcarlo_count_range_" + std::to_string(::getpid()) + ".mct"))
                               .string();
  constexpr std::uint64_t kNodes = 0x300000000, kEdges = 0x300001000;
  {
    tracebuf::TraceWriter writer(path, {});
    writer.write_loads(count_loop_loads("2"));
    writer.write_allocations(std::vector<tracebuf::Allocation>{{0, kNodes, 4 * 4, "nodes"},
                                                               {1, kEdges, 8 * 4, "edges"}});
    tracebuf::LaunchInfo launch;
    launch.kernel = "k";
    launch.grid = {1, 1, 1};
    launch.block = {2, 1, 1};
    launch.snapshot_block_count = 1;
    const std::uint32_t index = writer.begin_launch(launch);
    std::vector<tracebuf::WarpRecord> records;
    const auto record = [&](std::uint32_t id, std::uint32_t mask, std::uint64_t a0,
                            std::uint64_t a1) {
      tracebuf::WarpRecord r;
      r.static_id = id;
      r.element_size = 4;
      r.active_mask = mask;
      r.addresses[0] = a0;
      r.addresses[1] = a1;
      records.push_back(r);
    };
    for (std::uint32_t id = 0; id < 4; ++id)  // start, count, start, count of each thread
      record(id, 0b11, kNodes + 4 * (id % 2), kNodes + 4 * (2 + id % 2));
    record(4, 0b11, kEdges + 0, kEdges + 4 * 2);
    record(4, 0b11, kEdges + 4, kEdges + 4 * 3);
    record(4, 0b10, 0, kEdges + 4 * 4);
    writer.write_warp_records(index, 0, 0, records);
    writer.finish();
  }
  const auto reader = tracebuf::TraceReader::open(path);
  const LaunchFootprint fp = launch_footprint(reader, 0);
  ASSERT_EQ(fp.relations.size(), 5u);
  EXPECT_TRUE(fp.relations[4].fallback.empty()) << fp.relations[4].fallback;
  std::vector<ByteRange> edges;
  for (const ByteRange& range : fp.blocks[0].estimated) {
    if (range.begin >= kEdges)
      edges.push_back(range);
  }
  EXPECT_EQ(edges, (std::vector<ByteRange>{{kEdges, kEdges + 5 * 4}}));
  const auto extent = [&](std::uint32_t primary) -> Extent {
    for (const ExtentTable& table : fp.extents) {
      if (table.primary_load == primary && table.dependent_load == 4)
        return table.per_block.at(0);
    }
    return {};
  };
  EXPECT_EQ(extent(0).min, 0);
  EXPECT_EQ(extent(0).max, 2);
  EXPECT_EQ(extent(1).min, 2);
  EXPECT_EQ(extent(1).max, 3);
  const auto range = std::find_if(fp.index_ranges.begin(), fp.index_ranges.end(),
                                  [](const ExtentTable& table) { return table.primary_load == 4; });
  ASSERT_NE(range, fp.index_ranges.end());
  EXPECT_EQ(range->per_block.at(0).min, 0);
  EXPECT_EQ(range->per_block.at(0).max, 4);
  std::filesystem::remove(path);
}

/// `a[blockIdx.x * n + k]` for k = 0, 4, ... < n (the instrumenter's loop_constant_stride form),
/// two blocks of 4 threads where only threads 0 and 1 are active (control divergence).
std::string write_strided_trace(bool record_n) {
  const std::string path =
      (std::filesystem::temp_directory_path() /
       ("memcarlo_tid_dep_" + std::to_string(::getpid()) + (record_n ? "_n" : "") + ".mct"))
          .string();
  tracebuf::TraceWriter writer(path, {});
  std::vector<tracebuf::LoadInfo> loads = {load_with_index(0, R"({
      "kind": "affine", "root": "a", "unit": "elements", "expression": "blockIdx.x*n + k + threadIdx.x",
      "terms": [{"coefficient": 1, "symbols": ["blockIdx.x", "n"]}, {"coefficient": 1, "symbols": ["k"]},
                {"coefficient": 1, "symbols": ["threadIdx.x"]}],
      "constant": 0,
      "symbols": {"blockIdx.x": "block", "n": "kernel_parameter", "k": "induction", "threadIdx.x": "thread"},
      "inductions": [{"variable": "k", "loop_depth": 1, "init": {"expression": "0", "terms": [], "constant": 0},
                      "step": {"expression": "4", "terms": [], "constant": 4},
                      "bound": {"expression": "n", "terms": [{"coefficient": 1, "symbols": ["n"]}], "constant": 0},
                      "comparison": "<"}]})")};
  loads[0].function = "k";
  writer.write_loads(loads);
  constexpr std::uint64_t kBase = 0x200000000;
  writer.write_allocations(std::vector<tracebuf::Allocation>{{0, kBase, 64 * 4, "a"}});
  if (record_n) {
    writer.write_annotations(
        R"([{"kind": "kernel_arguments", "launch": 0, "payload": {"n": 16}}])");
  }
  tracebuf::LaunchInfo launch;
  launch.kernel = "k";
  launch.grid = {2, 1, 1};
  launch.block = {4, 1, 1};
  launch.snapshot_block_count = 2;
  const std::uint32_t index = writer.begin_launch(launch);
  for (std::uint32_t block = 0; block < 2; ++block) {
    std::vector<tracebuf::WarpRecord> records;
    for (std::uint32_t k = 0; k < 16; k += 4) {
      tracebuf::WarpRecord r;
      r.element_size = 4;
      r.active_mask = 0b11;  // threads 2 and 3 took another branch
      for (std::uint32_t t = 0; t < 2; ++t)
        r.addresses[t] = kBase + 4 * (block * 16 + k + t);
      records.push_back(r);
    }
    writer.write_warp_records(index, block, 0, records);
  }
  writer.finish();
  return path;
}

TEST(ThreadDependentFootprint, LoopsAndArgumentsGiveEveryThreadsIndices) {
  const std::string path = write_strided_trace(true);
  const auto reader = tracebuf::TraceReader::open(path);
  EXPECT_EQ(recorded_arguments(reader, 0).at("n"), 16);
  const LaunchFootprint fp = launch_footprint(reader, 0);
  ASSERT_EQ(fp.relations.size(), 1u);
  EXPECT_TRUE(fp.relations[0].fallback.empty()) << fp.relations[0].fallback;
  EXPECT_EQ(fp.relations[0].root_source, "allocation name");
  // Block 1: k in {0, 4, 8, 12}, threads 0-3: elements 16 + k + t = 16..31, one run.
  constexpr std::uint64_t kBase = 0x200000000;
  ASSERT_EQ(fp.blocks[1].estimated.size(), 1u);
  EXPECT_EQ(fp.blocks[1].estimated[0], (ByteRange{kBase + 16 * 4, kBase + 32 * 4}));
  // Threads 2 and 3 never ran: with 4-byte pages, elements k + 2 and k + 3 of each block are
  // false positives (8 per block), the rest true positives.
  const FootprintComparison c = compare_footprints(reader, fp, {0, 0}, 1, 4);
  EXPECT_EQ(c.overall.true_positives, 16u);
  EXPECT_EQ(c.overall.false_positives, 16u);
  EXPECT_EQ(c.overall.false_negatives, 0u);
  EXPECT_EQ(c.overall.true_negatives, 32u);
  std::filesystem::remove(path);
}

TEST(ThreadDependentFootprint, MalformedArgumentsAreAnErrorNamingTheArgument) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("memcarlo_bad_args_" + std::to_string(::getpid()) + ".mct"))
                               .string();
  {
    tracebuf::TraceWriter writer(path, {});
    writer.write_annotations(
        R"([{"kind": "locality_descriptor", "payload": 3},
            {"kind": "kernel_arguments", "payload": {"n": "sixteen"}}])");
    writer.finish();
  }
  const auto reader = tracebuf::TraceReader::open(path);
  try {
    (void)recorded_arguments(reader, 0);
    FAIL() << "expected a MetadataError";
  } catch (const tracebuf::MetadataError& e) {
    EXPECT_NE(std::string(e.what()).find("(kernel_arguments).payload.n: expected an integer"),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove(path);
}

TEST(ThreadDependentFootprint, UnrecordedArgumentFallsBackToTheWholeArray) {
  const std::string path = write_strided_trace(false);
  const auto reader = tracebuf::TraceReader::open(path);
  const LaunchFootprint fp = launch_footprint(reader, 0);
  ASSERT_EQ(fp.relations.size(), 1u);
  EXPECT_NE(fp.relations[0].fallback.find("kernel argument `n` is not recorded"), std::string::npos)
      << fp.relations[0].fallback;
  constexpr std::uint64_t kBase = 0x200000000;
  EXPECT_EQ(fp.blocks[0].estimated, (std::vector<ByteRange>{{kBase, kBase + 64 * 4}}));
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace memcarlo::footprint
