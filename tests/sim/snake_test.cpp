// Known answers of the Snake prefetcher's tables (sim/src/prefetch/snake.hpp; Mostofi et al.,
// MICRO 2023): the chain walk of the paper's Figure 13, the training sequence of its section 3.4 /
// Figure 15, a 2D block's warps, the intra-warp stride, the Tail's eviction and the throttles.
// Whole trials are in snake_trial_test.cpp.
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
#include "snake_config.hpp"
#include "trace_builder.hpp"

namespace memcarlo::sim {
namespace {

using prefetch::Snake;
using testing::one_sm;
using testing::run_one;
using testing::TraceBuilder;
using tracebuf::AccessKind;
using Status = Snake::Status;

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

std::uint64_t line_of(std::uint64_t address) {
  return address / 128 * 128;
}

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
  EXPECT_EQ(run(snake, 2, 520, kA),
            (std::vector<std::uint64_t>{line_of(kA + 100), line_of(kA + 250)}));
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
  const prefetch::L1Access access{SmIndex{0},
                                  ResidentWarp{2},
                                  StaticLoadId{520},
                                  ByteAddress{kA},
                                  ByteAddress{kA},
                                  0,
                                  true,
                                  true,
                                  false,
                                  BlockId{0},
                                  2,
                                  64,
                                  Cycles{clock},
                                  prefetched,
                                  128,
                                  reads,
                                  random};
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
  EXPECT_EQ(asked_with(snake, 64, 0, 23), 0u);        // 23 lines in 64 cycles: 72 % -> off
  EXPECT_EQ(asked_with(snake, 70, 0, 23), 0u);        // (still in the window)
  EXPECT_EQ(asked_with(snake, 128, 0, 23 + 20), 0u);  // 62 %: between 50 and 70, stays off
  EXPECT_EQ(asked_with(snake, 192, 0, 43 + 15), 2u);  // 47 %: on again
  EXPECT_EQ(asked_with(snake, 256, 0, 58 + 22), 2u);  // 69 %: stays on
  Snake high = figure_13({"prefetch.snake.bandwidth_high=90", "prefetch.snake.bandwidth_low=80"});
  (void)asked_with(high, 0, 0, 0);
  EXPECT_EQ(asked_with(high, 64, 0, 23), 2u);  // 72 % < 90 %
}

}  // namespace
}  // namespace memcarlo::sim
