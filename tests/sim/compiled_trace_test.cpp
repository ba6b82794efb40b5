// The compiled trace's own contract: the same arrays whatever the thread count, counter slots and
// line ids in first-seen order, the address index (find_line), the 12-byte transaction and its
// limits, and arrays sized exactly.
#include <gtest/gtest.h>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "trace_builder.hpp"

namespace memcarlo::sim {
namespace {

using testing::TraceBuilder;
using tracebuf::AccessKind;

/// Two launches (two kernels) of 24 blocks of 256 threads; each warp runs 24 iterations of a
/// sparse-matrix-like loop: coalesced reads of an index array, a gather through it (depending on
/// it), a coalesced store, a scattered atomic and a read-modify-write, over four allocations, with
/// a barrier now and then; each block also reads an array of its own. Some warps are left
/// untraced. About 385 000 transactions on 12 000
/// lines.
std::string mixed_trace() {
  TraceBuilder builder(24, 256);
  std::mt19937_64 random(12);
  builder.add_allocation(0x100000, 0x40000, "index");
  builder.add_allocation(0x200000, 0x100000, "x");
  builder.add_allocation(0x400000, 0x40000, "y");
  builder.add_allocation(0x600000, 0x1000, "histogram");
  const auto index = builder.add_load(AccessKind::kRead, "index[i]", 0);
  const auto gather = builder.add_load(AccessKind::kRead, "x[index[i]]", 0, {index});
  const auto store = builder.add_load(AccessKind::kWrite, "y[i] = v");
  const auto atomic = builder.add_load(AccessKind::kAtomic, "atomicAdd(&histogram[v], 1)");
  const auto update = builder.add_load(AccessKind::kReadModifyWrite, "x[i] += v");
  // One more load per block, first seen there: a compile that numbered the counter slots in
  // the order streams finish would number these differently from run to run.
  std::vector<std::uint32_t> per_block;
  for (int b = 0; b < 24; ++b) {
    per_block.push_back(builder.add_load(AccessKind::kRead, "z" + std::to_string(b) + "[i]"));
  }
  for (int launch = 0; launch < 2; ++launch) {
    if (launch == 1) {
      builder.next_launch("second_kernel");
    }
    for (std::uint32_t block = 0; block < 24; ++block) {
      for (std::uint32_t warp = 0; warp < 8; ++warp) {
        if ((block + warp) % 7 == 3) {
          continue;  // untraced warp
        }
        const std::uint64_t row = (std::uint64_t{block} * 8 + warp) * 32;
        builder.coalesced(block, warp, per_block[block], 0x400000 + 128 * warp);
        for (std::uint32_t iteration = 0; iteration < 24; ++iteration) {
          const std::uint64_t at = 4 * (row + iteration * 6144);
          builder.coalesced(block, warp, index, 0x100000 + at % 0x40000,
                            iteration % 5 == 4 ? 1 : 0);
          std::vector<std::uint64_t> columns(32);
          for (auto& column : columns) {
            column = random() % 0x40000;
          }
          builder.access(block, warp, gather,
                         [&](unsigned lane) { return 0x200000 + 4 * columns[lane]; });
          builder.coalesced(block, warp, store, 0x400000 + at % 0x40000);
          builder.access(block, warp, atomic,
                         [&](unsigned lane) { return 0x600000 + 4 * (columns[lane] % 1024); },
                         0x0F0F0F0F);
          builder.access(block, warp, update,
                         [&](unsigned lane) { return 0x200000 + 8 * (row + lane); }, 0xFFFFFFFF,
                         8);
        }
      }
    }
  }
  return builder.write("mixed");
}

CompiledTrace compile_on(const std::string& path, const HierarchyConfig& config,
                         int threads) {
  const auto reader = tracebuf::TraceReader::open(path);
  tbb::task_arena arena(threads);
  CompiledTrace out;
  arena.execute([&] { out = compile_trace(reader, config); });
  return out;
}

void expect_identical(const CompiledTrace& a, const CompiledTrace& b) {
  EXPECT_EQ(a.launches, b.launches);
  EXPECT_EQ(a.warps, b.warps);
  EXPECT_EQ(a.bulks, b.bulks);
  EXPECT_TRUE(a.transactions == b.transactions);  // (a diff of 385 000 entries would not help)
  EXPECT_EQ(a.l1_line_address, b.l1_line_address);
  EXPECT_EQ(a.line_ids_by_address, b.line_ids_by_address);
  EXPECT_EQ(a.l1_set, b.l1_set);
  EXPECT_EQ(a.l2_lines_per_l1_line, b.l2_lines_per_l1_line);
  EXPECT_EQ(a.l2_sectors_per_l2_line, b.l2_sectors_per_l2_line);
  EXPECT_EQ(a.l2_set, b.l2_set);
  EXPECT_EQ(a.dram_location, b.dram_location);
  EXPECT_EQ(a.slots, b.slots);
  EXPECT_EQ(a.kernel_names, b.kernel_names);
  EXPECT_EQ(a.loads, b.loads);
  EXPECT_EQ(a.allocation_names, b.allocation_names);
}

TEST(ParallelCompile, GivesTheSameArraysOnOneThreadAndOnSeveral) {
  // More workers than this machine may have cores, so that streams really are compiled out of
  // order.
  const tbb::global_control workers(tbb::global_control::max_allowed_parallelism, 8);
  const std::string path = mixed_trace();
  for (const char* preset : {"fermi-c2050", "v100"}) {
    const HierarchyConfig config = load_hierarchy(preset);
    const CompiledTrace serial = compile_on(path, config, 1);
    ASSERT_GT(serial.transactions.size(), 300'000u);
    ASSERT_GT(serial.slots.size(), 40u);
    for (const int threads : {2, 3, 8}) {
      SCOPED_TRACE(std::string(preset) + " on " + std::to_string(threads) + " threads");
      expect_identical(serial, compile_on(path, config, threads));
    }
  }
}

TEST(ParallelCompile, CounterSlotsKeepTheirFirstSeenOrderOverLaunchBlockWarpRecord) {
  // Trials add floating-point counters in slot order, so the order is part of the result.
  const tbb::global_control workers(tbb::global_control::max_allowed_parallelism, 8);
  TraceBuilder builder(2, 64);
  const auto a = builder.add_load(AccessKind::kRead, "a[i]");
  const auto b = builder.add_load(AccessKind::kRead, "b[i]");
  const auto c = builder.add_load(AccessKind::kWrite, "c[i] = v");
  builder.add_allocation(0x10000, 0x1000, "first");
  builder.add_allocation(0x20000, 0x1000, "second");
  // Block 1 is long, so that a parallel compile finishes block 0 warp 1 and block 1 late.
  for (int i = 0; i < 2000; ++i) {
    builder.coalesced(1, 0, c, 0x20000 + 128 * (i % 8));
  }
  builder.coalesced(0, 1, a, 0x20000);  // a in "second"
  builder.coalesced(0, 1, b, 0x10000);  // b in "first"
  builder.coalesced(0, 0, b, 0x20000);  // b in "second"
  builder.coalesced(0, 0, a, 0x10000);  // a in "first"
  builder.next_launch("later");
  builder.coalesced(0, 0, a, 0x10000);  // a in "first", but of another kernel
  builder.coalesced(0, 0, a, 0x30000);  // a in no allocation
  const std::string path = builder.write("slot-order");
  const std::vector<CounterSlot> expected = {
      {b, 1, 0}, {a, 0, 0}, {a, 1, 0}, {b, 0, 0}, {c, 1, 0}, {a, 0, 1}, {a, kNoAllocation, 1}};
  for (const int threads : {1, 4}) {
    const CompiledTrace compiled = compile_on(path, load_hierarchy("fermi-c2050"), threads);
    EXPECT_EQ(compiled.slots, expected) << threads << " threads";
    EXPECT_EQ(compiled.slots.capacity(), compiled.slots.size());
  }
}

TEST(ParallelCompile, RefusesWithTheErrorASerialCompileMeetsFirst) {
  const tbb::global_control workers(tbb::global_control::max_allowed_parallelism, 8);
  TraceBuilder builder(4, 64);
  const auto a = builder.add_load(AccessKind::kRead, "a[i]");
  const auto late = builder.add_load(AccessKind::kRead, "dropped from the table");
  const auto early = builder.add_load(AccessKind::kRead, "dropped from the table too");
  for (std::uint32_t block = 0; block < 4; ++block) {
    for (int i = 0; i < 500; ++i) {
      builder.coalesced(block, 0, a, 0x10000 + 128 * i);
    }
  }
  // Block 1 warp 1 meets its bad id late; block 3 warp 1 at once. A serial compile reaches
  // block 1 first, so that is the error, however the streams' compiles overlap in time.
  for (int i = 0; i < 3000; ++i) {
    builder.coalesced(1, 1, a, 0x10000 + 128 * (i % 64));
  }
  builder.coalesced(1, 1, early, 0x10000);
  builder.coalesced(3, 1, late, 0x10000);
  builder.keep_loads(1);
  const std::string path = builder.write("bad-ids");
  for (const int threads : {1, 4}) {
    try {
      (void)compile_on(path, load_hierarchy("fermi-c2050"), threads);
      ADD_FAILURE() << "compiled a trace with static ids outside the loads table";
    } catch (const std::invalid_argument& error) {
      EXPECT_STREQ(error.what(), "record static id 2 is not in the loads table")
          << threads << " threads";
    }
  }
}

TEST(LineIds, AreGivenInFirstSeenOrderAndIndexedByAddress) {
  TraceBuilder builder(2, 64);
  const auto a = builder.add_load(AccessKind::kRead, "a[i]");
  const auto b = builder.add_load(AccessKind::kRead, "b[32 * i]");
  // Block 1 is long, so that a parallel compile finishes it late.
  for (int i = 0; i < 2000; ++i) {
    builder.coalesced(1, 0, a, 0x20000 + 128 * (i % 64));
  }
  builder.coalesced(0, 1, a, 0x3000);
  builder.coalesced(0, 0, a, 0x9000);
  builder.access(0, 0, b, [](unsigned lane) { return 0x5000 + 128 * lane; });
  builder.access(0, 0, b, [](unsigned lane) { return 0x1000 + 128 * (31 - lane); });
  builder.coalesced(0, 1, a, 0x9000);  // seen before
  const std::string path = builder.write("line-order");
  const HierarchyConfig config = load_hierarchy("fermi-c2050");
  const CompiledTrace compiled = compile_on(path, config, 4);
  // Block 0 warp 0: 0x9000 (id 0), 0x5000 (1), 0x5080 (2) ..., then 0x1000 ... (a warp
  // instruction's transactions go by address, whatever its lanes' order); warp 1: 0x3000;
  // block 1: 0x20000 ...
  std::vector<std::uint64_t> expected = {0x9000};
  for (std::uint64_t line = 0; line < 32; ++line) {
    expected.push_back(0x5000 + 128 * line);
  }
  for (std::uint64_t line = 0; line < 32; ++line) {
    expected.push_back(0x1000 + 128 * line);
  }
  expected.push_back(0x3000);
  for (std::uint64_t line = 0; line < 64; ++line) {
    expected.push_back(0x20000 + 128 * line);
  }
  EXPECT_EQ(compiled.l1_line_address, expected);
  const CompiledTrace serial = compile_on(path, config, 1);
  EXPECT_EQ(serial.l1_line_address, expected);

  const CompiledTrace mixed = compile_on(mixed_trace(), config, 2);
  ASSERT_EQ(mixed.line_ids_by_address.size(), mixed.l1_line_count());
  std::vector<std::uint64_t> by_address;
  for (const std::uint32_t id : mixed.line_ids_by_address) {
    by_address.push_back(mixed.l1_line_address.at(id));
  }
  EXPECT_TRUE(std::is_sorted(by_address.begin(), by_address.end()));
  EXPECT_EQ(std::adjacent_find(by_address.begin(), by_address.end()), by_address.end());
  const std::uint64_t sets = config.l1.sets();
  std::uint32_t next_new = 0;  // first-seen order: each transaction's line is seen or the next
  for (const Transaction& t : mixed.transactions) {
    ASSERT_LE(t.line, next_new);
    next_new = std::max(next_new, t.line + 1);
    ASSERT_EQ(t.l1_set, mixed.l1_set[t.line]);
    ASSERT_EQ(mixed.l1_set[t.line], mixed.l1_line_address[t.line] / config.l1.line % sets);
  }
  EXPECT_EQ(next_new, mixed.l1_line_count());
}

TEST(FindLine, FindsEveryTracedLineAndNothingElse) {
  const CompiledTrace compiled = compile_on(mixed_trace(), load_hierarchy("v100"), 2);
  ASSERT_GT(compiled.l1_line_count(), 1000u);
  for (std::uint32_t id = 0; id < compiled.l1_line_count(); ++id) {
    ASSERT_EQ(compiled.find_line(compiled.l1_line_address[id]), id);
  }
  const auto [lowest, highest] =
      std::minmax_element(compiled.l1_line_address.begin(), compiled.l1_line_address.end());
  const std::uint64_t first = *lowest;
  const std::uint64_t last = *highest;
  EXPECT_EQ(compiled.find_line(first - 128), std::nullopt);
  EXPECT_EQ(compiled.find_line(last + 128), std::nullopt);
  EXPECT_EQ(compiled.find_line(first + 4), std::nullopt);  // inside a line, not its start
  EXPECT_EQ(compiled.find_line(0x500000), std::nullopt);   // between the allocations
  EXPECT_EQ(CompiledTrace{}.find_line(0), std::nullopt);
}

TEST(TransactionLayout, PacksSlotAndKindIntoOneWord) {
  static_assert(sizeof(Transaction) == 12);
  for (const AccessKind kind : {AccessKind::kRead, AccessKind::kWrite,
                                AccessKind::kReadModifyWrite, AccessKind::kAtomic}) {
    for (const std::uint32_t slot : {0u, 1u, 12345u, (1u << 30) - 1}) {
      const Transaction t{0, Transaction::pack(slot, kind), 0, 0, 0};
      EXPECT_EQ(t.slot(), slot);
      EXPECT_EQ(t.kind(), kind);
    }
  }
}

TEST(TransactionLayout, MoreCounterSlotsThanThirtyBitsHoldIsAnError) {
  EXPECT_NO_THROW(require_counter_slots_fit(std::uint64_t{1} << 30));
  try {
    require_counter_slots_fit((std::uint64_t{1} << 30) + 1);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("more than 1073741824 (2^30) counter slots"),
              std::string::npos)
        << error.what();
  }
}

TEST(TransactionLayout, AnL1OfMoreThan65536SetsIsAnError) {
  TraceBuilder builder(1, 32);
  const auto a = builder.add_load(AccessKind::kRead, "a[i]");
  builder.coalesced(0, 0, a, 65535 * 128);  // line 65535: the last of 65536 sets
  builder.coalesced(0, 0, a, 65536 * 128);  // line 65536: set 0
  const std::string path = builder.write("many-sets");
  const HierarchyConfig fits =
      load_hierarchy("fermi-c2050", {"l1.size=8MiB", "l1.associativity=1"});
  ASSERT_EQ(fits.l1.sets(), 65536u);
  const CompiledTrace compiled = compile_on(path, fits, 1);
  ASSERT_EQ(compiled.transactions.size(), 2u);
  EXPECT_EQ(compiled.transactions[0].l1_set, 65535u);
  EXPECT_EQ(compiled.transactions[1].l1_set, 0u);
  const HierarchyConfig too_many =
      load_hierarchy("fermi-c2050", {"l1.size=16MiB", "l1.associativity=1"});
  try {
    (void)compile_on(path, too_many, 1);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("131072 sets; a compiled trace supports at most "
                                             "65536 (2^16) L1 sets"),
              std::string::npos)
        << error.what();
  }
}

TEST(TransactionLayout, L1SectorsAreThoseHoldingATouchedChunk) {
  // fermi-c2050: one 128-byte L1 sector of four 32-byte chunks; v100: 32-byte L1 sectors.
  const auto fermi = l1_sectors_of_chunks(load_hierarchy("fermi-c2050"));
  const auto v100 = l1_sectors_of_chunks(load_hierarchy("v100"));
  const auto wide = l1_sectors_of_chunks(load_hierarchy("v100", {"l1.sector=64"}));
  for (std::uint32_t chunks = 1; chunks < 16; ++chunks) {
    EXPECT_EQ(fermi[chunks], 1);
    EXPECT_EQ(v100[chunks], chunks);
    EXPECT_EQ(wide[chunks], ((chunks & 3) != 0 ? 1 : 0) | ((chunks & 12) != 0 ? 2 : 0));
  }
  EXPECT_EQ(fermi[0], 0);
  EXPECT_EQ(v100[0], 0);
}

TEST(CompiledSize, ArraysAreSizedExactlyAndATransactionCostsAtMost14Bytes) {
  const CompiledTrace compiled = compile_on(mixed_trace(), load_hierarchy("v100"), 2);
  EXPECT_EQ(compiled.transactions.capacity(), compiled.transactions.size());
  EXPECT_EQ(compiled.bulks.capacity(), compiled.bulks.size());
  EXPECT_EQ(compiled.warps.capacity(), compiled.warps.size());
  EXPECT_EQ(compiled.l1_line_address.capacity(), compiled.l1_line_address.size());
  EXPECT_EQ(compiled.line_ids_by_address.capacity(), compiled.line_ids_by_address.size());
  EXPECT_EQ(compiled.l1_set.capacity(), compiled.l1_set.size());
  EXPECT_EQ(compiled.l2_set.capacity(), compiled.l2_set.size());
  EXPECT_EQ(compiled.dram_location.capacity(), compiled.dram_location.size());
  EXPECT_EQ(compiled.line_module.capacity(), compiled.line_module.size());
  EXPECT_EQ(compiled.line_page.capacity(), compiled.line_page.size());
  EXPECT_EQ(compiled.launches.capacity(), compiled.launches.size());
  for (const LaunchTrace& launch : compiled.launches) {
    EXPECT_EQ(launch.blocks.capacity(), launch.blocks.size());
  }
  // 12 bytes per transaction, 12 per bulk, 8 per warp, and per line its address (8), place in
  // the address index (4), L1 set (4), L2 set (4 per L2 line in it), DRAM location (8), home
  // module (2) and page (4).
  const std::uint64_t lines = compiled.l1_line_count();
  EXPECT_EQ(compiled.bytes(), 12 * compiled.transactions.size() + 12 * compiled.bulks.size() +
                                  8 * compiled.warps.size() +
                                  lines * (8 + 4 + 4 + 4 * compiled.l2_lines_per_l1_line + 8 + 2 + 4));
  // On a trace that reuses its lines, as kernels do, that is under 14 bytes a transaction.
  const double per_transaction =
      static_cast<double>(compiled.bytes()) / static_cast<double>(compiled.transactions.size());
  EXPECT_LE(per_transaction, 14.0);
}

}  // namespace
}  // namespace memcarlo::sim
