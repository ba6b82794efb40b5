// TAF relations derived from index forms, and TID_DEP footprints evaluated with recorded kernel
// arguments, loops and control divergence (TAFE §3.1, §4.4).
#include <gtest/gtest.h>
#include <unistd.h>

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
