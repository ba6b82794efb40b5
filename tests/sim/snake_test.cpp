// Known answers of the Snake prefetcher (sim/src/prefetch/snake.hpp; Mostofi et al., MICRO 2023):
// the chain walk of the paper's Figure 13 and the training sequence of its section 3.4 /
// Figure 15 on the tables themselves, then whole trials: the LPS chain of strides (-400, 40400,
// -400; Figure 7) learned and covered, a random gather that trains nothing, throttling, the
// variants' keys and their range checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/sim/monte_carlo.hpp"
#include "prefetch/builtin.hpp"
#include "run_trial.hpp"
#include "trace_builder.hpp"

namespace memcarlo::sim {
namespace {

using prefetch::Snake;
using testing::run_one;
using testing::TraceBuilder;
using tracebuf::AccessKind;
using Status = Snake::Status;

HierarchyConfig one_sm(std::vector<std::string> settings = {}) {
  settings.push_back("sm.count=1");
  settings.push_back("prefetch.policy=snake");
  return load_hierarchy("fermi-c2050", settings);
}

/// Records the line addresses a prefetcher asks for.
struct RecordingSink {
  std::vector<std::uint64_t> lines;
  void prefetch(ByteAddress address) { lines.push_back(value_of(address) / 128 * 128); }
};

/// Feeds one warp instruction to `snake`: warp `warp` (block 0 of 64 warps) runs load `pc` with
/// every lane at `base` (a broadcast: one line), at `clock`, on an SM that has no prefetched
/// line and no L2 traffic (no throttling); returns the lines asked for.
std::vector<std::uint64_t> run(Snake& snake, std::uint32_t warp, std::uint32_t pc,
                               std::uint64_t base, std::uint64_t clock = 0) {
  static RandomStream random;
  RecordingSink sink;
  const prefetch::L1Access access{SmIndex{0},
                                  ResidentWarp{static_cast<std::uint16_t>(warp)},
                                  StaticLoadId{pc},
                                  ByteAddress{base / 128 * 128},
                                  ByteAddress{base},
                                  0,
                                  true,
                                  true,
                                  false,
                                  BlockId{0},
                                  warp,
                                  64,
                                  Cycles{clock},
                                  0,
                                  128,
                                  0,
                                  random};
  snake.on_access(access, sink);
  return sink.lines;
}

std::uint64_t line_of(std::uint64_t address) { return address / 128 * 128; }

/// The paper's Figure 13 writes the warp-id vector with warp 0 leftmost: "1011" is warps 0, 2, 3.
std::uint64_t warps(std::string_view vector) {
  std::uint64_t bits = 0;
  for (std::size_t w = 0; w < vector.size(); ++w) {
    bits |= vector[w] == '1' ? std::uint64_t{1} << w : 0;
  }
  return bits;
}

/// Figure 13's Tail table: 520 -> 540 (+100, trained), 540 -> 570 (+150, trained), 570 -> 1140
/// (+420, not trained), 1180 -> 520 (+550, trained).
Snake figure_13(std::vector<std::string> settings = {}) {
  settings.push_back("prefetch.snake.intra_inter=false");  // the figure's inter-thread strides only
  Snake snake(one_sm(settings));
  snake.begin_launch(1);
  snake.set_tail_entry(0, {520, 540, 100, Status::kTrained, warps("1011")});
  snake.set_tail_entry(0, {540, 570, 150, Status::kTrained, warps("0111")});
  snake.set_tail_entry(0, {570, 1140, 420, Status::kNotTrained, warps("1011")});
  snake.set_tail_entry(0, {1180, 520, 550, Status::kTrained, warps("1010")});
  return snake;
}

constexpr std::uint64_t kA = 0x100000;

TEST(SnakeFigure13, WalksTheWarpsChainThroughTrainedEntriesAndStopsAtAnUntrainedOne) {
  Snake snake = figure_13();
  // The underlined warp (2) at PC 520: +100 (PC 540), +100 + 150 = +250 (PC 570: the figure's
  // "(+) -> 250"); 570 -> 1140 is not trained, so the walk stops there (no +670).
  EXPECT_EQ(run(snake, 2, 520, kA), (std::vector<std::uint64_t>{line_of(kA + 100),
                                                                 line_of(kA + 250)}));
}

TEST(SnakeFigure13, DeeperStepsNeedTheWarpsBitTheFirstStepOnlyATrainedEntry) {
  Snake snake = figure_13();
  // Warp 0 has 520's bit but not 540's: one step. Warp 1 lacks 520's bit (the first step is
  // still taken: a promoted stride prefetches for every warp) and has 540's: two steps.
  EXPECT_EQ(run(snake, 0, 520, kA), (std::vector<std::uint64_t>{line_of(kA + 100)}));
  Snake again = figure_13();
  EXPECT_EQ(run(again, 1, 520, kA),
            (std::vector<std::uint64_t>{line_of(kA + 100), line_of(kA + 250)}));
}

TEST(SnakeFigure13, TheDepthKeyLimitsTheWalk) {
  // Warp 2 at PC 1180: +550 (520), +650 (540), +800 (570) with the default depth 3 ...
  Snake three = figure_13();
  EXPECT_EQ(run(three, 2, 1180, kA),
            (std::vector<std::uint64_t>{line_of(kA + 550), line_of(kA + 650), line_of(kA + 800)}));
  // ... and only the first two with depth 2, the first with depth 1.
  Snake two = figure_13({"prefetch.snake.depth=2"});
  EXPECT_EQ(run(two, 2, 1180, kA),
            (std::vector<std::uint64_t>{line_of(kA + 550), line_of(kA + 650)}));
  Snake one = figure_13({"prefetch.snake.depth=1"});
  EXPECT_EQ(run(one, 2, 1180, kA), (std::vector<std::uint64_t>{line_of(kA + 550)}));
}

// Section 3.4 / Figure 15: four warps, a non-greedy (round-robin) scheduler, each running a
// loop of two loads. (The figure's own table values are not in the text we have; the sequence
// of states below is the one the section describes, with our numbers: PC 520 then PC 540 at
// +100, warps 1 KiB apart, iterations 8 KiB apart.)
TEST(SnakeFigure15, TrainsThePaperSequenceStepByStep) {
  Snake snake(one_sm());
  snake.begin_launch(1);
  const auto base = [](std::uint32_t warp, std::uint32_t iteration) {
    return kA + warp * 1024 + iteration * 8192;
  };
  // (a) The Head table fills: each warp's first load teaches the Tail nothing. The inter-warp
  // stride of PC 520 (1 KiB per warp) is seen twice by the third warp (three warps): from then
  // on a warp prefetches the next warp's instance.
  for (std::uint32_t w = 0; w < 4; ++w) {
    const std::vector<std::uint64_t> none;
    const std::vector<std::uint64_t> next_warp = {line_of(base(w + 1, 0))};
    EXPECT_EQ(run(snake, w, 520, base(w, 0)), w >= 2 ? next_warp : none) << "warp " << w;
  }
  EXPECT_EQ(snake.tail_size(0), 0u);
  // (b) Each warp's second load sends (520, 540, +100, warp) to the Tail: one entry, one more
  // warp bit each time, promoted (10) at the third warp.
  for (std::uint32_t w = 0; w < 4; ++w) {
    (void)run(snake, w, 540, base(w, 0) + 100);
    const Snake::TailEntry* entry = snake.tail_entry(0, 520, 540);
    ASSERT_NE(entry, nullptr);
    EXPECT_EQ(entry->stride, 100);
    EXPECT_EQ(entry->warp_count(), w + 1);
    EXPECT_EQ(entry->status, w + 1 >= 3 ? Status::kPromoted : Status::kNotTrained) << w;
  }
  EXPECT_EQ(snake.tail_size(0), 1u);
  // The inter-warp stride of PC 520 (1 KiB per warp) is trusted from the third warp on.
  const Snake::PcFields* fields = snake.pc_fields(0, 520);
  ASSERT_NE(fields, nullptr);
  EXPECT_TRUE(fields->inter_warp_trained);
  EXPECT_EQ(fields->inter_warp, 1024);
  // (c) Second iteration: PC 520 again prefetches PC 540's address by the promoted stride (the
  // inter-thread stride first: the inter-warp one is not used). The 540 -> 520 entry (+8092)
  // is new and promoted at the third warp, from which the chain goes on to the next
  // iteration's 520 and 540. The intra-warp stride of 520 (8 KiB) comes through the chain (the
  // Head holds 540, so the last 520 was at the Head's address - 100) and is trusted at the
  // third warp (T2): the next instance once more (asked again; the L1 would find it).
  for (std::uint32_t w = 0; w < 4; ++w) {
    const std::vector<std::uint64_t> asked = run(snake, w, 520, base(w, 1));
    std::vector<std::uint64_t> expected = {line_of(base(w, 1) + 100)};
    if (w + 1 >= 3) {
      expected.push_back(line_of(base(w, 2)));        // 540 -> 520
      expected.push_back(line_of(base(w, 2) + 100));  // 520 -> 540: depth 3
      expected.push_back(line_of(base(w, 2)));        // the intra-warp stride
    }
    EXPECT_EQ(asked, expected) << "warp " << w;
    EXPECT_EQ(snake.pc_fields(0, 520)->intra, 8192);
    EXPECT_EQ(snake.pc_fields(0, 520)->intra_trained, w + 1 >= 3);
    const Snake::TailEntry* back = snake.tail_entry(0, 540, 520);
    ASSERT_NE(back, nullptr);
    EXPECT_EQ(back->stride, 8192 - 100);
    EXPECT_EQ(back->warp_count(), w + 1);
  }
  // A warp seeing (520, 540, +100) again, with its bit already set, confirms it: trained (11).
  (void)run(snake, 0, 540, base(0, 1) + 100);
  EXPECT_EQ(snake.tail_entry(0, 520, 540)->status, Status::kTrained);
  // A warp whose next load after 520 is at another stride leaves the entry, which goes back to
  // detection (not trained), and a new entry holds the new stride.
  (void)run(snake, 1, 540, base(1, 1) + 228);
  const Snake::TailEntry* old_entry = snake.tail_entry(0, 520, 540);
  ASSERT_NE(old_entry, nullptr);
  EXPECT_EQ(old_entry->warps, warps("1011"));
  EXPECT_EQ(old_entry->status, Status::kNotTrained);
  EXPECT_EQ(snake.tail_size(0), 3u);
}

/// Feeds one instruction of a 16 x 16 block's warp `warp` (block 0, 8 warps): lanes 0-15 read
/// 16 consecutive floats of row 2 x warp at `base`, lanes 16-31 those of the next row, `pitch`
/// bytes further: two lines, the lanes not one stride. Returns the lines asked for at either.
std::vector<std::uint64_t> run_rows(Snake& snake, std::uint32_t warp, std::uint32_t pc,
                                    std::uint64_t base, std::uint64_t pitch) {
  static RandomStream random;
  RecordingSink sink;
  for (const std::uint64_t row : {base, base + pitch}) {
    const prefetch::L1Access access{SmIndex{0},
                                    ResidentWarp{static_cast<std::uint16_t>(warp)},
                                    StaticLoadId{pc},
                                    ByteAddress{line_of(row)},
                                    ByteAddress{base},
                                    0,
                                    false,
                                    row == base,
                                    false,
                                    BlockId{0},
                                    warp,
                                    8,
                                    Cycles{0},
                                    0,
                                    128,
                                    0,
                                    random};
    snake.on_access(access, sink);
  }
  return sink.lines;
}

// Issue 28: a 16-wide 2D block (Rodinia hotspot's `temp_on_cuda[ty][tx] = temp_src[index];
// power_on_cuda[ty][tx] = power[index];`, 16 x 16 threads, index = row x 256 + column): each
// warp reads two rows, 1 KiB apart, so its lanes are not one stride. The paper keeps the first
// thread's address per warp (§3.1, §3.4) and computes every stride between first threads; its
// evaluation (§4 Table 2, §5) covers Backprop, Hotspot, Srad and lud, all 16 x 16 blocks. Read
// per lane, §3.4's exclusion of a warp whose threads' stride is not equal would leave every
// warp of those out (the literal reading: uniform_lanes=true). By hand, temp at T, power at
// P = T + 1 MiB, warp w at row 2w:
//   warps 0, 1: temp then power: the Tail's (temp, power, +1 MiB) gets warps 0 and 1;
//   warp 2, temp: temp's inter-warp stride (2 KiB, two rows) is seen by three warps: the next
//     warp's rows 6 and 7 are predicted: T + 6 KiB and T + 7 KiB;
//   warp 2, power: the entry gets its third warp: promoted; power's inter-warp stride trained:
//     P + 6 KiB, P + 7 KiB;
//   warp 3, temp: the promoted chain (temp -> power, +1 MiB) first (inter-warp not used):
//     its own power rows, P + 6 KiB and P + 7 KiB.
TEST(SnakeTwoDimensionalBlock, AWarpOfTwoRowsTrainsOnItsFirstLaneAndPrefetchesBothRows) {
  constexpr std::uint64_t kTemp = 0x400000, kPower = kTemp + 0x100000, kPitch = 1024;
  constexpr std::uint32_t kTempPc = 7, kPowerPc = 8;
  const auto row = [](std::uint64_t array, std::uint32_t warp) {
    return array + 2 * warp * kPitch;
  };
  Snake snake(one_sm());
  snake.begin_launch(1);
  using Lines = std::vector<std::uint64_t>;
  for (std::uint32_t w = 0; w < 2; ++w) {
    EXPECT_EQ(run_rows(snake, w, kTempPc, row(kTemp, w), kPitch), Lines{}) << w;
    EXPECT_EQ(run_rows(snake, w, kPowerPc, row(kPower, w), kPitch), Lines{}) << w;
  }
  EXPECT_EQ(run_rows(snake, 2, kTempPc, row(kTemp, 2), kPitch),
            (Lines{kTemp + 6 * kPitch, kTemp + 7 * kPitch}));
  EXPECT_EQ(run_rows(snake, 2, kPowerPc, row(kPower, 2), kPitch),
            (Lines{kPower + 6 * kPitch, kPower + 7 * kPitch}));
  const Snake::TailEntry* entry = snake.tail_entry(0, kTempPc, kPowerPc);
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(entry->stride, 0x100000);
  EXPECT_EQ(entry->status, Status::kPromoted);
  EXPECT_EQ(run_rows(snake, 3, kTempPc, row(kTemp, 3), kPitch),
            (Lines{kPower + 6 * kPitch, kPower + 7 * kPitch}));
  EXPECT_EQ(snake.stats().instructions, 7u);
  EXPECT_EQ(snake.stats().non_uniform, 7u);
  // The literal per-lane reading leaves every one of these warps out: nothing trains.
  Snake literal(one_sm({"prefetch.snake.uniform_lanes=true"}));
  literal.begin_launch(1);
  for (std::uint32_t w = 0; w < 4; ++w) {
    EXPECT_EQ(run_rows(literal, w, kTempPc, row(kTemp, w), kPitch), Lines{}) << w;
    EXPECT_EQ(run_rows(literal, w, kPowerPc, row(kPower, w), kPitch), Lines{}) << w;
  }
  EXPECT_EQ(literal.tail_size(0), 0u);
}

// Issue 26: a k loop like PolyBench 2MM's `tmp[i*NJ+j] += A[i*NK+k] * B[k*NJ+j]`: the strides
// between its loads change every iteration (A moves by 4 bytes, B by a row), so every warp and
// iteration makes new Tail entries, and while other warps run (here twelve warps reading two
// other loads at strides of their own, as many new entries as the Tail's 10 and more) the
// warp's chain back to its previous B leaves the Tail. The intra-warp stride of B (one row,
// 512 bytes, the same in every iteration) is still found from B's two warp columns (§3.1: two
// warps per PC, for greedy schedulers, which run a warp's iterations back to back), trained
// (T2) at the third warp, and prefetched. Without them B's only trained stride is the
// inter-warp one (-384 bytes from the warp before), a line the warp never reads.
TEST(SnakeIntraWarp, AConstantStrideBetweenIterationsIsFoundWhenTheChainLeftTheTail) {
  Snake snake(one_sm());
  snake.begin_launch(1);
  constexpr std::uint32_t kTmp = 10, kLoadA = 20, kLoadB = 30, kOther1 = 40, kOther2 = 50;
  const auto tmp = [](std::uint32_t w) { return 0x10000 + std::uint64_t{w} * 4096; };
  const auto a = [](std::uint32_t w, std::uint32_t k) {
    return 0x80000 + std::uint64_t{w} * 8192 + 4 * k;
  };
  const auto b = [](std::uint32_t w, std::uint32_t k) {
    return 0x200000 + std::uint64_t{w} * 128 + 512 * std::uint64_t{k};
  };
  std::uint64_t other = 0x4000000;
  for (std::uint32_t w = 0; w < 3; ++w) {
    for (std::uint32_t k = 0; k < 2; ++k) {
      (void)run(snake, w, kTmp, tmp(w));
      (void)run(snake, w, kLoadA, a(w, k));
      if (k == 1) {
        for (std::uint32_t o = 10; o < 22; ++o, other += 0x10000) {
          (void)run(snake, o, kOther1, other);
          (void)run(snake, o, kOther2, other + 1000 * o);
        }
        // the chain from B back to the Head's A (B -> tmp -> A) is gone
        ASSERT_EQ(snake.tail_entry(0, kLoadB, kTmp), nullptr);
        ASSERT_EQ(snake.tail_entry(0, kTmp, kLoadA), nullptr);
      }
      const std::vector<std::uint64_t> asked = run(snake, w, kLoadB, b(w, k));
      if (w == 2 && k == 1) {
        EXPECT_EQ(asked, (std::vector<std::uint64_t>{line_of(b(2, 2))}));
      }
    }
  }
  const Snake::PcFields* fields = snake.pc_fields(0, kLoadB);
  ASSERT_NE(fields, nullptr);
  EXPECT_EQ(fields->intra, 512);
  EXPECT_TRUE(fields->intra_trained);
}

TEST(SnakeTailTable, EvictsTheFewestWarpsAmongTheLeastRecentlyUsed) {
  // Two entries: among the 2 least recently used of 3, the one with fewer warps goes.
  Snake snake(one_sm({"prefetch.snake.tail_entries=3", "prefetch.snake.eviction_candidates=2"}));
  snake.begin_launch(1);
  snake.set_tail_entry(0, {1, 2, 8, Status::kPromoted, warps("111")});  // oldest, 3 warps
  snake.set_tail_entry(0, {3, 4, 8, Status::kPromoted, warps("1")});    // 1 warp
  snake.set_tail_entry(0, {5, 6, 8, Status::kPromoted, warps("1")});    // newest, 1 warp
  snake.set_tail_entry(0, {7, 8, 8, Status::kNotTrained, warps("1")});
  EXPECT_NE(snake.tail_entry(0, 1, 2), nullptr);  // the oldest kept for its three warps
  EXPECT_EQ(snake.tail_entry(0, 3, 4), nullptr);
  EXPECT_NE(snake.tail_entry(0, 5, 6), nullptr);  // not among the two least recently used
  EXPECT_NE(snake.tail_entry(0, 7, 8), nullptr);
  // With one candidate the rule is plain LRU: the oldest goes whatever its warps.
  Snake lru(one_sm({"prefetch.snake.tail_entries=2", "prefetch.snake.eviction_candidates=1"}));
  lru.begin_launch(1);
  lru.set_tail_entry(0, {1, 2, 8, Status::kPromoted, warps("111")});
  lru.set_tail_entry(0, {3, 4, 8, Status::kPromoted, warps("1")});
  lru.set_tail_entry(0, {5, 6, 8, Status::kPromoted, warps("1")});
  EXPECT_EQ(lru.tail_entry(0, 1, 2), nullptr);
}

/// Feeds a throttle state: warp 0 runs PC 520 once (trained Figure 13 entry) at `clock` with
/// `prefetched` unused prefetched lines of 128 and `reads` L2 reads so far.
std::size_t asked_with(Snake& snake, std::uint64_t clock, std::uint32_t prefetched,
                       std::uint64_t reads) {
  static RandomStream random;
  RecordingSink sink;
  const prefetch::L1Access access{SmIndex{0},      ResidentWarp{2}, StaticLoadId{520},
                                  ByteAddress{kA}, ByteAddress{kA}, 0,
                                  true,            true,            false,
                                  BlockId{0},      2,               64,
                                  Cycles{clock},   prefetched,      128,
                                  reads,           random};
  snake.on_access(access, sink);
  return sink.lines.size();
}

TEST(SnakeThrottle, AFullPrefetchSpaceStopsPrefetchingForTheWindow) {
  Snake snake = figure_13();
  EXPECT_EQ(asked_with(snake, 0, 63, 0), 2u);   // under half of 128 lines
  EXPECT_EQ(asked_with(snake, 10, 64, 0), 0u);  // full: off until cycle 60
  EXPECT_EQ(asked_with(snake, 59, 0, 0), 0u);
  EXPECT_EQ(asked_with(snake, 60, 0, 0), 2u);
  EXPECT_EQ(snake.throttled_instructions(), 2u);
  Snake off = figure_13({"prefetch.snake.throttle=false"});
  EXPECT_EQ(asked_with(off, 10, 128, 0), 2u);
  Snake wider = figure_13({"prefetch.snake.full_window=100", "prefetch.snake.space_percent=25"});
  EXPECT_EQ(asked_with(wider, 0, 32, 0), 0u);
  EXPECT_EQ(asked_with(wider, 99, 0, 0), 0u);
  EXPECT_EQ(asked_with(wider, 100, 0, 0), 2u);
}

TEST(SnakeThrottle, BandwidthOverSeventyPercentStopsItUntilUnderFifty) {
  // Peak 64 bytes a cycle: half a 128-byte line; windows of 64 cycles (32 lines at peak).
  Snake snake = figure_13();
  EXPECT_EQ(asked_with(snake, 0, 0, 0), 2u);
  EXPECT_EQ(asked_with(snake, 64, 0, 23), 0u);   // 23 lines in 64 cycles: 72 % -> off
  EXPECT_EQ(asked_with(snake, 70, 0, 23), 0u);   // (still in the window)
  EXPECT_EQ(asked_with(snake, 128, 0, 23 + 20), 0u);  // 62 %: between 50 and 70, stays off
  EXPECT_EQ(asked_with(snake, 192, 0, 43 + 15), 2u);  // 47 %: on again
  EXPECT_EQ(asked_with(snake, 256, 0, 58 + 22), 2u);  // 69 %: stays on
  Snake high = figure_13({"prefetch.snake.bandwidth_high=90", "prefetch.snake.bandwidth_low=80"});
  (void)asked_with(high, 0, 0, 0);
  EXPECT_EQ(asked_with(high, 64, 0, 23), 2u);  // 72 % < 90 %
}

// ---- whole trials -------------------------------------------------------------------------

std::uint64_t total(const TrialResult& result, std::string_view name) {
  for (std::uint32_t c = 0; c < kPrefetchCounters.size(); ++c) {
    if (kPrefetchCounters[c].name == name) {
      return result.group_total(kPrefetchGroup, c);
    }
  }
  ADD_FAILURE() << "no prefetch counter " << name;
  return 0;
}

/// The LPS chain (Figure 7): each thread reads p, p - 400, p + 40000, p + 39600 (strides -400,
/// 40400, -400), coalesced (4-byte elements), in a loop of `iterations` that moves p by 80000
/// bytes (a loop stride that reuses no line, so that every access is the prefetcher's to
/// cover); each warp's chain lies in its own 2 MiB (a line shared by two warps' chains would be
/// covered for one of them only, as the coverage metric counts a line's first use).
/// `memcarlo synth --pattern chain` makes the pattern for users.
std::string lps_chain(std::uint32_t blocks, std::uint32_t iterations) {
  TraceBuilder trace(blocks, 256);
  std::array<std::uint32_t, 4> pcs{};
  const std::array<const char*, 4> names = {"u1[ind]", "u1[ind - 100]", "u1[ind + 10000]",
                                            "u1[ind + 9900]"};
  for (std::size_t i = 0; i < 4; ++i) {
    pcs[i] = trace.add_load(AccessKind::kRead, names[i]);
  }
  constexpr std::array<std::int64_t, 4> kOffset = {0, -400, 40000, 39600};
  for (std::uint32_t block = 0; block < blocks; ++block) {
    for (std::uint32_t warp = 0; warp < 8; ++warp) {
      const std::uint64_t start = 0x1000000 + std::uint64_t{block * 8 + warp} * (2u << 20);
      for (std::uint32_t k = 0; k < iterations; ++k) {
        for (std::size_t i = 0; i < 4; ++i) {
          const std::uint64_t at = start + k * 80000 + static_cast<std::uint64_t>(kOffset[i]);
          trace.coalesced(block, warp, pcs[i], at);
        }
      }
    }
  }
  return trace.write("snake-lps-chain");
}

/// The coverage of load `load` (all loads: kAllLoads) in `r`.
constexpr std::size_t kAllLoads = 99;
double coverage(const TrialResult& r, std::size_t load = kAllLoads) {
  if (load == kAllLoads) {
    return static_cast<double>(total(r, "covered")) / static_cast<double>(r.overall.l1_accesses);
  }
  const auto& rows = r.groups[counter_group_index(kPrefetchGroup)].loads;
  return static_cast<double>(
             rows[load * kPrefetchGroup.width() + kPrefetchGroup.index_of("covered")]) /
         static_cast<double>(r.loads[load].l1_accesses);
}

// 16 warps on one SM of 48 KiB L1, 16 iterations: 1792 line accesses (p: one line, the three
// others two each). Without throttling (this SM issues nothing but these loads, so its L1-L2
// traffic passes 70 % of the default peak most of the time) Snake covers at least 90 % of
// them; per load at least 80 %: only a warp's first p (1 in 16) has no earlier load to
// predict it (its first instance of the chain, once three warps promoted it, is covered from
// its own p). With throttling it covers less and reads less from the L2.
TEST(SnakeTrial, LearnsTheLpsChainAndCoversNinetyPercentOfItsAccesses) {
  const std::string path = lps_chain(2, 16);
  for (std::uint64_t trial = 0; trial < 4; ++trial) {
    const TrialResult r =
        run_one(path, one_sm({"l1.size=48KiB", "prefetch.snake.throttle=false"}), trial);
    ASSERT_EQ(r.overall.l1_accesses, 1792u);
    EXPECT_GE(coverage(r), 0.9) << "trial " << trial;
    // A late prefetch is counted once to the load that asked for it (late) and once to the
    // demand load that found it (covered_late): the same total.
    EXPECT_EQ(total(r, "covered_late"), total(r, "late")) << "trial " << trial;
    for (std::size_t load = 0; load < 4; ++load) {
      EXPECT_GE(coverage(r, load), load == 0 ? 0.8 : 0.9) << "load " << load << " trial " << trial;
    }
    // s-Snake (chains only) learns it too: the chain wraps around the loop (4th load -> 1st).
    const TrialResult chains = run_one(
        path,
        one_sm({"l1.size=48KiB", "prefetch.snake.throttle=false", "prefetch.snake.intra_inter=false"}),
        trial);
    EXPECT_GE(coverage(chains), 0.9) << "trial " << trial;
    const TrialResult throttled = run_one(path, one_sm({"l1.size=48KiB"}), trial);
    EXPECT_GE(coverage(throttled), 0.75) << "trial " << trial;
    EXPECT_LT(total(throttled, "l2_reads"), total(r, "l2_reads")) << "trial " << trial;
  }
}

/// 4 blocks of 8 warps, 8 instances each of 2 loads whose lanes read random words of 64 MiB.
std::string uniform_random_gather() {
  TraceBuilder trace(4, 256);
  const std::uint32_t first = trace.add_load(AccessKind::kRead, "a[idx[i]]");
  const std::uint32_t second = trace.add_load(AccessKind::kRead, "b[idx[i]]");
  std::uint64_t state = 12345;
  const auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % (std::uint64_t{16} << 20);
  };
  for (std::uint32_t block = 0; block < 4; ++block) {
    for (std::uint32_t warp = 0; warp < 8; ++warp) {
      for (int k = 0; k < 8; ++k) {
        for (const std::uint32_t id : {first, second}) {
          std::array<std::uint64_t, 32> lanes{};
          for (std::uint64_t& lane : lanes) {
            lane = 0x100000 + 4 * next();
          }
          trace.access(block, warp, id, [&lanes](unsigned lane) { return lanes[lane]; });
        }
      }
    }
  }
  return trace.write("snake-random-gather");
}

/// Snake that keeps the count of throttled instructions of the last trial where a test sees it.
struct ThrottleWatchingSnake : Snake {
  static constexpr std::string_view kName = "test-snake-watching";
  static inline std::uint64_t throttled = 0;
  using Snake::Snake;
  template <class Sink>
  void on_access(const prefetch::L1Access& access, Sink& sink) {
    Snake::on_access(access, sink);
    throttled = throttled_instructions();
  }
};

TEST(SnakeTrial, ARandomGatherTrainsNothingThrottlesAndKeepsTheHitRatio) {
  const std::string path = uniform_random_gather();
  const auto reader = tracebuf::TraceReader::open(path);
  HierarchyConfig config = one_sm();
  const CompiledTrace compiled = compile_trace(reader, config);
  HierarchyConfig none = config;
  none.prefetch.policy = "none";
  for (std::uint64_t trial = 0; trial < 4; ++trial) {
    TrialWorkspace workspace;
    const TrialResult base = run_trial(compiled, none, 7, trial, workspace);
    const TrialResult r = run_trial(compiled, config, 7, trial, workspace);
    // The lane-0 addresses are random: no stride between loads, warps or instances repeats in
    // three warps, so (almost) nothing is prefetched and nothing useful.
    EXPECT_LE(total(r, "issued") + total(r, "redundant"), 4u) << trial;
    EXPECT_LE(total(r, "useful"), 1u) << trial;
    // The bound: the demand hit ratio falls by at most 0.5 percentage points (here it is the
    // few lines those prefetches displace; a hit is 1/8192 of the accesses).
    const double before = static_cast<double>(base.overall.l1_hits) /
                          static_cast<double>(base.overall.l1_accesses);
    const double after =
        static_cast<double>(r.overall.l1_hits) / static_cast<double>(r.overall.l1_accesses);
    EXPECT_LE(before - after, 0.005) << trial;
    // 32 lines per instruction, but 64 MSHRs and ~470 cycles to DRAM: this SM reads about
    // 17 bytes a cycle from the L2 (16383 lines in ~123k cycles), 27 % of the default peak of
    // 64 bytes a cycle. With the peak set to 16 bytes a cycle the traffic passes 70 % of it
    // and Snake throttles.
    config.prefetch.policy = std::string(ThrottleWatchingSnake::kName);
    config.params.set("prefetch.snake.peak_bytes_per_cycle", "16");
    ThrottleWatchingSnake::throttled = 0;
    // A list of the watcher alone: the built-in prefetchers' SM sides are not compiled here.
    (void)run_trial_with<prefetch::List<ThrottleWatchingSnake>>(compiled, config, 7, trial,
                                                                workspace);
    EXPECT_GT(ThrottleWatchingSnake::throttled, 0u) << trial;
    config.prefetch.policy = "snake";
    config.params = one_sm().params;
  }
}

TEST(SnakeTrial, ResultsDoNotDependOnTheThreadCount) {
  const std::string path = lps_chain(4, 4);
  const auto reader = tracebuf::TraceReader::open(path);
  const HierarchyConfig config = one_sm();
  const CompiledTrace compiled = compile_trace(reader, config);
  const auto run_with = [&](unsigned threads) {
    MonteCarloOptions options;
    options.seed = 3;
    options.trials = 6;
    options.threads = threads;
    return run_monte_carlo(compiled, config, options);
  };
  const MonteCarloRun one = run_with(1);
  const MonteCarloRun two = run_with(2);
  ASSERT_EQ(one.trials.size(), two.trials.size());
  for (std::size_t t = 0; t < one.trials.size(); ++t) {
    EXPECT_EQ(one.trials[t].groups[counter_group_index(kPrefetchGroup)].loads,
              two.trials[t].groups[counter_group_index(kPrefetchGroup)].loads);
    EXPECT_EQ(one.trials[t].cycles, two.trials[t].cycles);
  }
}

/// One warp reads lines 0..7 of one 8-way set (load 0), then the same lines again (load 1).
std::string two_passes_over_one_set() {
  TraceBuilder trace(1, 32);
  const std::uint32_t first = trace.add_load(AccessKind::kRead, "first[i]");
  const std::uint32_t second = trace.add_load(AccessKind::kRead, "second[i]");
  for (const std::uint32_t id : {first, second}) {
    for (std::uint64_t line = 0; line < 8; ++line) {
      trace.coalesced(0, 0, id, 0x10000 + line * 128);
    }
  }
  return trace.write("snake-two-passes");
}

TEST(SnakeDecoupled, HoldsDemandDataToHalfTheSetWhileTraining) {
  // One warp cannot promote a stride (three warps must), so Snake stays untrained and
  // prefetches nothing. With a training period longer than the kernel, demand data keeps to 4
  // of the 8 ways, so the 8 lines cycle through 4 LRU ways and the second pass misses every
  // time; not decoupled: the 8 lines fit.
  const std::string path = two_passes_over_one_set();
  const std::vector<std::string> tiny = {"l1.size=1KiB", "l1.associativity=8",
                                         "prefetch.snake.training_cycles=1000000000"};
  std::vector<std::string> settings = tiny;
  const TrialResult decoupled = run_one(path, one_sm(settings));
  EXPECT_EQ(total(decoupled, "issued"), 0u);
  EXPECT_EQ(decoupled.loads[1].l1_hits, 0u);
  settings.push_back("prefetch.snake.decoupled=false");
  const TrialResult shared = run_one(path, one_sm(settings));
  EXPECT_EQ(shared.loads[1].l1_hits, 8u);
  // demand_percent=100: demand data may take the whole set, as without decoupling: 8 hits.
  // 75 % (6 ways): 8 lines cycling through 6 LRU ways miss every time, as with 4.
  settings = tiny;
  settings.push_back("prefetch.snake.demand_percent=100");
  EXPECT_EQ(run_one(path, one_sm(settings)).loads[1].l1_hits, 8u);
  settings.back() = "prefetch.snake.demand_percent=75";
  EXPECT_EQ(run_one(path, one_sm(settings)).loads[1].l1_hits, 0u);
}

/// One warp (nothing can train: every stride needs three warps) reads lines 0..5 of one set,
/// four times over, one load after the other.
std::string four_passes_over_six_lines() {
  TraceBuilder trace(1, 32);
  const std::uint32_t id = trace.add_load(AccessKind::kRead, "a[i % 192]");
  for (int pass = 0; pass < 4; ++pass) {
    for (std::uint64_t line = 0; line < 6; ++line) {
      trace.coalesced(0, 0, id, 0x10000 + line * 128);
    }
  }
  return trace.write("snake-four-passes");
}

TEST(SnakeDecoupled, AKernelWhereNothingTrainsKeepsItsWholeL1) {
  // The paper holds demand data to half of the space "until the prefetcher is trained", which
  // "takes an average of 3 cycles (up to 10 cycles)" (§3.2): past the training period an
  // untrained Snake (no prefetch issued) is the L1 without a prefetcher. Six lines fit the 8
  // ways: the first pass misses, the other three hit, 18 hits of 24, with none, with
  // decoupled=false and with Snake's defaults alike. Held to 4 ways for the whole launch
  // (training_cycles past its end: the behaviour before issue 26) the 6 lines cycle through 4
  // LRU ways and nothing hits.
  const std::string path = four_passes_over_six_lines();
  const std::vector<std::string> tiny = {"l1.size=1KiB", "l1.associativity=8"};
  std::vector<std::string> settings = tiny;
  const TrialResult snake = run_one(path, one_sm(settings));
  EXPECT_EQ(total(snake, "issued"), 0u);
  EXPECT_EQ(snake.overall.l1_accesses, 24u);
  EXPECT_EQ(snake.overall.l1_hits, 18u);
  HierarchyConfig none = one_sm(settings);
  none.prefetch.policy = "none";
  EXPECT_EQ(run_one(path, none).overall.l1_hits, 18u);
  settings.push_back("prefetch.snake.decoupled=false");
  EXPECT_EQ(run_one(path, one_sm(settings)).overall.l1_hits, 18u);
  settings = tiny;
  settings.push_back("prefetch.snake.training_cycles=1000000000");
  EXPECT_EQ(run_one(path, one_sm(settings)).overall.l1_hits, 0u);
}

TEST(SnakeDecoupled, AFullSetFreesThePrefetchSideUnlessPrefetchesWentToDemand) {
  // The LPS chain on a 4 KiB L1 (4 sets of 8 ways), no throttling: prefetches keep the sets
  // full, and a fill into a full set frees 2 ways (25 %) from one side. transfer_percent=100 never
  // frees the demand side: every freed line is a prefetched one, unused (an early eviction);
  // transfer_percent=0 frees the demand side as soon as one prefetch was used: fewer early
  // evictions, more coverage.
  const std::string path = lps_chain(1, 4);
  const auto run_with = [&](const char* transfer) {
    return run_one(path, one_sm({"l1.size=4KiB", "l1.associativity=8",
                                 "prefetch.snake.throttle=false", transfer}));
  };
  const TrialResult prefetch_side = run_with("prefetch.snake.transfer_percent=100");
  const TrialResult demand_side = run_with("prefetch.snake.transfer_percent=0");
  EXPECT_GT(total(prefetch_side, "early_evictions"), 0u);
  EXPECT_LT(total(demand_side, "early_evictions"), total(prefetch_side, "early_evictions"));
  EXPECT_GT(total(demand_side, "covered"), total(prefetch_side, "covered"));
}

TEST(SnakeKeys, AreListedWithDefaultsAndBadValuesNameTheKey) {
  const auto message = [](std::vector<std::string> settings) {
    try {
      (void)load_hierarchy("fermi-c2050", settings);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({"prefetch.policy=snake", "prefetch.snake.depth=5"})
                .find("prefetch.snake.depth: expected an integer from 1 to 4; got 5"),
            std::string::npos);
  EXPECT_NE(message({"prefetch.policy=snake", "prefetch.snake.tail_entries=4",
                     "prefetch.snake.eviction_candidates=5"})
                .find("prefetch.snake.eviction_candidates: expected an integer from 1 to 4"),
            std::string::npos);
  EXPECT_NE(message({"prefetch.policy=snake", "prefetch.snake.bandwidth_low=80"})
                .find("prefetch.snake.bandwidth_low: expected an integer from 0 to 70; got 80"),
            std::string::npos);
  EXPECT_NE(message({"prefetch.policy=snake", "prefetch.snake.free_percent=0"})
                .find("prefetch.snake.free_percent: expected an integer from 1 to 100; got 0"),
            std::string::npos);
  EXPECT_EQ(message({"prefetch.policy=snake", "prefetch.snake.throttle=false",
                     "prefetch.snake.intra_inter=false", "prefetch.snake.decoupled=false"}),
            "no error");
  const std::vector<ParameterInfo>& keys = hierarchy_parameters();
  for (const auto& [key, fallback] : {std::pair{"prefetch.snake.tail_entries", "10"},
                                      {"prefetch.snake.train_warps", "3"},
                                      {"prefetch.snake.full_window", "50"},
                                      {"prefetch.snake.bandwidth_high", "70"},
                                      {"prefetch.snake.bandwidth_low", "50"},
                                      {"prefetch.snake.throttle", "true"},
                                      {"prefetch.snake.decoupled", "true"},
                                      {"prefetch.snake.demand_percent", "50"},
                                      {"prefetch.snake.training_cycles", "10"},
                                      {"prefetch.snake.free_percent", "25"},
                                      {"prefetch.snake.transfer_percent", "80"},
                                      {"prefetch.snake.uniform_lanes", "false"}}) {
    const auto found = std::find_if(keys.begin(), keys.end(),
                                    [&](const ParameterInfo& info) { return info.key == key; });
    ASSERT_NE(found, keys.end()) << key;
    EXPECT_TRUE(found->optional) << key;
    EXPECT_EQ(found->fallback, fallback) << key;
  }
}

}  // namespace
}  // namespace memcarlo::sim
