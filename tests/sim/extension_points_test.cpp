// The engine's extension points, each proven by a policy that only this test binary registers
// (one file's worth of code plus one registry line each): a CTA order, a page placement and
// GPU prefetchers; the line space beyond the trace, the per-way flags, replacement that excludes
// pinned ways, random streams per purpose, and errors for unknown policy names.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "placement/interleaved.hpp"

#include "line_space.hpp"
#include "memcarlo/sim/placement/placement.hpp"
#include "memcarlo/sim/schedule/cta_scheduler.hpp"
#include "memcarlo/sim/replacement/registry.hpp"
#include "run_trial.hpp"
#include "trace_builder.hpp"

namespace memcarlo::sim {
namespace {

using testing::TraceBuilder;
using tracebuf::AccessKind;

// ---- test-only policies -----------------------------------------------------------------------

/// Blocks in reverse launch order, one queue.
class ReverseOrder final : public schedule::CtaScheduler {
 public:
  void plan(const schedule::CtaPlanInput& input, RandomStream&,
            schedule::CtaPlan& plan) const override {
    plan.clear(input.sm_count);
    for (std::size_t i = input.launch.blocks.size(); i > 0; --i) {
      plan.order.push_back(static_cast<std::uint32_t>(i - 1));
    }
    plan.close_queue();
  }
};
const bool kReverseRegistered = schedule::registry().add(
    {"test-reverse", "blocks in reverse order (test only)", {},
     [](const HierarchyConfig&) -> std::unique_ptr<schedule::CtaScheduler> {
       return std::make_unique<ReverseOrder>();
     }});

/// Every L2 line in global L2 set 0, every line in DRAM row 0 of channel 0, bank 0.
class OneSet final : public placement::Placement {
 public:
  placement::LineHome place(ByteAddress, std::span<std::uint32_t> l2_sets) const override {
    std::fill(l2_sets.begin(), l2_sets.end(), 0u);
    return {};
  }
};
const bool kOneSetRegistered = placement::registry().add(
    {"test-one-set", "every line in L2 set 0 (test only)", {},
     [](const HierarchyConfig&) -> std::unique_ptr<placement::Placement> {
       return std::make_unique<OneSet>();
     }});

/// Two queues: block 1 on SM 0, block 0 on SM 1.
class Swap final : public schedule::CtaScheduler {
 public:
  void plan(const schedule::CtaPlanInput& input, RandomStream&,
            schedule::CtaPlan& plan) const override {
    plan.clear(input.sm_count);
    plan.order = {1};
    plan.close_queue();
    plan.order.push_back(0);
    plan.close_queue();
    plan.queue_of_sm = {0, 1};
  }
};
const bool kSwapRegistered = schedule::registry().add(
    {"test-swap", "block 1 on SM 0, block 0 on SM 1 (test only)", {},
     [](const HierarchyConfig&) -> std::unique_ptr<schedule::CtaScheduler> {
       return std::make_unique<Swap>();
     }});

/// On every L1 miss, prefetches a line 1 TiB above the one accessed: never traced, never useful.
struct UselessPrefetcher {
  static constexpr std::string_view kName = "test-useless";
  static constexpr std::uint32_t kMaxRequests = 1;
  explicit UselessPrefetcher(const HierarchyConfig&) {}
  void begin_launch(std::uint32_t) {}
  template <class Sink>
  void on_access(const prefetch::L1Access& access, Sink& sink) {
    if (!access.hit) {
      sink.prefetch(ByteAddress{value_of(access.line_address) + (std::uint64_t{1} << 40)});
    }
  }
};

/// On every L1 access, prefetches the next line.
struct NextLinePrefetcher {
  static constexpr std::string_view kName = "test-next-line";
  static constexpr std::uint32_t kMaxRequests = 1;
  explicit NextLinePrefetcher(const HierarchyConfig& config) : line_(config.l1.line) {}
  void begin_launch(std::uint32_t) {}
  template <class Sink>
  void on_access(const prefetch::L1Access& access, Sink& sink) {
    sink.prefetch(ByteAddress{value_of(access.line_address) + line_});
  }
  std::uint64_t line_;
};

/// Draws from its own stream on every access and never prefetches.
struct DrawingPrefetcher {
  static constexpr std::string_view kName = "test-drawing";
  static constexpr std::uint32_t kMaxRequests = 1;
  explicit DrawingPrefetcher(const HierarchyConfig&) {}
  void begin_launch(std::uint32_t) {}
  template <class Sink>
  void on_access(const prefetch::L1Access& access, Sink&) {
    for (int i = 0; i < 3; ++i) {
      (void)access.random.next_u32();
    }
  }
};

/// Asks for five lines 1 TiB above every access, though it may ask for two: the engine takes the
/// first two (prefetcher.hpp's kMaxRequests).
struct GreedyPrefetcher {
  static constexpr std::string_view kName = "test-greedy";
  static constexpr std::uint32_t kMaxRequests = 2;
  explicit GreedyPrefetcher(const HierarchyConfig& config) : line_(config.l1.line) {}
  void begin_launch(std::uint32_t) {}
  template <class Sink>
  void on_access(const prefetch::L1Access& access, Sink& sink) {
    for (std::uint64_t i = 0; i < 5; ++i) {
      sink.prefetch(
          ByteAddress{value_of(access.line_address) + (std::uint64_t{1} << 40) + i * line_});
    }
  }
  std::uint64_t line_;
};

// none and the test prefetchers only: each prefetcher of the list is a box compiled here
// (any_prefetcher.hpp; the SM sides are the library's), and these tests run no built-in one.
using TestPrefetchers =
    prefetch::List<prefetch::None, UselessPrefetcher, NextLinePrefetcher, DrawingPrefetcher,
                   GreedyPrefetcher>;

TrialResult run_with(const std::string& path, const HierarchyConfig& config,
                     std::uint64_t trial = 0) {
  const auto reader = tracebuf::TraceReader::open(path);
  const CompiledTrace compiled = compile_trace(reader, config);
  TrialWorkspace workspace;
  return run_trial_with<TestPrefetchers>(compiled, config, 7, trial, workspace);
}

/// The trial's total of the prefetch counter `name` (the group's overall row).
std::uint64_t prefetch_total(const TrialResult& result, std::string_view name) {
  for (std::uint32_t c = 0; c < kPrefetchCounters.size(); ++c) {
    if (kPrefetchCounters[c].name == name) {
      return result.group_total(kPrefetchGroup, c);
    }
  }
  ADD_FAILURE() << "no prefetch counter " << name;
  return 0;
}

/// One SM whose L1 is one fully associative set of 8 ways (LRU).
HierarchyConfig tiny_l1(const std::string& prefetcher = "none") {
  HierarchyConfig config =
      load_hierarchy("fermi-c2050", {"sm.count=1", "l1.size=1KiB", "l1.associativity=8"});
  config.prefetch.policy = prefetcher;
  return config;
}

/// One warp reads lines 0..7 (load 0), then the same lines again (load 1).
std::string two_passes_over_eight_lines() {
  TraceBuilder trace(1, 32);
  const std::uint32_t first = trace.add_load(AccessKind::kRead, "first[i]");
  const std::uint32_t second = trace.add_load(AccessKind::kRead, "second[i]");
  for (std::uint32_t id : {first, second}) {
    for (std::uint64_t line = 0; line < 8; ++line) {
      trace.coalesced(0, 0, id, 0x10000 + line * 128);
    }
  }
  return trace.write("two-passes");
}

// ---- CTA scheduling ---------------------------------------------------------------------------

/// Two blocks read the same line, one at a time on the one SM: the second to run hits in L1.
std::string two_blocks_reading_one_line() {
  TraceBuilder trace(2, 32);
  const std::uint32_t in_block0 = trace.add_load(AccessKind::kRead, "x[0] in block 0");
  const std::uint32_t in_block1 = trace.add_load(AccessKind::kRead, "x[0] in block 1");
  trace.coalesced(0, 0, in_block0, 0x4000);
  trace.coalesced(1, 0, in_block1, 0x4000);
  return trace.write("two-blocks");
}

TEST(CtaScheduler, ATestOnlyOrderRegisteredInOneLineDecidesWhichBlockRunsFirst) {
  ASSERT_TRUE(kReverseRegistered);
  HierarchyConfig config = load_hierarchy("fermi-c2050", {"sm.count=1", "sm.max_blocks=1"});
  const std::string path = two_blocks_reading_one_line();
  const TrialResult forward = run_with(path, config);
  EXPECT_EQ(forward.loads[0].l1_hits, 0u);
  EXPECT_EQ(forward.loads[1].l1_hits, 1u);
  config.schedule.cta = "test-reverse";
  const TrialResult reverse = run_with(path, config);
  EXPECT_EQ(reverse.loads[0].l1_hits, 1u);
  EXPECT_EQ(reverse.loads[1].l1_hits, 0u);
}

TEST(CtaScheduler, APlanThatBreaksTheContractIsRefusedWithTheSchedulersName) {
  schedule::CtaPlan plan;
  plan.clear(2);
  plan.order = {0, 1, 1};
  plan.close_queue();
  EXPECT_THROW(schedule::check_plan(plan, 3, 2, "broken"), std::logic_error);
  plan.clear(2);
  plan.order = {0, 1};
  plan.close_queue();
  plan.order.push_back(2);
  plan.close_queue();  // queue 1 holds block 2, but both SMs take from queue 0
  try {
    schedule::check_plan(plan, 3, 2, "broken");
    FAIL() << "expected a logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("CTA scheduler broken: queue 1 has blocks but no SM"),
              std::string::npos)
        << e.what();
  }
}

TEST(CtaScheduler, PerSmQueuesSendBlocksOnlyToTheirSms) {
  // Two queues: SM 0 runs block 1, SM 1 runs block 0.
  ASSERT_TRUE(kSwapRegistered);
  HierarchyConfig config = load_hierarchy("fermi-c2050", {"sm.count=2", "sm.max_blocks=1"});
  config.schedule.cta = "test-swap";
  const TrialResult r = run_with(two_blocks_reading_one_line(), config);
  // Each block ran once, on its own SM: both reads miss their (separate) L1s.
  EXPECT_EQ(r.loads[0].l1_accesses, 1u);
  EXPECT_EQ(r.loads[1].l1_accesses, 1u);
  EXPECT_EQ(r.overall.l1_hits, 0u);
}

// ---- page placement ---------------------------------------------------------------------------

TEST(Placement, ATestOnlyPlacementDecidesTheL2SetOfEveryLine) {
  ASSERT_TRUE(kOneSetRegistered);
  // 32 lines (128 Fermi L2 lines) read twice with the L1 off: they fit in the 768 KB L2, but not
  // in one 64-way set.
  TraceBuilder trace(1, 32);
  const std::uint32_t first = trace.add_load(AccessKind::kRead, "first[i]");
  const std::uint32_t second = trace.add_load(AccessKind::kRead, "second[i]");
  for (std::uint32_t id : {first, second}) {
    for (std::uint64_t line = 0; line < 32; ++line) {
      trace.coalesced(0, 0, id, 0x20000 + line * 128);
    }
  }
  const std::string path = trace.write("placement");
  HierarchyConfig config = load_hierarchy("fermi-c2050", {"l1.enabled=false"});
  const TrialResult interleaved = run_with(path, config);
  EXPECT_EQ(interleaved.loads[second].l2_reads, 128u);
  EXPECT_EQ(interleaved.loads[second].l2_read_hits, 128u);
  config.placement.policy = "test-one-set";
  const TrialResult one_set = run_with(path, config);
  EXPECT_EQ(one_set.loads[second].l2_reads, 128u);
  EXPECT_EQ(one_set.loads[second].l2_read_hits, 0u);  // LRU over 128 lines in 64 ways
  const auto reader = tracebuf::TraceReader::open(path);
  const CompiledTrace compiled = compile_trace(reader, config);
  for (const std::uint32_t set : compiled.l2_set) {
    EXPECT_EQ(set, 0u);
  }
}

TEST(Placement, InterleavedFillsEveryLinesPageAndModule) {
  const auto reader = tracebuf::TraceReader::open(two_passes_over_eight_lines());
  const HierarchyConfig config =
      load_hierarchy("fermi-c2050", {"placement.page_bytes=512"});
  const CompiledTrace compiled = compile_trace(reader, config);
  ASSERT_EQ(compiled.line_page.size(), 8u);
  for (std::uint32_t id = 0; id < 8; ++id) {
    EXPECT_EQ(compiled.line_page[id], compiled.l1_line_address[id] / 512);
    EXPECT_EQ(compiled.line_module[id], 0u);
  }
}

// ---- GPU prefetching and lines outside the trace ----------------------------------------------

TEST(Prefetcher, UselessPrefetchesOfUntracedLinesTakeL1WaysAndL2TrafficButAreNeverUseful) {
  const std::string path = two_passes_over_eight_lines();
  const TrialResult none = run_with(path, tiny_l1());
  EXPECT_EQ(none.loads[1].l1_hits, 8u);  // 8 lines in 8 ways
  EXPECT_EQ(prefetch_total(none, "issued"), 0u);

  const TrialResult useless = run_with(path, tiny_l1("test-useless"));
  // Fills alternate demand, prefetch: after the first pass the L1 holds lines 4-7 and their
  // prefetches, and every access of the second pass evicts what the next one needs (LRU).
  EXPECT_EQ(useless.loads[1].l1_hits, 0u);
  EXPECT_EQ(prefetch_total(useless, "issued"), 16u);
  EXPECT_EQ(prefetch_total(useless, "untraced_lines"),
            8u);  // the second pass asks for the same 8 again
  EXPECT_EQ(prefetch_total(useless, "useful"), 0u);
  EXPECT_EQ(prefetch_total(useless, "dropped"), 0u);
  // Prefetches travel like misses: 4 Fermi L2 lines each; the second pass finds them in L2.
  EXPECT_EQ(prefetch_total(useless, "l2_reads"), 64u);
  EXPECT_EQ(prefetch_total(useless, "l2_read_hits"), 32u);
  EXPECT_EQ(prefetch_total(useless, "dram_reads"), 8u);
  // ... and do not count as the loads' accesses.
  EXPECT_EQ(useless.loads[0].l2_reads, 32u);
  EXPECT_EQ(useless.loads[1].l2_reads, 32u);
  EXPECT_EQ(useless.loads[1].l2_read_hits, 32u);
}

TEST(Prefetcher, ANextLinePrefetcherIsUsefulAndItsPrefetchedFlagCountsEachWayOnce) {
  TraceBuilder trace(1, 32);
  const std::uint32_t id = trace.add_load(AccessKind::kRead, "a[i]");
  for (std::uint64_t line = 0; line < 8; ++line) {
    trace.coalesced(0, 0, id, 0x10000 + line * 128);
  }
  trace.coalesced(0, 0, id, 0x10000 + 7 * 128);  // line 7 again: its flag was cleared
  const std::string path = trace.write("next-line");
  const TrialResult r = run_with(path, tiny_l1("test-next-line"));
  EXPECT_EQ(r.loads[0].l1_accesses, 9u);
  EXPECT_EQ(r.loads[0].l1_hits, 8u);  // lines 1-7 were prefetched, line 7 is read twice
  EXPECT_EQ(prefetch_total(r, "useful"), 7u);
  // Line 1's prefetch left with line 0's miss, which the warp waited for, so it may have
  // arrived; every later one left on the hit just before its use, so it had not.
  EXPECT_GE(prefetch_total(r, "late"), 6u);
  EXPECT_LE(prefetch_total(r, "late"), 7u);
  EXPECT_EQ(prefetch_total(r, "untraced_lines"), 1u);  // line 8, after the traced ones
  EXPECT_EQ(prefetch_total(r, "redundant"), 1u);  // the second read of line 7 asks for line 8 again
  EXPECT_EQ(prefetch_total(r, "issued"), 8u);
  // The prefetch counter group holds the same per load.
  const CounterGroupTotals& group = r.groups[counter_group_index(kPrefetchGroup)];
  ASSERT_TRUE(group.enabled());
  EXPECT_EQ(group.load(0)[kPrefetchGroup.index_of("issued")], 8u);
  EXPECT_EQ(group.load(0)[kPrefetchGroup.index_of("useful")], 7u);
  EXPECT_EQ(group.load(0)[kPrefetchGroup.index_of("untraced_lines")], 1u);
  EXPECT_EQ(group.load(0)[kPrefetchGroup.index_of("redundant")], 1u);
  EXPECT_EQ(group.load(0)[kPrefetchGroup.index_of("covered")], 7u);
  EXPECT_EQ(group.load(0)[kPrefetchGroup.index_of("dropped")], 0u);
  // Without a prefetcher the group is absent.
  const TrialResult none = run_with(path, tiny_l1());
  EXPECT_FALSE(none.groups[counter_group_index(kPrefetchGroup)].enabled());
}

TEST(Prefetcher, AnAccessGetsAtMostKMaxRequestsPrefetchesTheRestAreIgnored) {
  const TrialResult r = run_with(two_passes_over_eight_lines(), tiny_l1("test-greedy"));
  ASSERT_EQ(r.overall.l1_accesses, 16u);
  // Every prefetch the engine takes is issued, redundant or dropped: 2 per access, not 5.
  EXPECT_EQ(prefetch_total(r, "issued") + prefetch_total(r, "redundant") +
                prefetch_total(r, "dropped"),
            32u);
}

TEST(RandomStreams, APrefetchersOwnDrawsLeaveEveryOtherMechanismsDrawsAlone) {
  // Random replacement and the weighted random L2 order draw on every miss; a prefetcher that
  // draws without prefetching must leave the results bit-identical.
  const std::string path = two_passes_over_eight_lines();
  HierarchyConfig config = tiny_l1();
  config.l1.replacement = "random";
  config.l2.replacement = "random";
  for (std::uint64_t trial = 0; trial < 4; ++trial) {
    const TrialResult plain = run_with(path, config, trial);
    HierarchyConfig drawing = config;
    drawing.prefetch.policy = "test-drawing";
    const TrialResult with_draws = run_with(path, drawing, trial);
    EXPECT_EQ(plain.overall.l1_hits, with_draws.overall.l1_hits);
    EXPECT_EQ(plain.overall.l2_read_hits, with_draws.overall.l2_read_hits);
    EXPECT_EQ(plain.cycles, with_draws.cycles);
    EXPECT_EQ(plain.overall.dram_latency_sum, with_draws.overall.dram_latency_sum);
  }
}

TEST(RandomStreams, EachPurposeLaunchEpochAndLaneHasItsOwnReproducibleStream) {
  const auto first_draws = [](RandomStream stream) {
    std::vector<std::uint32_t> out;
    for (int i = 0; i < 6; ++i) {
      out.push_back(stream.next_u32());
    }
    return out;
  };
  RandomStream base(11, Purpose::kL2Order, 3, 5);
  base.restart(7, 0);
  EXPECT_EQ(first_draws(base), first_draws(base));
  RandomStream again(11, Purpose::kL2Order, 3, 5);
  again.restart(7, 0);
  EXPECT_EQ(first_draws(again), first_draws(base));
  // Draws already made in an epoch do not move the next epoch's.
  RandomStream used = again;
  for (int i = 0; i < 1000; ++i) {
    (void)used.next_u32();
  }
  used.restart(8, 0);
  RandomStream fresh(11, Purpose::kL2Order, 3, 5);
  fresh.restart(8, 0);
  EXPECT_EQ(first_draws(used), first_draws(fresh));
  // Any other coordinate gives other numbers.
  RandomStream other_purpose(11, Purpose::kDramBatches, 3, 5);
  other_purpose.restart(7, 0);
  RandomStream other_launch(11, Purpose::kL2Order, 4, 5);
  other_launch.restart(7, 0);
  RandomStream other_trial(11, Purpose::kL2Order, 3, 6);
  other_trial.restart(7, 0);
  RandomStream other_lane(11, Purpose::kL2Order, 3, 5);
  other_lane.restart(7, 1);
  RandomStream other_seed(12, Purpose::kL2Order, 3, 5);
  other_seed.restart(7, 0);
  for (const RandomStream& other :
       {other_purpose, other_launch, other_trial, other_lane, other_seed}) {
    EXPECT_NE(first_draws(other), first_draws(base));
  }
}

// ---- the line space ---------------------------------------------------------------------------

TEST(LineSpace, UntracedLinesGetIdsAfterTheTracedOnesAndAreRecycledOnlyWhenNoCacheHoldsThem) {
  const auto reader = tracebuf::TraceReader::open(two_passes_over_eight_lines());
  const HierarchyConfig config = tiny_l1();
  const CompiledTrace compiled = compile_trace(reader, config);
  ASSERT_EQ(compiled.l1_line_count(), 8u);
  LineSpace space;
  space.reset(compiled, config, 2);
  EXPECT_EQ(space.capacity(), 10u);
  const auto always = [](std::uint32_t) { return true; };
  const auto never = [](std::uint32_t) { return false; };
  // A traced line keeps its id, whatever byte of it is named.
  const auto id = [&](std::uint64_t address, std::uint64_t epoch, auto is_free) {
    return value_of(space.id_of(ByteAddress{address}, epoch, is_free));
  };
  EXPECT_EQ(id(0x10000 + 3 * 128 + 17, 0, always), *compiled.find_line(0x10000 + 3 * 128));
  const std::uint32_t a = id(0x900000, 0, always);
  const std::uint32_t b = id(0x900080, 0, always);
  EXPECT_EQ(a, 8u);
  EXPECT_EQ(b, 9u);
  EXPECT_EQ(id(0x900010, 0, always), a);  // the same line
  EXPECT_EQ(value_of(space.address_of(LineId{b})), 0x900080u);
  // Full: a line in use this epoch, or one a cache holds, is never recycled.
  EXPECT_EQ(id(0x900100, 0, always), kNoLine);
  EXPECT_EQ(id(0x900100, 1, never), kNoLine);
  const std::uint32_t c = id(0x900100, 1, [&](std::uint32_t line) { return line == b; });
  EXPECT_EQ(c, b);
  EXPECT_EQ(value_of(space.address_of(LineId{c})), 0x900100u);
  EXPECT_EQ(id(0x900100, 1, never), c);
  EXPECT_EQ(id(0x900000, 1, never), a);  // still there: erase moved nothing wrong
  // Its sets come from its address.
  EXPECT_EQ(space.view().l1_set[c], 0u);  // one L1 set
  EXPECT_EQ(space.untraced_seen(), 3u);
}

// ---- ways excluded from replacement, per-way flags --------------------------------------------

template <class Policy>
void check_excluding(std::uint32_t expected_oldest_allowed) {
  Policy policy;
  policy.reset(1, 8);
  auto view = policy.view();
  RandomStream random(1, Purpose::kL1Replacement, 0, 0);
  for (std::uint32_t way = 0; way < 8; ++way) {
    view.on_fill(0, way);  // way 0 filled first: the oldest
  }
  const std::uint64_t excluded = 0b0000'0011;  // ways 0 and 1 pinned
  for (int i = 0; i < 32; ++i) {
    const std::uint32_t way = view.replace_excluding(0, excluded, random);
    ASSERT_LT(way, 8u);
    EXPECT_EQ((excluded >> way) & 1, 0u);
    if (i == 0 && expected_oldest_allowed != kNoWay) {
      EXPECT_EQ(way, expected_oldest_allowed);
    }
  }
  EXPECT_EQ(view.replace_excluding(0, 0xFF, random), kNoWay);
}

TEST(ExcludedWays, ReplacementNeverPicksAnExcludedWayAndSaysWhenAllAre) {
  check_excluding<replacement::Lru>(2);   // the oldest way not pinned
  check_excluding<replacement::Fifo>(2);
  check_excluding<replacement::Random>(kNoWay);
}

TEST(ExcludedWays, APinnedLineStaysInTheL1AndAFullyPinnedSetCachesNothing) {
  LineTable lines;
  lines.reset(16, 1, 1, static_cast<std::uint16_t>(kNoWay));
  PrivateCaches<replacement::Lru> l1;
  l1.reset(1, 1, 4, lines, replacement::Lru{});
  const auto view = l1.view();
  RandomStream random(1, Purpose::kL1Replacement, 0, 0);
  const Holder holder = PrivateCacheView::holder(0);
  const std::size_t first = view.fill(0, 0, 0, holder, random);
  view.pin(0, 0, static_cast<std::uint32_t>(first), true);
  EXPECT_EQ(bits_of(view.flags[first]) & kPinnedWay, kPinnedWay);
  for (std::uint32_t line = 1; line < 12; ++line) {
    ASSERT_NE(view.fill(0, 0, line, holder, random), kNoCell);
  }
  EXPECT_TRUE(view.holds(holder, 0));  // never evicted
  for (std::uint32_t way = 0; way < 4; ++way) {
    view.pin(0, 0, way, true);
  }
  EXPECT_EQ(view.fill(0, 0, 13, holder, random), kNoCell);
  EXPECT_FALSE(view.holds(holder, 13));
  view.invalidate_way(0, 0, static_cast<std::uint32_t>(first));  // unpins it too
  EXPECT_EQ(view.masks[0].pinned & (std::uint64_t{1} << first), 0u);
  EXPECT_NE(view.fill(0, 0, 13, holder, random), kNoCell);
}

// ---- keys that policies own --------------------------------------------------------------------

TEST(PolicyKeys, AFullHierarchyFileWithoutThePolicyKeysLoadsWithTheirDefaults) {
  nlohmann::json full = nlohmann::json::parse(
      hierarchy_to_json(load_hierarchy("fermi-c2050", {"placement.page_bytes=8KiB"})));
  EXPECT_EQ(full["placement.page_bytes"], 8192);
  EXPECT_EQ(full["schedule.cta"], "round-robin");
  for (const char* key : {"schedule.cta", "placement.policy", "prefetch.policy",
                          "placement.page_bytes"}) {
    full.erase(key);
  }
  const auto dir = std::filesystem::temp_directory_path() / "memcarlo-tests";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / ("no-policy-keys-" + std::to_string(::getpid()) + ".json")).string();
  std::ofstream(path) << full.dump();
  const HierarchyConfig config = load_hierarchy(path);
  EXPECT_EQ(config.schedule.cta, "round-robin");
  EXPECT_EQ(config.placement.policy, "interleaved");
  EXPECT_EQ(config.prefetch.policy, "none");
  EXPECT_EQ(config.params.integer(placement::kPageBytes), 4096u);
  // A key that describes the machine is still required.
  full.erase("l1.size");
  std::ofstream(path) << full.dump();
  try {
    (void)load_hierarchy(path);
    FAIL() << "expected a ConfigError";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("missing keys: l1.size"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}

TEST(PolicyKeys, BadValuesAndUnknownPoliciesNameTheKey) {
  const auto message = [](const std::string& setting) {
    try {
      (void)load_hierarchy("fermi-c2050", {setting});
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("placement.page_bytes=big").find("placement.page_bytes: expected a size"),
            std::string::npos);
  const std::string unknown_scheduler = message("schedule.cta=nope");
  EXPECT_NE(unknown_scheduler.find("schedule.cta: expected one of "), std::string::npos);
  EXPECT_NE(unknown_scheduler.find("round-robin"), std::string::npos);
  EXPECT_NE(message("prefetch.policy=nope").find("prefetch.policy: expected one of none"),
            std::string::npos);
  const std::vector<ParameterInfo>& keys = hierarchy_parameters();
  const auto page = std::find_if(keys.begin(), keys.end(), [](const ParameterInfo& info) {
    return info.key == "placement.page_bytes";
  });
  ASSERT_NE(page, keys.end());
  EXPECT_TRUE(page->optional);
  EXPECT_EQ(page->fallback, "4096");
}

// ---- unknown names ----------------------------------------------------------------------------

TEST(UnknownPolicy, EveryFamilyNamesItsKeyAndListsTheKnownPolicies) {
  const auto message = [](auto&& make) {
    try {
      make();
    } catch (const UnknownPolicy& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // The list is the registry's, whatever policies are built in: "a, b, c".
  const auto listed = [](const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& name : names) {
      out += (out.empty() ? "" : ", ") + name;
    }
    return out;
  };
  HierarchyConfig config = load_hierarchy("fermi-c2050");
  config.schedule.cta = "nope";
  const std::vector<std::string> schedulers = schedule::registry().names();
  EXPECT_NE(std::find(schedulers.begin(), schedulers.end(), "test-reverse"), schedulers.end());
  EXPECT_EQ(message([&] { (void)schedule::make(config); }),
            "schedule.cta: unknown policy \"nope\"; expected one of " + listed(schedulers));
  config = load_hierarchy("fermi-c2050");
  config.placement.policy = "nope";
  EXPECT_EQ(message([&] { (void)placement::make(config); }),
            "placement.policy: unknown policy \"nope\"; expected one of " +
                listed(placement::registry().names()));
  config = load_hierarchy("fermi-c2050");
  config.l2.replacement = "mru";
  EXPECT_EQ(message([&] { (void)replacement::make(config, "l2"); }),
            "l2.replacement: unknown policy \"mru\"; expected one of " +
                listed(replacement::registry().names()));
  config = load_hierarchy("fermi-c2050");
  config.prefetch.policy = "nope";
  EXPECT_EQ(message([&] { prefetch::BuiltIn::visit(config, [](auto) {}); }),
            "prefetch.policy: unknown policy \"nope\"; expected one of " +
                listed(prefetch::BuiltIn::names()));
  config = load_hierarchy("fermi-c2050");
  config.dram.model = "nope";
  EXPECT_EQ(
      message([&] { (void)dram::make(config); }),
      "dram.model: unknown model \"nope\"; expected one of " + listed(dram::registry().names()));
  // Every family lists at least its default.
  for (const auto& [names, fallback] :
       {std::pair{schedulers, std::string("round-robin")},
        std::pair{placement::registry().names(), std::string("interleaved")},
        std::pair{replacement::registry().names(), std::string("lru")},
        std::pair{prefetch::BuiltIn::names(), std::string("none")},
        std::pair{dram::registry().names(), std::string("banked")}}) {
    EXPECT_NE(std::find(names.begin(), names.end(), fallback), names.end()) << fallback;
  }
}

}  // namespace
}  // namespace memcarlo::sim
