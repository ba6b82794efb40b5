// The ldesc CTA scheduler and the ldesc placement (Locality Descriptors, ISCA'18 §4.3 and §4.6)
// by hand: the histo tiles of Figure 12 give its clusters through the scheduler; with NUMA
// modules the zones follow Algorithm 2's address bits and the clusters stay on their zone's
// module; Figure 13's A and B are placed by bits 16-17 and 14-15.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "memcarlo/sim/counters.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/sim/placement/placement.hpp"
#include "memcarlo/sim/schedule/cta_scheduler.hpp"
#include "memcarlo/sim/trial_result.hpp"
#include "trace_builder.hpp"

namespace memcarlo::sim {
namespace {

using testing::TraceBuilder;
using tracebuf::AccessKind;
using tracebuf::Dim3;
using tracebuf::LocalityDescriptor;
using Queues = std::vector<std::vector<std::uint64_t>>;

/// A launch of `grid` whose snapshot holds the blocks `present` says (all by default).
LaunchTrace launch_of(Dim3 grid, std::vector<LocalityDescriptor> descriptors,
                      bool (*present)(std::uint64_t) = nullptr) {
  LaunchTrace launch;
  launch.grid = grid;
  for (std::uint64_t id = 0; id < grid.volume(); ++id) {
    if (present == nullptr || present(id)) {
      launch.blocks.push_back({id, static_cast<std::uint32_t>(launch.blocks.size()), 1});
    }
  }
  launch.descriptors = std::move(descriptors);
  return launch;
}

/// Per SM, the block ids of its queue under `scheduler`.
Queues queues_of(const LaunchTrace& launch, const std::string& scheduler, std::uint32_t sms,
                 std::uint32_t modules) {
  std::vector<std::string> settings{"sm.count=" + std::to_string(sms), "schedule.cta=" + scheduler};
  const HierarchyConfig config = load_hierarchy("fermi-c2050", settings);
  RandomStream random(1, Purpose::kCtaSchedule, 0, 0);
  schedule::CtaPlan plan;
  schedule::make(config)->plan({launch, sms, 1, modules}, random, plan);
  schedule::check_plan(plan, launch.blocks.size(), sms, scheduler);
  Queues out(sms);
  for (std::uint32_t sm = 0; sm < sms; ++sm) {
    const std::uint32_t q = plan.queue_of_sm[sm];
    for (std::uint32_t i = plan.queue_begin[q]; i < plan.queue_begin[q + 1]; ++i) {
      out[sm].push_back(launch.blocks[plan.order[i]].block_id);
    }
  }
  return out;
}

/// histo's sm_mappings (Figure 9) on a 4 x 3 grid: X_len = 64 uchar4 elements, Y_len = 3 rows;
/// D-Tile (X_tile = 16, Y_len, 1), C-Tile (1, GridDim.y, 1), map (1, 0, 0).
LocalityDescriptor histo() {
  LocalityDescriptor d;
  d.name = "sm_mappings";
  d.address = 0x100000;
  d.element_size = 4;
  d.shape = {64, 3, 1};
  d.size = 64 * 3 * 4;
  d.data_tile = {16, 3, 1};
  d.compute_tile = {1, 3, 1};
  d.compute_data_map = {1, 0, 0};
  d.stride = 64;
  return d;
}

TEST(LdescScheduler, HistoTilesGiveFigure12sClusters) {
  // Four column C-Tiles for 3 SMs: columns 0, 1, 2 whole on SMs 0, 1, 2; the last column
  // (blocks 3, 7, 11) spread over the three SMs, one block each.
  const LaunchTrace launch = launch_of({4, 3, 1}, {histo()});
  EXPECT_EQ(queues_of(launch, "ldesc", 3, 1), (Queues{{0, 4, 8, 3}, {1, 5, 9, 7}, {2, 6, 10, 11}}));
  // Round-robin, the paper's baseline (Figure 12 (2)), puts a column's blocks on different SMs:
  // one queue, block i first on SM i mod 3.
  const Queues round_robin = queues_of(launch, "round-robin", 3, 1);
  EXPECT_EQ(round_robin[0], (std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
}

TEST(LdescScheduler, OnlyTheSnapshotsBlocksArePlannedInTheirClusters) {
  // The snapshot holds the even block ids only: column 0 = {0, 4, 8}, column 2 = {2, 6, 10}; the
  // odd columns have none. Clusters keep their SM: column c (c < 3) on SM c.
  const LaunchTrace launch =
      launch_of({4, 3, 1}, {histo()}, [](std::uint64_t id) { return id % 2 == 0; });
  EXPECT_EQ(queues_of(launch, "ldesc", 3, 1), (Queues{{0, 4, 8}, {}, {2, 6, 10}}));
}

TEST(LdescScheduler, WithoutDescriptorsItIsRoundRobin) {
  const LaunchTrace launch = launch_of({5, 2, 1}, {});
  EXPECT_EQ(queues_of(launch, "ldesc", 3, 1), queues_of(launch, "round-robin", 3, 1));
  EXPECT_EQ(queues_of(launch, "ldesc", 4, 2), queues_of(launch, "round-robin", 4, 2));
}

// A stencil's tiles, one CTA each (hotspot's NEARBY tiles): Algorithm 1's clusters are single
// CTAs, which group nothing, so the launch is dispatched as round-robin does, from one queue
// (dealt to per-SM queues, CTAs 0, 3, 6 would be fixed on SM 0 and never run beside their
// neighbours 1 and 4). With C-Tiles of several CTAs the clusters stay (Figure 12, above).
TEST(LdescScheduler, ClustersOfOneCtaAreRoundRobin) {
  LocalityDescriptor tiles = histo();
  tiles.shape = {64, 2, 1};
  tiles.size = 64 * 2 * 4;
  tiles.data_tile = {16, 1, 1};
  tiles.compute_tile = {1, 1, 1};
  tiles.compute_data_map = {1, 2, 0};
  tiles.sharing = tracebuf::SharingType::kNearby;
  const LaunchTrace launch = launch_of({4, 2, 1}, {tiles});
  EXPECT_EQ(queues_of(launch, "ldesc", 3, 1), queues_of(launch, "round-robin", 3, 1));
  EXPECT_EQ(queues_of(launch, "ldesc", 3, 1)[0],
            (std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

// NUMA (Figure 11: Algorithm 2's partition, then Algorithm 1 inside each zone). A 4 x 4 grid
// reads a 256 KiB array by columns: column x reads D-Tile x, its 64 KiB [x x 64 KiB, (x + 1) x
// 64 KiB) of the array, which starts at 0x10000 (64 KiB into a 256 KiB period). Only bits 16-17
// keep a D-Tile in one zone, so zone(column x) = ((0x10000 + x x 0x10000) >> 16) & 3 = (x + 1)
// mod 4: zone 0 holds column 3, zone 1 column 0, zone 2 column 1, zone 3 column 2.
LocalityDescriptor columns_of_a() {
  LocalityDescriptor d;
  d.name = "A";
  d.address = 0x10000;
  d.element_size = 4;
  d.size = 256 * 1024;
  d.shape = {65536, 1, 1};
  d.data_tile = {16384, 1, 1};
  d.compute_tile = {1, 4, 1};
  d.compute_data_map = {1, 0, 0};
  d.stride = 1;
  return d;
}

TEST(LdescScheduler, NumaZonesFollowAlgorithm2AndClustersStayOnTheirModule) {
  // 8 SMs in 4 modules (module m: SMs 2m, 2m + 1). Inside a zone (one column of 4 blocks, two
  // SMs) Algorithm 1 needs 2 clusters: the column C-Tile (1, 4) halves along Y to (1, 2).
  // Zone 0 = column 3: blocks {3, 7} on SM 0 and {11, 15} on SM 1; zone 1 = column 0 on SMs 2
  // and 3; and so on.
  const LaunchTrace launch = launch_of({4, 4, 1}, {columns_of_a()});
  EXPECT_EQ(queues_of(launch, "ldesc", 8, 4),
            (Queues{{3, 7}, {11, 15}, {0, 4}, {8, 12}, {1, 5}, {9, 13}, {2, 6}, {10, 14}}));
  // With one SM per module, a zone's column is one cluster on that SM.
  EXPECT_EQ(queues_of(launch, "ldesc", 4, 4),
            (Queues{{3, 7, 11, 15}, {0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}}));
}

TEST(LdescScheduler, NeedsAPowerOfTwoModules) {
  try {
    (void)schedule::make(load_hierarchy("v100", {"sm.count=72", "l2.slices=48", "dram.channels=24",
                                                 "numa.modules=3", "schedule.cta=ldesc"}));
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("ldesc needs numa.modules to be a power of two"),
              std::string::npos)
        << e.what();
  }
}

// Figure 13 through the compile: 16 blocks, 4 modules. The CTAs of zone z (blocks 4z..4z+3) read
// the 64 KiB page z of A and only the 16 KiB quarter z of B. Descriptors from a file
// (ldesc.descriptors): A (priority 2) 256 KiB at 0x1000000, D-Tiles of 64 KiB for C-Tiles of 4
// CTAs; B 64 KiB at 0x2000000, D-Tiles of 16 KiB for the same C-Tiles. Algorithm 2 picks bits
// 16-17 for A and 14-15 for B, so by hand: A's byte at offset o lives on module (o >> 16) & 3,
// B's on (o >> 14) & 3 (both bases have those bits clear). Allocation C is not described: its
// pages stay interleaved (4 KiB page p on module p mod 4).
constexpr std::uint64_t kA = 0x1000000;
constexpr std::uint64_t kB = 0x2000000;
constexpr std::uint64_t kC = 0x3000000;

std::string figure13_trace() {
  TraceBuilder trace(16, 32);
  trace.add_allocation(kA, 256 * 1024, "A");
  trace.add_allocation(kB, 64 * 1024, "B");
  trace.add_allocation(kC, 64 * 1024, "C");
  const std::uint32_t a = trace.add_load(AccessKind::kRead, "A[i]");
  const std::uint32_t b = trace.add_load(AccessKind::kRead, "B[i]");
  const std::uint32_t c = trace.add_load(AccessKind::kRead, "C[i]");
  for (std::uint32_t block = 0; block < 16; ++block) {
    // Block k of a zone reads the k-th quarter of its zone's part of A, and of B.
    trace.coalesced(block, 0, a, kA + (block / 4) * 0x10000 + (block % 4) * 0x4000);
    trace.coalesced(block, 0, b, kB + (block / 4) * 0x4000 + (block % 4) * 0x1000);
    trace.coalesced(block, 0, c, kC + block * 0x1000);
  }
  return trace.write("ldesc-figure13");
}

std::string figure13_descriptors() {
  const auto dir = std::filesystem::temp_directory_path() / "memcarlo-tests";
  std::filesystem::create_directories(dir);
  const std::string path =
      (dir / ("ldesc-figure13-" + std::to_string(::getpid()) + ".json")).string();
  std::ofstream(path) << R"({"descriptors": [
    {"name": "A", "address": "0x1000000", "size": 262144, "element_size": 4,
     "type": "INTER-THREAD", "data_tile": [16384], "compute_tile": [4], "stride": 1,
     "priority": 2},
    {"name": "B", "address": "0x2000000", "size": 65536, "element_size": 4,
     "type": "INTER-THREAD", "data_tile": [4096], "compute_tile": [4], "stride": 1,
     "priority": 1}]})";
  return path;
}

HierarchyConfig figure13_config(std::vector<std::string> settings) {
  settings.insert(settings.end(),
                  {"numa.modules=4", "ldesc.descriptors=" + figure13_descriptors()});
  return load_hierarchy("v100", settings);
}

TEST(LdescPlacement, Figure13PlacesAByBits16And17AndBByBits14And15) {
  const HierarchyConfig config = figure13_config({"placement.policy=ldesc"});
  const auto reader = tracebuf::TraceReader::open(figure13_trace());
  const CompiledTrace trace = compile_trace(reader, config);
  const std::uint64_t sets_per_module = config.l2.sets() / 4;
  const std::uint32_t channels_per_module = config.dram.channels / 4;
  for (std::uint64_t block = 0; block < 16; ++block) {
    const std::uint64_t a_offset = (block / 4) * 0x10000 + (block % 4) * 0x4000;
    const std::uint64_t b_offset = (block / 4) * 0x4000 + (block % 4) * 0x1000;
    const auto a = trace.find_line(kA + a_offset);
    const auto b = trace.find_line(kB + b_offset);
    const auto c = trace.find_line(kC + block * 0x1000);
    ASSERT_TRUE(a && b && c);
    EXPECT_EQ(trace.line_module[*a], (a_offset >> 16) & 3) << "A, block " << block;
    EXPECT_EQ(trace.line_module[*b], (b_offset >> 14) & 3) << "B, block " << block;
    // Both are the zone the ldesc scheduler gives the block: every access is local.
    EXPECT_EQ(trace.line_module[*a], block / 4);
    EXPECT_EQ(trace.line_module[*b], block / 4);
    EXPECT_EQ(trace.line_module[*c], ((kC >> 12) + block) % 4) << "C, block " << block;
  }
  const std::uint32_t parts = trace.l2_lines_per_l1_line;
  for (std::uint32_t id = 0; id < trace.l1_line_count(); ++id) {
    const std::uint32_t module = trace.line_module[id];
    for (std::uint32_t part = 0; part < parts; ++part) {
      EXPECT_EQ(trace.l2_set[id * parts + part] / sets_per_module, module) << "line " << id;
    }
    EXPECT_EQ(trace.dram_location[id].channel / channels_per_module, module) << "line " << id;
  }
}

std::uint64_t numa_counter(const TrialResult& r, std::string_view name) {
  const CounterGroupTotals& g = r.groups[counter_group_index(kNumaGroup)];
  for (std::size_t c = 0; c < kNumaGroup.width(); ++c) {
    if (kNumaGroup.counters[c].name == name) {
      return g.overall.at(c);
    }
  }
  ADD_FAILURE() << "no numa counter " << name;
  return 0;
}

TEST(LdescPlacement, WithTheLdescSchedulerEveryDescribedAccessIsLocal) {
  // Under ldesc + ldesc, the 32 accesses to A and B are local; C's 16 pages are interleaved and
  // its blocks run on module block / 4 (zone of A's C-Tile), so C's access of block k is local
  // when k mod 4 = k / 4 (pages start at 0x3000000, page number = 0 mod 4): blocks 0, 5, 10, 15.
  const HierarchyConfig config = figure13_config({"placement.policy=ldesc", "schedule.cta=ldesc"});
  const TrialResult result = testing::run_one(figure13_trace(), config);
  EXPECT_EQ(numa_counter(result, "accesses"), 48u);
  EXPECT_EQ(numa_counter(result, "local"), 32u + 4u);
  EXPECT_EQ(numa_counter(result, "remote"), 12u);
}

TEST(LdescPlacement, NeedsAPowerOfTwoModules) {
  try {
    (void)placement::make(load_hierarchy("v100", {"sm.count=72", "l2.slices=48", "dram.channels=24",
                                                  "numa.modules=3", "placement.policy=ldesc"}));
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("ldesc needs numa.modules to be a power of two"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace memcarlo::sim
