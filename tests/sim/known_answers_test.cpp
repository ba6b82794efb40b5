// Engine tests with answers computed by hand: compulsory misses, coalescing, L1 reuse, L2 reuse,
// the C2050 store semantics, inclusive back-invalidation.
#include <gtest/gtest.h>

#include "trace_builder.hpp"

namespace memcarlo::sim {
namespace {

using testing::run_one;
using testing::TraceBuilder;
using tracebuf::AccessKind;

HierarchyConfig fermi(const std::vector<std::string>& overrides = {}) {
  return load_hierarchy("fermi-c2050", overrides);
}

TEST(Coalescing, StreamReadsAreCompulsoryMissesWithOneTransactionPerRequest) {
  // 28 blocks x 2 warps, each warp reads 4 disjoint coalesced 128-byte chunks.
  TraceBuilder builder(28, 64);
  const auto in = builder.add_load(AccessKind::kRead, "in[i]", 0);
  for (std::uint32_t b = 0; b < 28; ++b) {
    for (std::uint32_t w = 0; w < 2; ++w) {
      for (std::uint32_t k = 0; k < 4; ++k) {
        builder.coalesced(b, w, in, 0x100000 + ((k * 28 + b) * 2 + w) * 128);
      }
    }
  }
  const auto path = builder.write("stream");
  const auto reader = tracebuf::TraceReader::open(path);
  const auto config = fermi();
  const auto compiled = compile_trace(reader, config);
  EXPECT_EQ(compiled.loads[in].requests, 28u * 2 * 4);
  EXPECT_EQ(compiled.loads[in].transactions, 28u * 2 * 4);  // one 128-byte line per request
  const TrialResult r = run_one(path, config);
  EXPECT_EQ(r.overall.l1_accesses, 224u);
  EXPECT_EQ(r.overall.l1_hits, 0u);
  EXPECT_EQ(r.overall.l2_reads, 224u * 4);  // each 128-byte miss asks for four 32-byte blocks
  EXPECT_EQ(r.overall.l2_read_hits, 0u);
  // The four blocks of one line share a DRAM row: the L2 sends one 128-byte DRAM request.
  EXPECT_EQ(r.overall.dram_reads, 224u);
}

TEST(Coalescing, StrideTwoFloatsNeedTwoTransactionsPerRequest) {
  TraceBuilder builder(1, 32);
  const auto a = builder.add_load(AccessKind::kRead, "a[2*i]");
  builder.access(0, 0, a, [](unsigned lane) { return 0x2000 + 8 * lane; });
  builder.access(0, 0, a, [](unsigned lane) { return 0x3000 + 8 * lane; });
  const auto reader = tracebuf::TraceReader::open(builder.write("stride"));
  const auto compiled = compile_trace(reader, fermi());
  EXPECT_EQ(compiled.loads[a].requests, 2u);
  EXPECT_EQ(compiled.loads[a].transactions, 4u);
  // Each line is touched at 16 of its 32 four-byte words: two of every 8 bytes.
  for (const Transaction& t : compiled.transactions) {
    EXPECT_EQ(t.l2_sectors, 0xF);
  }
}

TEST(Coalescing, SectoredL1CountsOnlyTheSectorsTouched) {
  TraceBuilder builder(1, 32);
  const auto a = builder.add_load(AccessKind::kRead, "a[i]");
  // 16 lanes x 4 bytes = 64 bytes: sectors 0 and 1 of one 128-byte line.
  builder.access(0, 0, a, [](unsigned lane) { return 0x4000 + 4 * lane; }, 0x0000FFFF);
  const auto reader = tracebuf::TraceReader::open(builder.write("sectors"));
  const HierarchyConfig h100 = load_hierarchy("h100");
  const auto compiled = compile_trace(reader, h100);
  ASSERT_EQ(compiled.transactions.size(), 1u);
  EXPECT_EQ(l1_sectors_of_chunks(h100)[compiled.transactions[0].l2_sectors], 0b0011);
  EXPECT_EQ(compiled.transactions[0].l2_sectors, 0b0011);
}

TEST(L1Reuse, ArrayThatFitsInL1ApproachesNMinusOneOverN) {
  // One block per SM (14 on the C2050), one warp each. Every warp reads the same 1 KiB array
  // (8 lines) in `passes` passes. Per SM each line is read n = passes times: the first read is a
  // compulsory miss and the other n - 1 hit, since 1 KiB fits in the 16 KiB L1.
  for (std::uint32_t passes : {2u, 5u, 10u}) {
    TraceBuilder builder(14, 32);
    const auto x = builder.add_load(AccessKind::kRead, "x[j]");
    for (std::uint32_t b = 0; b < 14; ++b) {
      for (std::uint32_t p = 0; p < passes; ++p) {
        for (std::uint32_t line = 0; line < 8; ++line) {
          builder.coalesced(b, 0, x, 0x8000 + line * 128);
        }
      }
    }
    const TrialResult r = run_one(builder.write("reuse"), fermi());
    const double hit_ratio =
        static_cast<double>(r.overall.l1_hits) / static_cast<double>(r.overall.l1_accesses);
    EXPECT_DOUBLE_EQ(hit_ratio, (passes - 1.0) / passes) << passes << " passes";
  }
}

TEST(L2Reuse, WorkingSetBetweenL1AndL2MissesInL1AndHitsInL2OnTheSecondPass) {
  // One warp streams twice over 64 KiB: 4x the L1, a twelfth of the L2.
  TraceBuilder builder(1, 32);
  const auto x = builder.add_load(AccessKind::kRead, "x[j]");
  constexpr std::uint32_t kLines = 64 * 1024 / 128;
  for (std::uint32_t pass = 0; pass < 2; ++pass) {
    for (std::uint32_t line = 0; line < kLines; ++line) {
      builder.coalesced(0, 0, x, 0x100000 + line * 128);
    }
  }
  const TrialResult r = run_one(builder.write("l2reuse"), fermi());
  EXPECT_EQ(r.overall.l1_accesses, 2u * kLines);
  EXPECT_EQ(r.overall.l1_hits, 0u);  // LRU over a cyclic pattern 4x the cache: always evicted
  EXPECT_EQ(r.overall.l2_reads, 2u * kLines * 4);
  EXPECT_EQ(r.overall.l2_read_hits, kLines * 4u);  // every block of the second pass
}

TEST(L1StorePolicy, StoresDoNotAllocateInTheC2050L1AndEvictTheLine) {
  TraceBuilder builder(1, 32);
  const auto store = builder.add_load(AccessKind::kWrite, "a[i] = v");
  const auto load = builder.add_load(AccessKind::kRead, "a[i]");
  builder.coalesced(0, 0, store, 0x10000);  // store: no L1 allocation
  builder.coalesced(0, 0, load, 0x10000);   // L1 miss, L2 hit (the store left it valid)
  builder.coalesced(0, 0, load, 0x10000);   // L1 hit
  builder.coalesced(0, 0, store, 0x10000);  // invalidates the L1 line
  builder.coalesced(0, 0, load, 0x10000);   // L1 miss again, L2 hit
  const TrialResult r = run_one(builder.write("l1store"), fermi());
  const AccessCounters& reads = r.loads[load];
  EXPECT_EQ(reads.l1_accesses, 3u);
  EXPECT_EQ(reads.l1_hits, 1u);
  EXPECT_EQ(reads.l2_reads, 8u);
  EXPECT_EQ(reads.l2_read_hits, 8u);
}

TEST(L2WritePolicy, StoreToInvalidBlockWritesMemoryAndAllocatesTheBlock) {
  TraceBuilder builder(1, 32);
  const auto store = builder.add_load(AccessKind::kWrite, "a[i] = v");
  builder.coalesced(0, 0, store, 0x20000);  // 4 blocks: write misses, memory updated, allocated
  builder.coalesced(0, 0, store, 0x20000);  // 4 write hits: the blocks were activated by a write
  const TrialResult r = run_one(builder.write("l2store"), fermi());
  EXPECT_EQ(r.overall.l2_writes, 8u);
  EXPECT_EQ(r.overall.l2_write_hits, 4u);
  EXPECT_EQ(r.dram_writes, 1u);  // the first store's four blocks, in one DRAM request; the
                                 // second store's dirty data stays in the L2
}

TEST(L2WritePolicy, OnTheC2050AStoreHitsOnlyBlocksActivatedByAWrite) {
  // Paper 2.1: a block brought in by a load does not take a store as a hit.
  TraceBuilder builder(1, 32);
  const auto load = builder.add_load(AccessKind::kRead, "a[i]");
  const auto store = builder.add_load(AccessKind::kWrite, "a[i] = v");
  builder.coalesced(0, 0, load, 0x30000);
  builder.coalesced(0, 0, store, 0x30000);
  const auto path = builder.write("activation");
  EXPECT_EQ(run_one(path, fermi()).overall.l2_write_hits, 0u);
  EXPECT_EQ(run_one(path, fermi({"l2.write_activation=false"})).overall.l2_write_hits, 4u);
}

// l2.store_miss = allocate (the Volta-and-later presets; measured on an H200): a store to absent
// sectors is a hit that sends nothing to DRAM; its dirty sectors go there when evicted.
TEST(L2WritePolicy, AnAllocatingL2TakesAStoreMissAsAHitAndWritesItBackOnEviction) {
  const std::vector<std::string> allocate = {"l2.write_activation=false", "l2.store_miss=allocate",
                                             "l2.size=4KiB", "l2.associativity=1",
                                             "l2.slices=1"};
  TraceBuilder builder(1, 32);
  const auto store = builder.add_load(AccessKind::kWrite, "a[i] = v");
  const auto load = builder.add_load(AccessKind::kRead, "b[i]");
  builder.coalesced(0, 0, store, 0x20000);  // 4 absent blocks: 4 hits, nothing to DRAM yet
  builder.coalesced(0, 0, store, 0x20000);  // 4 hits
  const auto stores_only = builder.write("l2store-allocate");
  TrialResult r = run_one(stores_only, fermi(allocate));
  EXPECT_EQ(r.overall.l2_writes, 8u);
  EXPECT_EQ(r.overall.l2_write_hits, 8u);
  EXPECT_EQ(r.overall.l2_write_sector_hits, 8u);
  EXPECT_EQ(r.dram_writes, 0u);
  // Reading the same L2 sets (4 KiB further, direct mapped) evicts the four dirty blocks: each
  // is written back.
  builder.coalesced(0, 0, load, 0x21000);
  r = run_one(builder.write("l2store-evicted"), fermi(allocate));
  EXPECT_EQ(r.dram_writes, 4u);
  // The C2050 rule on the same trace: write-through misses.
  EXPECT_EQ(run_one(stores_only, fermi({"l2.write_activation=false"})).overall.l2_write_hits, 4u);
}

TEST(L2Inclusion, ALineEvictedFromTheL2IsGoneFromEveryL1) {
  // A direct-mapped 4 KiB L2 (128 sets of 32 bytes): address 0x1000 lands in the same L2 sets as
  // 0x0 but, in the 64-way L1, next to it. Reading 0x1000 evicts 0x0 from the L2, and inclusion
  // takes it out of the L1 too.
  const std::vector<std::string> small_l2 = {"l2.size=4KiB", "l2.associativity=1", "l2.slices=1"};
  TraceBuilder builder(1, 32);
  const auto x = builder.add_load(AccessKind::kRead, "x[i]");
  builder.coalesced(0, 0, x, 0x0);
  builder.coalesced(0, 0, x, 0x1000);
  builder.coalesced(0, 0, x, 0x0);
  const auto path = builder.write("inclusion");
  const TrialResult inclusive = run_one(path, fermi(small_l2));
  EXPECT_EQ(inclusive.overall.l1_hits, 0u);
  EXPECT_GE(inclusive.back_invalidations, 1u);
  auto non_inclusive_overrides = small_l2;
  non_inclusive_overrides.push_back("l2.inclusive=false");
  const TrialResult non_inclusive = run_one(path, fermi(non_inclusive_overrides));
  EXPECT_EQ(non_inclusive.overall.l1_hits, 1u);
  EXPECT_EQ(non_inclusive.back_invalidations, 0u);
}

TEST(InFlightHits, ASecondWarpHittingALineStillBeingFilledCountsAsInFlight) {
  // Two warps of one block read the same line back to back: the second finds it pending.
  TraceBuilder builder(1, 64);
  const auto x = builder.add_load(AccessKind::kRead, "x[0]");
  builder.coalesced(0, 0, x, 0x5000);
  builder.coalesced(0, 1, x, 0x5000);
  const TrialResult r = run_one(builder.write("inflight"), fermi());
  EXPECT_EQ(r.overall.l1_accesses, 2u);
  EXPECT_EQ(r.overall.l1_hits, 1u);
  EXPECT_EQ(r.overall.l1_inflight_hits, 1u);
  EXPECT_EQ(r.overall.l2_reads, 4u);  // only the first warp's miss reaches the L2
}

TEST(Barriers, WarpsDoNotPassASyncthreadsBeforeTheirWholeBlockReachesIt) {
  // Warp 0 stores a line, crosses a barrier, then reads what warp 1 stored before the barrier.
  // With the barrier honoured, warp 1's store reaches the L2 before warp 0's read does.
  TraceBuilder builder(1, 64);
  const auto store = builder.add_load(AccessKind::kWrite, "s[i] = v");
  const auto load = builder.add_load(AccessKind::kRead, "s[j]");
  builder.coalesced(0, 0, store, 0x6000);
  builder.coalesced(0, 0, load, 0x6080, /*barriers=*/1);
  // Warp 1 first does a long chain of dependent reads, then its store.
  for (int i = 0; i < 20; ++i) {
    builder.coalesced(0, 1, load, 0x70000 + 4096 * i);
  }
  builder.coalesced(0, 1, store, 0x6080);
  builder.coalesced(0, 1, load, 0x6000, /*barriers=*/1);
  const auto path = builder.write("barrier");
  for (std::uint64_t trial = 0; trial < 8; ++trial) {
    const TrialResult r = run_one(path, fermi({"l2.write_activation=false"}), trial);
    // Both post-barrier reads find the other warp's stored line valid in the L2.
    EXPECT_EQ(r.loads[load].l2_read_hits, 8u) << "trial " << trial;
  }
}

TEST(PerKernel, CountersSplitByKernelAndLaunchesOfOneKernelAddUp) {
  // Three launches, one warp per block on each of the 14 SMs, all through one static access (a
  // __device__ helper shared by two kernels). "stream" (launches 0 and 2) reads 4 new lines per
  // warp: compulsory misses only. "reuse" (launch 1) reads 8 lines twice per warp: half hit.
  TraceBuilder builder(14, 32);
  const auto x = builder.add_load(AccessKind::kRead, "x[j]");
  const auto stream = [&](std::uint64_t base) {
    for (std::uint32_t b = 0; b < 14; ++b) {
      for (std::uint32_t k = 0; k < 4; ++k) {
        builder.coalesced(b, 0, x, base + (b * 4 + k) * 128);
      }
    }
  };
  stream(0x100000);
  builder.next_launch("reuse");
  for (std::uint32_t b = 0; b < 14; ++b) {
    for (std::uint32_t pass = 0; pass < 2; ++pass) {
      for (std::uint32_t line = 0; line < 8; ++line) {
        builder.coalesced(b, 0, x, 0x200000 + line * 128);
      }
    }
  }
  builder.next_launch("test_kernel");
  stream(0x300000);
  const auto path = builder.write("per-kernel");
  const auto reader = tracebuf::TraceReader::open(path);
  const auto config = fermi();
  const CompiledTrace compiled = compile_trace(reader, config);
  ASSERT_EQ(compiled.kernel_names, (std::vector<std::string>{"test_kernel", "reuse"}));
  ASSERT_EQ(compiled.launches.size(), 3u);
  EXPECT_EQ(compiled.launches[0].kernel_index, 0);
  EXPECT_EQ(compiled.launches[1].kernel_index, 1);
  EXPECT_EQ(compiled.launches[2].kernel_index, 0);

  const TrialResult r = run_one(path, config);
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[0].l1_accesses, 2u * 14 * 4);
  EXPECT_EQ(r.kernels[0].l1_hits, 0u);
  EXPECT_EQ(r.kernels[1].l1_accesses, 14u * 16);
  EXPECT_EQ(r.kernels[1].l1_hits, 14u * 8);
  EXPECT_EQ(r.kernels[0].l1_accesses + r.kernels[1].l1_accesses, r.overall.l1_accesses);
  EXPECT_EQ(r.kernels[0].l2_reads + r.kernels[1].l2_reads, r.overall.l2_reads);
  EXPECT_EQ(r.loads[x].l1_accesses, r.overall.l1_accesses);  // one static id, both kernels
}

/// The message compile_trace throws for `trace` on `config`, or "" if it compiles.
std::string compile_error(const std::filesystem::path& trace, const HierarchyConfig& config) {
  try {
    compile_trace(tracebuf::TraceReader::open(trace), config);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(Occupancy, ABlockThatFitsNoSmIsAnErrorNamingEachLimitItExceeds) {
  TraceBuilder builder(1, 64);  // 2 warps; no registers recorded: the default 32 per thread
  const auto a = builder.add_load(AccessKind::kRead, "a[i]");
  builder.coalesced(0, 0, a, 0x1000);
  const auto path = builder.write("occupancy");
  EXPECT_EQ(compile_error(path, fermi()), "");
  // Each message ends with the presets whose SM holds the block (every other preset here).
  const auto limits = [](const std::string& message) {
    return message.substr(0, message.find(". Presets whose SM holds this block: "));
  };
  const std::string registers = compile_error(path, fermi({"sm.registers=2047"}));
  EXPECT_EQ(limits(registers),
            "launch 0 (test_kernel): a block of 64 threads does not fit on one SM of hierarchy "
            "fermi-c2050: 2048 registers (32 per thread, sm.default_registers_per_thread: the "
            "trace does not record them) > sm.registers 2047");
  EXPECT_NE(registers.find("Presets whose SM holds this block: gtx480, v100"), std::string::npos)
      << registers;  // not the hierarchy that failed (its name here, with --set)
  EXPECT_EQ(compile_error(path, fermi({"sm.registers=2048"})), "");  // exactly one block fits
  EXPECT_EQ(limits(compile_error(path, fermi({"sm.max_warps=1"}))),
            "launch 0 (test_kernel): a block of 64 threads does not fit on one SM of hierarchy "
            "fermi-c2050: 2 warps > sm.max_warps 1");
  EXPECT_EQ(limits(compile_error(path, fermi({"sm.max_threads=32", "sm.max_warps=1"}))),
            "launch 0 (test_kernel): a block of 64 threads does not fit on one SM of hierarchy "
            "fermi-c2050: 64 threads > sm.max_threads 32; 2 warps > sm.max_warps 1");
}

TEST(HierarchyLimits, TheCachesMayHoldAtMost64MiLinesTogether) {
  // fermi-c2050's L2 holds 768 KiB / 32 B = 24576 lines; 4096 SMs x l1.size / 128 B the rest.
  const std::vector<std::string> limit = {"sm.count=4096", "l1.associativity=2",
                                          "l1.size=2096384"};  // 4096 x 16378 + 24576 = 2^26
  EXPECT_NO_THROW(fermi(limit));
  std::vector<std::string> over = limit;
  over.back() = "l1.size=2096640";  // one more 2-way set per SM
  try {
    fermi(over);
    ADD_FAILURE() << "a hierarchy of 2^26 + 8192 lines was accepted";
  } catch (const ConfigError& error) {
    EXPECT_NE(std::string(error.what())
                  .find("the caches hold 67117056 lines (sm.count 4096 x l1.size / l1.line = "
                        "67092480, plus l2.size / l2.line = 24576); at most 67108864"),
              std::string::npos)
        << error.what();
  }
  over.push_back("l1.enabled=false");  // without an L1 only the L2's lines count
  EXPECT_NO_THROW(fermi(over));
}

}  // namespace
}  // namespace memcarlo::sim
