// Known answers for the tafe CTA scheduler and the tafe page placement (TAFE §5.1, §5.2): block
// order by the first TID_DEP access's block-id coefficients, chunks per module, and pages on the
// module whose blocks are estimated to touch them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/sim/schedule/cta_scheduler.hpp"
#include "memcarlo/tracebuf/writer.hpp"
#include "trace_builder.hpp"

namespace memcarlo::sim {
namespace {

tracebuf::LoadInfo load_with_index(std::uint32_t id, const std::string& base,
                                   const std::string& terms_and_constant) {
  tracebuf::LoadInfo load;
  load.id = id;
  load.function = "k";
  load.kernels = {"k"};
  load.expression = base + "[...]";
  load.element_size = 4;
  load.base = base;
  load.extra_json = R"({"index": {"kind": "affine", "root": ")" + base +
                    R"(", "unit": "elements", )" + terms_and_constant + "}}";
  return load;
}

/// The SMs' queues' blocks per module under tafe for a 2 x 2 grid on 2 modules of 2 SMs
/// (`registered_axes`: the launch's order from hand registrations, fastest first).
std::vector<std::vector<std::uint32_t>> tafe_chunks(
    const tracebuf::LoadInfo& first, std::vector<std::uint8_t> registered_axes = {}) {
  const HierarchyConfig config = load_hierarchy("fermi-c2050", {"sm.count=4", "schedule.cta=tafe"});
  LaunchTrace launch;
  launch.kernel = "k";
  launch.grid = {2, 2, 1};
  launch.block = {8, 4, 1};
  launch.tafe_registered_axes = std::move(registered_axes);
  for (std::uint32_t b = 0; b < 4; ++b)
    launch.blocks.push_back({b, b, 1});
  const std::vector<tracebuf::LoadInfo> loads = {first};
  RandomStream random(1, Purpose::kCtaSchedule, 0, 0);
  schedule::CtaPlan plan;
  schedule::make(config)->plan({launch, 4, 1, 2, loads}, random, plan);
  schedule::check_plan(plan, 4, 4, "tafe");
  std::vector<std::vector<std::uint32_t>> out;
  for (const std::uint32_t sm : {0u, 2u}) {  // one SM of each module
    const std::uint32_t q = plan.queue_of_sm[sm];
    out.emplace_back(plan.order.begin() + plan.queue_begin[q],
                     plan.order.begin() + plan.queue_begin[q + 1]);
  }
  EXPECT_EQ(plan.queue_of_sm[1], plan.queue_of_sm[0]);
  EXPECT_EQ(plan.queue_of_sm[3], plan.queue_of_sm[2]);
  return out;
}

using Chunks = std::vector<std::vector<std::uint32_t>>;

TEST(TafeScheduler, RowMajorWhenBlockIdxXStepsLeast) {
  // c[(blockIdx.y*blockDim.y + threadIdx.y)*n + blockIdx.x*blockDim.x + threadIdx.x], n not
  // recorded: y steps n*4 elements (n counts as 2^20), x steps 8: x fastest, rows together.
  const auto load = load_with_index(0, "c", R"("terms": [
      {"coefficient": 1, "symbols": ["blockDim.y", "blockIdx.y", "n"]},
      {"coefficient": 1, "symbols": ["n", "threadIdx.y"]},
      {"coefficient": 1, "symbols": ["blockDim.x", "blockIdx.x"]},
      {"coefficient": 1, "symbols": ["threadIdx.x"]}], "constant": 0)");
  EXPECT_EQ(tafe_chunks(load), (Chunks{{0, 1}, {2, 3}}));
}

TEST(TafeScheduler, ColumnMajorWhenBlockIdxYStepsLeast) {
  // a[blockIdx.x*n + blockIdx.y]: y steps 1, x steps n: y fastest, blocks 0 and 2 (x = 0) on
  // module 0, 1 and 3 on module 1.
  const auto load = load_with_index(0, "a", R"("terms": [
      {"coefficient": 1, "symbols": ["blockIdx.x", "n"]},
      {"coefficient": 1, "symbols": ["blockIdx.y"]}], "constant": 0)");
  EXPECT_EQ(tafe_chunks(load), (Chunks{{0, 2}, {1, 3}}));
}

