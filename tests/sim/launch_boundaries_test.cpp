// What the caches keep from one launch to the next (the L2 by l2.between_launches, never the
// L1s), and stores in the write-caching L1 of Volta and later (allocate; lazy fetch of sectors
// written only in part). Answers computed by hand.
#include <gtest/gtest.h>

#include "trace_builder.hpp"

namespace memcarlo::sim {
namespace {

using testing::run_one;
using testing::TraceBuilder;
using tracebuf::AccessKind;

/// Two launches of one warp; each reads the same 16 KiB (128 lines) once. `skipped` launches
/// that the trace does not hold came between them in the program.
std::string two_launches_reading_the_same_lines(std::uint64_t skipped = 0) {
  TraceBuilder builder(1, 32);
  const auto x = builder.add_load(AccessKind::kRead, "x[j]");
  for (std::uint32_t line = 0; line < 128; ++line) {
    builder.coalesced(0, 0, x, 0x100000 + line * 128);
  }
  builder.next_launch("second", skipped);
  for (std::uint32_t line = 0; line < 128; ++line) {
    builder.coalesced(0, 0, x, 0x100000 + line * 128);
  }
  return builder.write("two-launches-" + std::to_string(skipped));
}

TEST(BetweenLaunches, AWorkingSetThatFitsInTheL2HitsThereOnTheNextLaunch) {
  const TrialResult r = run_one(two_launches_reading_the_same_lines(), load_hierarchy("fermi-c2050"));
  ASSERT_EQ(r.kernels.size(), 2u);
  // First launch: compulsory misses (4 Fermi L2 blocks per 128-byte line).
  EXPECT_EQ(r.kernels[0].l2_reads, 128u * 4);
  EXPECT_EQ(r.kernels[0].l2_read_hits, 0u);
  // Second launch: the L1 starts empty (invalidated between grids), the L2 holds every line.
  EXPECT_EQ(r.kernels[1].l1_accesses, 128u);
  EXPECT_EQ(r.kernels[1].l1_hits, 0u);
  EXPECT_EQ(r.kernels[1].l2_reads, 128u * 4);
  EXPECT_EQ(r.kernels[1].l2_read_hits, 128u * 4);
  EXPECT_EQ(r.kernels[1].dram_reads, 0u);
}

TEST(BetweenLaunches, FlushStartsEveryLaunchCold) {
  const TrialResult r = run_one(two_launches_reading_the_same_lines(),
                                load_hierarchy("fermi-c2050", {"l2.between_launches=flush"}));
  EXPECT_EQ(r.kernels[1].l2_reads, 128u * 4);
  EXPECT_EQ(r.kernels[1].l2_read_hits, 0u);
  EXPECT_EQ(r.kernels[1].dram_reads, 128u);
}

TEST(BetweenLaunches, ALaunchTheTraceDoesNotHoldInBetweenMakesTheL2Cold) {
  // Launch 1 of the program was not traced: what it did to the L2 is unknown.
  const std::string path = two_launches_reading_the_same_lines(1);
  const HierarchyConfig config = load_hierarchy("v100");
  const TrialResult r = run_one(path, config);
  EXPECT_EQ(r.kernels[1].l2_read_hits, 0u);
  const auto reader = tracebuf::TraceReader::open(path);
  const CompiledTrace compiled = compile_trace(reader, config);
  EXPECT_FALSE(keeps_l2(config, nullptr, compiled.launches[0]));
  EXPECT_FALSE(keeps_l2(config, &compiled.launches[0], compiled.launches[1]));
  // Replaying only the second launch of a consecutive pair starts cold too.
  const auto pair = tracebuf::TraceReader::open(two_launches_reading_the_same_lines());
  const CompiledTrace second = compile_trace(pair, config, {.launches = {1}});
  TrialWorkspace workspace;
  EXPECT_EQ(run_trial(second, config, 7, 0, workspace).overall.l2_read_hits, 0u);
  const CompiledTrace both = compile_trace(pair, config);
  EXPECT_TRUE(keeps_l2(config, &both.launches[0], both.launches[1]));
}

TEST(BetweenLaunches, DirtyLinesWrittenByOneLaunchAreHitByTheNextOnVolta) {
  // Launch 0 stores 8 lines, launch 1 reads them: on V100 (any valid sector takes a read) every
  // L2 sector read hits what the previous kernel wrote.
  TraceBuilder builder(1, 32);
  const auto out = builder.add_load(AccessKind::kWrite, "y[i] = v");
  const auto in = builder.add_load(AccessKind::kRead, "y[i]");
  for (std::uint32_t line = 0; line < 8; ++line) {
    builder.coalesced(0, 0, out, 0x200000 + line * 128);
  }
  builder.next_launch("consumer");
  for (std::uint32_t line = 0; line < 8; ++line) {
    builder.coalesced(0, 0, in, 0x200000 + line * 128);
  }
  const TrialResult r = run_one(builder.write("producer-consumer"), load_hierarchy("v100"));
  EXPECT_EQ(r.loads[in].l1_hits, 0u);  // the L1 that cached the stores was invalidated
  EXPECT_EQ(r.loads[in].l2_read_sectors, 8u * 4);
  EXPECT_EQ(r.loads[in].l2_read_sector_hits, 8u * 4);
}

TEST(L1StoresOnVolta, AStoreAllocatesTheLineAndALaterLoadOfWhatItWroteHits) {
  TraceBuilder builder(1, 32);
  const auto store = builder.add_load(AccessKind::kWrite, "a[i] = v");
  const auto load = builder.add_load(AccessKind::kRead, "a[i]");
  builder.coalesced(0, 0, store, 0x10000);  // 128 bytes: all four sectors written in full
  builder.coalesced(0, 0, load, 0x10000);
  const std::string path = builder.write("volta-store");
  const TrialResult r = run_one(path, load_hierarchy("v100"));
  EXPECT_EQ(r.loads[load].l1_accesses, 1u);
  EXPECT_EQ(r.loads[load].l1_hits, 1u);
  EXPECT_EQ(r.loads[load].l1_sector_hits, 4u);
  // The store itself missed: nothing was in the L1 (the lookups Nsight Compute counts).
  EXPECT_EQ(r.loads[store].l1_store_sectors, 4u);
  EXPECT_EQ(r.loads[store].l1_store_sector_hits, 0u);
  // The other behaviour, a write-through L1 that only updates lines it holds, is a key.
  const TrialResult update =
      run_one(path, load_hierarchy("v100", {"l1.store_policy=no_allocate_update"}));
  EXPECT_EQ(update.loads[load].l1_hits, 0u);
}

TEST(L1StoresOnVolta, SectorsWrittenOnlyInPartAreFetchedWhenRead) {
  // 2-byte stores by 32 lanes cover bytes 0-63 of the line: sectors 0 and 1 in full. Then a
  // struct-field style store (4 bytes every 8) touches sectors 2 and 3 but fills neither.
  TraceBuilder builder(1, 32);
  const auto half = builder.add_load(AccessKind::kWrite, "h[i] = v");
  const auto field = builder.add_load(AccessKind::kWrite, "s[i].f = v");
  const auto load = builder.add_load(AccessKind::kRead, "a[i]");
  builder.access(0, 0, half, [](unsigned lane) { return 0x20000 + 2 * lane; }, 0xFFFFFFFF, 2);
  builder.access(0, 0, field, [](unsigned lane) { return 0x20040 + 8 * (lane % 8); }, 0xFFFFFFFF,
                 4);
  builder.coalesced(0, 0, load, 0x20000);
  const std::string path = builder.write("partial-store");
  const auto reader = tracebuf::TraceReader::open(path);
  const HierarchyConfig v100 = load_hierarchy("v100");
  const CompiledTrace compiled = compile_trace(reader, v100);
  ASSERT_EQ(compiled.transactions.size(), 3u);
  EXPECT_EQ(compiled.transactions[0].l1_full_sectors, 0b0011);
  // bytes 64-123: sectors 2 and 3
  EXPECT_EQ(l1_sectors_of_chunks(v100)[compiled.transactions[1].l2_sectors], 0b1100);
  EXPECT_EQ(compiled.transactions[1].l1_full_sectors, 0);  // ... half of each (and lanes overlap)
  const TrialResult r = run_one(path, load_hierarchy("v100"));
  EXPECT_EQ(r.loads[load].l1_sectors, 4u);
  EXPECT_EQ(r.loads[load].l1_sector_hits, 2u);
  EXPECT_EQ(r.loads[load].l1_hits, 0u);
  EXPECT_EQ(r.loads[load].l2_read_sectors, 2u);  // only the two sectors not written in full
  // The field store found sectors 2 and 3 allocated but not valid: two store lookups, no hit.
  EXPECT_EQ(r.loads[field].l1_store_sectors, 2u);
  EXPECT_EQ(r.loads[field].l1_store_sector_hits, 0u);
}

TEST(L1StoresOnVolta, AStoreAfterALoadOfTheSameSectorsHits) {
  TraceBuilder builder(1, 32);
  const auto load = builder.add_load(AccessKind::kRead, "a[i]");
  const auto store = builder.add_load(AccessKind::kWrite, "a[i] = v");
  builder.coalesced(0, 0, load, 0x30000);
  builder.coalesced(0, 0, store, 0x30000);
  const TrialResult r = run_one(builder.write("load-then-store"), load_hierarchy("h100"));
  EXPECT_EQ(r.loads[store].l1_store_sectors, 4u);
  EXPECT_EQ(r.loads[store].l1_store_sector_hits, 4u);
  // Fermi's L1 does not count: its line is invalidated, and the lookups still hit first.
  const TrialResult fermi = run_one(builder.write("load-then-store-fermi"),
                                    load_hierarchy("fermi-c2050"));
  EXPECT_EQ(fermi.loads[store].l1_store_sectors, 1u);  // one 128-byte (unsectored) sector
  EXPECT_EQ(fermi.loads[store].l1_store_sector_hits, 1u);
}

}  // namespace
}  // namespace memcarlo::sim
