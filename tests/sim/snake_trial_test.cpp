// Snake in whole trials (sim/src/prefetch/snake.hpp; Mostofi et al., MICRO 2023): the LPS chain
// of strides (-400, 40400, -400; Figure 7) learned and covered, a random gather that trains
// nothing, throttling, the decoupled storage (prefetch/snake/decoupled_storage.hpp), the
// variants' keys and their range checks. The tables' known answers are in snake_test.cpp.
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
    const TrialResult chains = run_one(path,
                                       one_sm({"l1.size=48KiB", "prefetch.snake.throttle=false",
                                               "prefetch.snake.intra_inter=false"}),
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
    const double before =
        static_cast<double>(base.overall.l1_hits) / static_cast<double>(base.overall.l1_accesses);
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
    // A list of the watcher alone: only its box is compiled here (the SM sides are the library's).
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