TEST(TafeScheduler, HandRegistrationsOverrideTheLoadsTable) {
  // The loads table says row-major (as above); the program registered a[blockIdx.x*n +
  // blockIdx.y] by hand, so y goes fastest: column-major, as TAFE orders by its first registered
  // array.
  const auto load = load_with_index(0, "c", R"("terms": [
      {"coefficient": 1, "symbols": ["blockDim.y", "blockIdx.y", "n"]},
      {"coefficient": 1, "symbols": ["blockDim.x", "blockIdx.x"]}], "constant": 0)");
  EXPECT_EQ(tafe_chunks(load), (Chunks{{0, 1}, {2, 3}}));
  EXPECT_EQ(tafe_chunks(load, {1, 0, 2}), (Chunks{{0, 2}, {1, 3}}));
}

TEST(TafeScheduler, TheCompileReadsTheOrderOfTheFirstRegisteredArray) {
  // taf_register(a, TID_DEP, m = (1, 0, 0, 4, 0, 0)) before launch 1 only: blockIdx.x steps 4,
  // y and z 0, so y, z, x (stable on ties); launch 0 has no registration.
  testing::TraceBuilder builder(2, 32);
  builder.add_allocation(0x1000, 4096, "a");
  const std::uint32_t load = builder.add_load(tracebuf::AccessKind::kRead, "a[i]");
  builder.coalesced(0, 0, load, 0x1000);
  builder.next_launch("again");
  builder.coalesced(0, 0, load, 0x1000);
  builder.set_annotations(R"([{"kind": "taf_register", "since_launch": 1, "payload": {
      "base": 4096, "size": 1024, "type": "TID_DEP", "element_size": 4, "primary": true,
      "m": [1, 0, 0, 4, 0, 0], "c": 0, "ofs": 0, "n": 0}}])");
  const std::string path = builder.write("tafe-registered");
  const CompiledTrace compiled = compile_trace(tracebuf::TraceReader::open(path),
                                               load_hierarchy("fermi-c2050", {}));
  EXPECT_TRUE(compiled.launches[0].tafe_registered_axes.empty());
  EXPECT_EQ(compiled.launches[1].tafe_registered_axes, (std::vector<std::uint8_t>{1, 2, 0}));
  std::filesystem::remove(path);
}

TEST(TafeScheduler, WithoutIndexFormsItIsDistributed) {
  tracebuf::LoadInfo plain;
  plain.kernels = {"k"};
  EXPECT_EQ(tafe_chunks(plain), (Chunks{{0, 1}, {2, 3}}));
}

constexpr std::uint64_t kA = 0x10000000;  // page 0x10000 (4 KiB pages): even
constexpr std::uint64_t kB = 0x20000000;
constexpr std::uint64_t kC = 0x30000000;

/// 4 blocks of 32 threads: block b reads a[b*1024 + t] (its own 4 KiB page of a), b[t] (one
/// page every block shares) and c[b*512 + t] (blocks 0 and 1 share c's page 0, 2 and 3 page 1).
std::string write_pages_trace() {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("memcarlo_tafe_pages_" + std::to_string(::getpid()) + ".mct"))
                               .string();
  tracebuf::TraceWriter writer(path, {});
  const std::vector<tracebuf::LoadInfo> loads = {
      load_with_index(0, "a", R"("terms": [{"coefficient": 1024, "symbols": ["blockIdx.x"]},
          {"coefficient": 1, "symbols": ["threadIdx.x"]}], "constant": 0,
          "symbols": {"blockIdx.x": "block", "threadIdx.x": "thread"})"),
      load_with_index(1, "b", R"("terms": [{"coefficient": 1, "symbols": ["threadIdx.x"]}],
          "constant": 0, "symbols": {"threadIdx.x": "thread"})"),
      load_with_index(2, "c", R"("terms": [{"coefficient": 512, "symbols": ["blockIdx.x"]},
          {"coefficient": 1, "symbols": ["threadIdx.x"]}], "constant": 0,
          "symbols": {"blockIdx.x": "block", "threadIdx.x": "thread"})")};
  writer.write_loads(loads);
  writer.write_allocations(std::vector<tracebuf::Allocation>{
      {0, kA, 4 * 4096, "a"}, {1, kB, 4096, "b"}, {2, kC, 2 * 4096, "c"}});
  tracebuf::LaunchInfo launch;
  launch.kernel = "k";
  launch.grid = {4, 1, 1};
  launch.block = {32, 1, 1};
  launch.snapshot_block_count = 4;
  const std::uint32_t index = writer.begin_launch(launch);
  for (std::uint32_t block = 0; block < 4; ++block) {
    std::vector<tracebuf::WarpRecord> records(3);
    for (std::uint32_t id = 0; id < 3; ++id) {
      records[id].static_id = id;
      records[id].element_size = 4;
      records[id].active_mask = 0xFFFFFFFF;
      for (std::uint32_t t = 0; t < 32; ++t) {
        records[id].addresses[t] = id == 0   ? kA + 4 * (block * 1024 + t)
                                   : id == 1 ? kB + 4 * t
                                             : kC + 4 * (block * 512 + t);
      }
    }
    writer.write_warp_records(index, block, 0, records);
  }
  writer.finish();
  return path;
}

