// The unified L1 / shared-memory array of Volta and later: occupancy and the shared-memory
// carveout decided together per launch (plan_occupancy), the L1 each launch is left with, and
// what that does to hit ratios. Answers computed by hand from the presets' tables.
#include <gtest/gtest.h>

#include "trace_builder.hpp"

namespace memcarlo::sim {
namespace {

using testing::run_one;
using testing::TraceBuilder;
using tracebuf::AccessKind;

constexpr std::uint64_t kKiB = 1024;

tracebuf::LaunchInfo launch_of(std::uint32_t threads, std::uint64_t dynamic_shared = 0,
                               std::uint64_t static_shared = 0) {
  tracebuf::LaunchInfo launch;
  launch.grid = {1000, 1, 1};
  launch.block = {threads, 1, 1};
  launch.dynamic_shared_bytes = dynamic_shared;
  launch.static_shared_bytes = static_shared;
  return launch;
}

TEST(Carveout, ALaunchWithoutSharedMemoryGetsTheWholeArray) {
  // V100, 256 threads: 8 blocks (2048 threads); no shared memory: carveout 0, all 128 KiB L1.
  const LaunchOccupancy o = plan_occupancy(launch_of(256), load_hierarchy("v100"));
  EXPECT_TRUE(o.adaptive);
  EXPECT_EQ(o.resident_blocks, 8u);
  EXPECT_EQ(o.carveout, 0u);
  EXPECT_EQ(o.l1_bytes, 128 * kKiB);
  EXPECT_EQ(o.l1_ways, 64u);  // 16 sets x 64 ways x 128 B
}

TEST(Carveout, ResidentBlocksThatNeedMoreSharedMemoryGetTheNextCarveoutUpAndASmallerL1) {
  const HierarchyConfig v100 = load_hierarchy("v100");
  // 1 KiB per block x 8 blocks = 8 KiB: carveout 8, L1 120 KiB = 60 ways of 2 KiB.
  LaunchOccupancy o = plan_occupancy(launch_of(256, 1 * kKiB), v100);
  EXPECT_EQ(o.resident_blocks, 8u);
  EXPECT_EQ(o.carveout, 8 * kKiB);
  EXPECT_EQ(o.l1_bytes, 120 * kKiB);
  EXPECT_EQ(o.l1_ways, 60u);
  // 5 KiB x 8 = 40 KiB: the smallest carveout holding it is 64 KiB; L1 64 KiB.
  o = plan_occupancy(launch_of(256, 4 * kKiB, 1 * kKiB), v100);
  EXPECT_EQ(o.resident_blocks, 8u);
  EXPECT_EQ(o.shared_per_block, 5 * kKiB);
  EXPECT_EQ(o.carveout, 64 * kKiB);
  EXPECT_EQ(o.l1_bytes, 64 * kKiB);
  // 20 KiB per block: shared memory limits the SM to 96 / 20 = 4 blocks, 80 KiB: carveout 96.
  o = plan_occupancy(launch_of(256, 20 * kKiB), v100);
  EXPECT_EQ(o.resident_blocks, 4u);
  EXPECT_EQ(o.carveout, 96 * kKiB);
  EXPECT_EQ(o.l1_bytes, 32 * kKiB);
  EXPECT_EQ(o.l1_ways, 16u);
}

TEST(Carveout, SharedMemoryIsAllocatedInGranulesAndAmpereReservesOneKiBPerBlock) {
  // V100 allocates in 256-byte granules: 100 bytes take 256, x 8 blocks = 2 KiB -> carveout 8.
  LaunchOccupancy o = plan_occupancy(launch_of(256, 100), load_hierarchy("v100"));
  EXPECT_EQ(o.shared_per_block, 256u);
  EXPECT_EQ(o.carveout, 8 * kKiB);
  // A100: even a kernel without shared memory holds the driver's 1 KiB per block. 256 threads:
  // 8 blocks, 8 KiB, carveout 8, L1 184 KiB = 46 ways of 4 KiB.
  const HierarchyConfig a100 = load_hierarchy("a100");
  o = plan_occupancy(launch_of(256), a100);
  EXPECT_EQ(o.resident_blocks, 8u);
  EXPECT_EQ(o.shared_per_block, 1 * kKiB);
  EXPECT_EQ(o.carveout, 8 * kKiB);
  EXPECT_EQ(o.l1_bytes, 184 * kKiB);
  EXPECT_EQ(o.l1_ways, 46u);
  // 32 threads: 32 blocks (the block limit), 32 KiB reserved: carveout 32, L1 160 KiB.
  o = plan_occupancy(launch_of(32), a100);
  EXPECT_EQ(o.resident_blocks, 32u);
  EXPECT_EQ(o.carveout, 32 * kKiB);
  EXPECT_EQ(o.l1_bytes, 160 * kKiB);
  // H100, 48 KiB dynamic + 1 KiB reserved = 49 KiB: 228 / 49 = 4 blocks, 196 KiB -> carveout 196.
  o = plan_occupancy(launch_of(128, 48 * kKiB), load_hierarchy("h100"));
  EXPECT_EQ(o.resident_blocks, 4u);
  EXPECT_EQ(o.carveout, 196 * kKiB);
  EXPECT_EQ(o.l1_bytes, 60 * kKiB);
  EXPECT_EQ(o.l1_ways, 15u);
}

TEST(Carveout, APreferredCarveoutIsHonouredAndLimitsOccupancyWhenItHoldsABlock) {
  // 50 % of 96 KiB = 48 KiB, aligned up to the 64 KiB carveout.
  const HierarchyConfig half = load_hierarchy("v100", {"l1.preferred_carveout=50"});
  LaunchOccupancy o = plan_occupancy(launch_of(256), half);
  EXPECT_EQ(o.resident_blocks, 8u);
  EXPECT_EQ(o.carveout, 64 * kKiB);
  EXPECT_EQ(o.l1_bytes, 64 * kKiB);
  // 12 KiB per block: the 64 KiB preference holds 5 blocks (the calculator's rule on Volta+).
  o = plan_occupancy(launch_of(256, 12 * kKiB), half);
  EXPECT_EQ(o.resident_blocks, 5u);
  EXPECT_EQ(o.carveout, 64 * kKiB);
  // A preference of 0 that holds no block: one block, in the smallest carveout that holds it.
  const HierarchyConfig most_l1 = load_hierarchy("v100", {"l1.preferred_carveout=0"});
  o = plan_occupancy(launch_of(256, 12 * kKiB), most_l1);
  EXPECT_EQ(o.resident_blocks, 1u);
  EXPECT_EQ(o.carveout, 16 * kKiB);
  EXPECT_EQ(o.l1_bytes, 112 * kKiB);
  EXPECT_EQ(plan_occupancy(launch_of(256), most_l1).carveout, 0u);
}

TEST(Carveout, AnExplicitL1SizeFixesTheL1ForEveryLaunch) {
  const HierarchyConfig fixed = load_hierarchy("v100", {"l1.size=32KiB"});
  EXPECT_FALSE(fixed.l1.adaptive);
  EXPECT_EQ(fixed.l1.sets(), 4u);
  for (const std::uint64_t shared : {std::uint64_t{0}, 20 * kKiB}) {
    const LaunchOccupancy o = plan_occupancy(launch_of(256, shared), fixed);
    EXPECT_FALSE(o.adaptive);
    EXPECT_EQ(o.l1_bytes, 32 * kKiB);
    EXPECT_EQ(o.l1_ways, 64u);
  }
  // Fermi keeps its fixed 16 KiB split.
  const LaunchOccupancy fermi = plan_occupancy(launch_of(256), load_hierarchy("fermi-c2050"));
  EXPECT_FALSE(fermi.adaptive);
  EXPECT_EQ(fermi.l1_bytes, 16 * kKiB);
}

/// One warp on SM 0 reads `kilobytes` of consecutive lines twice; the block asks for
/// `dynamic_shared` bytes of shared memory.
TrialResult read_twice(const HierarchyConfig& config, std::uint32_t kilobytes,
                       std::uint64_t dynamic_shared) {
  TraceBuilder builder(1, 32);
  builder.set_dynamic_shared(dynamic_shared);
  const auto x = builder.add_load(AccessKind::kRead, "x[j]");
  for (std::uint32_t pass = 0; pass < 2; ++pass) {
    for (std::uint32_t line = 0; line < kilobytes * kKiB / 128; ++line) {
      builder.coalesced(0, 0, x, 0x1000000 + line * 128);
    }
  }
  return run_one(builder.write("carveout-reuse"), config);
}

TEST(Carveout, AWorkingSetBetweenTwoL1SizesHitsWithTheWholeArrayAndMissesWithTheLargestCarveout) {
  // 64 KiB = 512 lines, 32 per set of V100's 16. Without shared memory the L1 has 64 ways: the
  // second pass hits every line (H1 = 1/2). 90 KiB of shared memory takes the 96 KiB carveout:
  // 16 ways, and LRU over 32 lines per set cycles, so nothing hits.
  const HierarchyConfig v100 = load_hierarchy("v100");
  const TrialResult whole = read_twice(v100, 64, 0);
  EXPECT_EQ(whole.overall.l1_accesses, 1024u);
  EXPECT_EQ(whole.overall.l1_hits, 512u);
  const TrialResult carved = read_twice(v100, 64, 90 * kKiB);
  EXPECT_EQ(carved.overall.l1_accesses, 1024u);
  EXPECT_EQ(carved.overall.l1_hits, 0u);
  // The same launch with the L1 fixed at 128 KiB hits again: the carveout made the difference.
  const TrialResult fixed = read_twice(load_hierarchy("v100", {"l1.size=128KiB"}), 64, 90 * kKiB);
  EXPECT_EQ(fixed.overall.l1_hits, 512u);
}

TEST(Carveout, CompiledLaunchesCarryTheirOwnCarveout) {
  TraceBuilder builder(1, 32);
  const auto x = builder.add_load(AccessKind::kRead, "x[j]");
  builder.coalesced(0, 0, x, 0x1000);
  builder.next_launch("with_shared");
  builder.set_dynamic_shared(40 * kKiB);
  builder.coalesced(0, 0, x, 0x1000);
  const auto reader = tracebuf::TraceReader::open(builder.write("carveout-launches"));
  const CompiledTrace compiled = compile_trace(reader, load_hierarchy("v100"));
  ASSERT_EQ(compiled.launches.size(), 2u);
  EXPECT_EQ(compiled.launches[0].occupancy.l1_bytes, 128 * kKiB);
  // 96 KiB / 40 KiB = 2 blocks, 80 KiB: the 96 KiB carveout, a 32 KiB L1.
  EXPECT_EQ(compiled.launches[1].resident_blocks_per_sm, 2u);
  EXPECT_EQ(compiled.launches[1].occupancy.carveout, 96 * kKiB);
  EXPECT_EQ(compiled.launches[1].occupancy.l1_bytes, 32 * kKiB);
}

TEST(CarveoutConfig, ErrorsNameTheKeyAndWhatWasExpected) {
  const auto message = [](const std::string& hierarchy, std::vector<std::string> overrides) {
    try {
      load_hierarchy(hierarchy, overrides);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // 64 ways over 192 KiB are 24 sets, 3 KiB per way: 184 KiB is not a whole number of ways.
  EXPECT_NE(message("a100", {"l1.associativity=64"})
                .find("l1.carveouts: 8 KiB leaves 184 KiB of l1.unified_size 192 KiB, not a "
                      "whole number of ways of 3 KiB"),
            std::string::npos);
  EXPECT_NE(message("v100", {"l1.carveouts=0,16KiB,8KiB"})
                .find("l1.carveouts: carveouts must be listed in ascending order"),
            std::string::npos);
  EXPECT_NE(message("v100", {"l1.carveouts=0,128KiB"}).find("leaves no L1"), std::string::npos);
  EXPECT_NE(message("v100", {"l1.carveouts=0,8KiB"})
                .find("sm.shared_memory (96 KiB) is more than the largest of l1.carveouts (8 KiB)"),
            std::string::npos);
  EXPECT_NE(message("v100", {"l1.preferred_carveout=101"})
                .find("l1.preferred_carveout: expected an integer in [-1, 100]; got 101"),
            std::string::npos);
  EXPECT_NE(message("v100", {"l1.size=big"}).find("or \"adaptive\"; got \"big\""),
            std::string::npos);
  EXPECT_NE(message("v100", {"l1.carveouts=0,8 KB,x"}).find("l1.carveouts[2]"),
            std::string::npos);
  // A list written as JSON, and back to adaptive after a fixed size, are accepted.
  const HierarchyConfig json_list =
      load_hierarchy("v100", {"l1.carveouts=[0, \"32KiB\", \"96KiB\"]"});
  EXPECT_EQ(json_list.l1.carveouts, (std::vector<std::uint64_t>{0, 32 * kKiB, 96 * kKiB}));
  EXPECT_TRUE(load_hierarchy("v100", {"l1.size=32KiB", "l1.size=adaptive"}).l1.adaptive);
}

}  // namespace
}  // namespace memcarlo::sim