TEST(TafePlacement, APageGoesToTheModuleWhoseBlocksTouchIt) {
  const std::string path = write_pages_trace();
  const auto reader = tracebuf::TraceReader::open(path);
  const HierarchyConfig interleaved = load_hierarchy("v100", {"numa.modules=2"});
  const HierarchyConfig tafe =
      load_hierarchy("v100", {"numa.modules=2", "placement.policy=tafe", "schedule.cta=tafe"});
  const CompiledTrace by_page = compile_trace(reader, interleaved);
  const CompiledTrace by_footprint = compile_trace(reader, tafe);
  for (std::uint64_t page = 0; page < 4; ++page) {
    const std::uint64_t line = kA + page * 4096;
    // Interleaved: page p of a on module p mod 2. tafe: blocks 0, 1 (pages 0, 1) on module 0,
    // blocks 2, 3 on module 1.
    EXPECT_EQ(by_page.line_module[*by_page.find_line(line)], page % 2) << "page " << page;
    EXPECT_EQ(by_footprint.line_module[*by_footprint.find_line(line)], page / 2) << "page " << page;
  }
  // c's pages: blocks 0 and 1 (module 0) share page 0, blocks 2 and 3 (module 1) page 1.
  EXPECT_EQ(by_footprint.line_module[*by_footprint.find_line(kC)], 0u);
  EXPECT_EQ(by_footprint.line_module[*by_footprint.find_line(kC + 4096)], 1u);
  // b's one page is touched by both modules alike: it keeps its interleaved home.
  EXPECT_EQ(by_footprint.line_module[*by_footprint.find_line(kB)],
            by_page.line_module[*by_page.find_line(kB)]);
  std::filesystem::remove(path);
}

TEST(TafePlacement, SharedPagesGoToTheModuleNearestToAll) {
  // 4 modules in a tree (hops: 0-1 and 2-3 are 2, across the root 4), one block per module.
  // c's page 0 is touched by modules 0 and 1: modules 0 and 1 are 2 hops from the pair, 2 and 3
  // are 8; 0 and 1 tie on touches, so the lowest, 0. Page 1 (modules 2 and 3) goes to 2.
  // Interleaved would put them on 0 and 1.
  const std::string path = write_pages_trace();
  const auto reader = tracebuf::TraceReader::open(path);
  const HierarchyConfig tafe =
      load_hierarchy("v100", {"numa.modules=4", "numa.topology=tree", "placement.policy=tafe"});
  const CompiledTrace trace = compile_trace(reader, tafe);
  for (std::uint64_t page = 0; page < 4; ++page) {
    EXPECT_EQ(trace.line_module[*trace.find_line(kA + page * 4096)], page) << "page " << page;
  }
  EXPECT_EQ(trace.line_module[*trace.find_line(kC)], 0u);
  EXPECT_EQ(trace.line_module[*trace.find_line(kC + 4096)], 2u);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace memcarlo::sim
