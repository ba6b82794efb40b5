// Known answers of the baseline GPU prefetchers (sim/src/prefetch/): each on the pattern it was
// designed for, with the prefetches issued and used counted by hand on tiny traces (one SM, a
// few warps); a random gather that none of them can learn; determinism and key errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/sim/monte_carlo.hpp"
#include "trace_builder.hpp"

namespace memcarlo::sim {
namespace {

using testing::run_one;
using testing::TraceBuilder;
using tracebuf::AccessKind;

/// The trial's total of prefetch counter `name`.
std::uint64_t total(const TrialResult& result, std::string_view name) {
  for (std::uint32_t c = 0; c < kPrefetchCounters.size(); ++c) {
    if (kPrefetchCounters[c].name == name) {
      return result.group_total(kPrefetchGroup, c);
    }
  }
  ADD_FAILURE() << "no prefetch counter " << name;
  return 0;
}

/// One SM of the C2050 (16 KiB L1, 128-byte lines) with prefetcher `policy`.
HierarchyConfig one_sm(const std::string& policy, std::vector<std::string> settings = {}) {
  settings.push_back("sm.count=1");
  settings.push_back("prefetch.policy=" + policy);
  return load_hierarchy("fermi-c2050", settings);
}

constexpr std::uint64_t kBase = 0x100000;

/// One warp runs a loop of 8 iterations whose coalesced load (one line) moves 4 KiB a time.
std::string per_thread_loop() {
  TraceBuilder trace(1, 32);
  const std::uint32_t id = trace.add_load(AccessKind::kRead, "a[i + k * 1024]");
  for (std::uint64_t k = 0; k < 8; ++k) {
    trace.coalesced(0, 0, id, kBase + k * 4096);
  }
  return trace.write("intra-warp-loop");
}

TEST(IntraWarpPrefetcher, ConfirmsAThreadsStrideOnItsThirdInstanceAndCoversTheRestOfTheLoop) {
  const TrialResult r = run_one(per_thread_loop(), one_sm("intra-warp"));
  // Instance 0 enters the table, 1 sees the stride once, 2 sees it again: instances 2..7 each
  // prefetch the next one's line, so 3..7 are covered and the last prefetch (instance 8's
  // line) is never used.
  EXPECT_EQ(total(r, "issued"), 6u);
  EXPECT_EQ(total(r, "useful"), 5u);
  EXPECT_EQ(total(r, "covered"), 5u);
  EXPECT_EQ(total(r, "untraced_lines"), 1u);
  EXPECT_EQ(total(r, "redundant"), 0u);
  EXPECT_EQ(r.loads[0].l1_hits, 5u);  // the covered ones (in flight or arrived)
  // Degree 2: from instance 2 on, the next two instances; instance 3..7 are covered, lines 8
  // and 9 are not traced; each line is asked for twice (once redundant).
  const TrialResult two = run_one(per_thread_loop(), one_sm("intra-warp", {"prefetch.degree=2"}));
  EXPECT_EQ(total(two, "covered"), 5u);
  EXPECT_EQ(total(two, "issued"), 7u);  // lines 3..9
  EXPECT_EQ(total(two, "redundant"), 5u);
}

TEST(NextLinePrefetcher, PrefetchesTheLineAfterEachMiss) {
  TraceBuilder trace(1, 32);
  const std::uint32_t id = trace.add_load(AccessKind::kRead, "a[i]");
  for (std::uint64_t line = 0; line < 8; ++line) {
    trace.coalesced(0, 0, id, kBase + line * 128);
  }
  const TrialResult r = run_one(trace.write("next-line"), one_sm("next-line"));
  // Lines 0, 2, 4, 6 miss and bring 1, 3, 5, 7, which hit and prefetch nothing.
  EXPECT_EQ(total(r, "issued"), 4u);
  EXPECT_EQ(total(r, "useful"), 4u);
  EXPECT_EQ(total(r, "covered"), 4u);
  EXPECT_EQ(r.loads[0].l1_hits, 4u);
}

/// One block of 8 warps; warp w reads the w-th line of an array (one load).
std::string consecutive_chunks_per_warp() {
  TraceBuilder trace(1, 256);
  const std::uint32_t id = trace.add_load(AccessKind::kRead, "a[blockDim.x * b + t]");
  for (std::uint32_t warp = 0; warp < 8; ++warp) {
    trace.coalesced(0, warp, id, kBase + warp * 128);
  }
  return trace.write("inter-warp-chunks");
}

TEST(InterWarpPrefetcher, LearnsTheStrideBetweenWarpsOverThreeWarpsAndPrefetchesTheNextWarp) {
  const std::string path = consecutive_chunks_per_warp();
  for (std::uint64_t trial = 0; trial < 8; ++trial) {
    const TrialResult r = run_one(path, one_sm("inter-warp"), trial);
    // The SM issues the warps round-robin from a random one, s, s+1, ..., 7, 0, ..., s-1. From
    // the third on, each asks for warp id + 1's line: a later warp's (useful), warp 8's
    // (untraced, useless) when it is warp 7, or warp s's, already read (redundant), when it is
    // the last. By hand over s = 0..7: 6 candidates, 4 or 5 useful, at most one useless.
    EXPECT_EQ(total(r, "issued") + total(r, "redundant"), 6u) << "trial " << trial;
    EXPECT_GE(total(r, "useful"), 4u) << "trial " << trial;
    EXPECT_LE(total(r, "issued") - total(r, "useful"), 1u) << "trial " << trial;
    EXPECT_EQ(total(r, "covered"), total(r, "useful"));
  }
}

/// Blocks of 1024 threads (one at a time on an SM of the C2050); warp 0 of block b reads the
/// b-th 4 KiB tile's first line.
std::string consecutive_tiles_per_block() {
  TraceBuilder trace(8, 1024);
  const std::uint32_t id = trace.add_load(AccessKind::kRead, "tile[b][t]");
  for (std::uint32_t block = 0; block < 8; ++block) {
    trace.coalesced(block, 0, id, kBase + block * 4096);
  }
  return trace.write("cta-aware-tiles");
}

TEST(CtaAwarePrefetcher, LearnsTheStrideBetweenCtasAndPrefetchesForTheNextCta) {
  const TrialResult r = run_one(consecutive_tiles_per_block(), one_sm("cta-aware"));
  // Blocks run one after the other: block 2 confirms the stride (4 KiB per CTA), blocks 2..7
  // prefetch the next block's tile, blocks 3..7 find it, block 8's tile is never read.
  EXPECT_EQ(total(r, "issued"), 6u);
  EXPECT_EQ(total(r, "useful"), 5u);
  EXPECT_EQ(total(r, "covered"), 5u);
  EXPECT_EQ(total(r, "untraced_lines"), 1u);
  // Two CTAs ahead: blocks 2..5 cover blocks 4..7.
  const TrialResult two =
      run_one(consecutive_tiles_per_block(), one_sm("cta-aware", {"prefetch.distance=2"}));
  EXPECT_EQ(total(two, "covered"), 4u);
  EXPECT_EQ(total(two, "issued"), 6u);
}

TEST(MtaPrefetcher, UsesTheIntraWarpStrideWhereTrainedAndTheInterWarpStrideElsewhere) {
  // The per-thread loop: intra-warp, the same answer as intra-warp alone.
  const TrialResult loop = run_one(per_thread_loop(), one_sm("mta"));
  EXPECT_EQ(total(loop, "issued"), 6u);
  EXPECT_EQ(total(loop, "covered"), 5u);
  // One instance per warp: no intra-warp stride; the inter-warp one as inter-warp alone.
  const std::string path = consecutive_chunks_per_warp();
  for (std::uint64_t trial = 0; trial < 4; ++trial) {
    const TrialResult mta = run_one(path, one_sm("mta"), trial);
    const TrialResult inter = run_one(path, one_sm("inter-warp"), trial);
    EXPECT_EQ(total(mta, "issued"), total(inter, "issued"));
    EXPECT_EQ(total(mta, "covered"), total(inter, "covered"));
  }
}

/// 4 blocks of 8 warps, 8 instances each of a load whose lanes read random 4-byte words of a
/// 64 MiB array.
std::string uniform_random_gather() {
  TraceBuilder trace(4, 256);
  const std::uint32_t id = trace.add_load(AccessKind::kRead, "a[idx[i]]");
  std::uint64_t state = 12345;
  const auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % (std::uint64_t{16} << 20);
  };
  for (std::uint32_t block = 0; block < 4; ++block) {
    for (std::uint32_t warp = 0; warp < 8; ++warp) {
      for (int k = 0; k < 8; ++k) {
        std::array<std::uint64_t, 32> lanes{};
        for (std::uint64_t& lane : lanes) {
          lane = kBase + 4 * next();
        }
        trace.access(block, warp, id, [&lanes](unsigned lane) { return lanes[lane]; });
      }
    }
  }
  return trace.write("random-gather");
}

TEST(BaselinePrefetchers, ARandomGatherTrainsNoStrideAndGetsNearZeroCoverage) {
  const std::string path = uniform_random_gather();
  const TrialResult none = run_one(path, one_sm("none"));
  for (const char* policy : {"intra-warp", "inter-warp", "mta", "cta-aware"}) {
    const TrialResult r = run_one(path, one_sm(policy));
    // No two consecutive lane-0 deltas repeat, so nothing is confirmed: (almost) no prefetch.
    EXPECT_LE(total(r, "issued"), 2u) << policy;
    EXPECT_LE(total(r, "covered"), 1u) << policy;
    // ... and the demand hit ratio stays what it was.
    EXPECT_LE(none.overall.l1_hits - std::min(none.overall.l1_hits, r.overall.l1_hits), 2u)
        << policy;
  }
  // next-line prefetches after every miss, and almost none of it is used.
  const TrialResult next = run_one(path, one_sm("next-line"));
  EXPECT_GT(total(next, "issued"), 1000u);
  EXPECT_LT(static_cast<double>(total(next, "useful")),
            0.02 * static_cast<double>(total(next, "issued")));
}

TEST(BaselinePrefetchers, ResultsDoNotDependOnTheThreadCount) {
  const std::string path = consecutive_chunks_per_warp();
  const auto reader = tracebuf::TraceReader::open(path);
  for (const char* policy : {"next-line", "intra-warp", "inter-warp", "mta", "cta-aware"}) {
    const HierarchyConfig config = one_sm(policy);
    const CompiledTrace compiled = compile_trace(reader, config);
    const auto run = [&](unsigned threads) {
      MonteCarloOptions options;
      options.seed = 3;
      options.trials = 8;
      options.threads = threads;
      return run_monte_carlo(compiled, config, options);
    };
    const MonteCarloRun one = run(1);
    const MonteCarloRun two = run(2);
    ASSERT_EQ(one.trials.size(), two.trials.size());
    for (std::size_t t = 0; t < one.trials.size(); ++t) {
      const auto& a = one.trials[t].groups[counter_group_index(kPrefetchGroup)];
      const auto& b = two.trials[t].groups[counter_group_index(kPrefetchGroup)];
      EXPECT_EQ(a.loads, b.loads) << policy << " trial " << t;
      EXPECT_EQ(one.trials[t].overall.l1_hits, two.trials[t].overall.l1_hits) << policy;
      EXPECT_EQ(one.trials[t].cycles, two.trials[t].cycles) << policy;
    }
  }
}

TEST(BaselinePrefetchers, NoneLeavesThePrefetchGroupOutAndTheAccessSitesUncompiled) {
  const std::string path = per_thread_loop();
  const auto reader = tracebuf::TraceReader::open(path);
  const HierarchyConfig none = one_sm("none");
  EXPECT_TRUE(compile_trace(reader, none).access_sites.empty());
  const TrialResult r = run_one(path, none);
  EXPECT_FALSE(r.groups[counter_group_index(kPrefetchGroup)].enabled());
  for (std::uint32_t c = 0; c < kPrefetchCounters.size(); ++c) {
    EXPECT_EQ(r.group_total(kPrefetchGroup, c), 0u);
  }
  const CompiledTrace with_sites = compile_trace(reader, one_sm("mta"));
  ASSERT_EQ(with_sites.access_sites.size(), with_sites.transactions.size());
  const AccessSite& site = with_sites.access_sites[0];
  EXPECT_EQ(site.base_address, kBase);
  EXPECT_EQ(site.stride, 4);
  EXPECT_EQ(site.flags, AccessSite::kUniformStride | AccessSite::kFirstOfInstruction);
}

TEST(BaselinePrefetchers, KeysAreListedWithDefaultsAndBadValuesNameTheKey) {
  const auto message = [](std::vector<std::string> settings) {
    try {
      (void)load_hierarchy("fermi-c2050", settings);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({"prefetch.policy=mta", "prefetch.degree=9"})
                .find("prefetch.degree: expected an integer from 1 to 4; got 9"),
            std::string::npos);
  EXPECT_NE(message({"prefetch.policy=cta-aware", "prefetch.distance=0"})
                .find("prefetch.distance: expected an integer from 1 to 1024; got 0"),
            std::string::npos);
  EXPECT_NE(message({"prefetch.degree=-1"}).find("prefetch.degree: expected a non-negative"),
            std::string::npos);
  // The list is the registry's (none first); these are the ones this file tests.
  const std::string unknown = message({"prefetch.policy=stream"});
  EXPECT_NE(unknown.find("prefetch.policy: expected one of none, "), std::string::npos) << unknown;
  for (const char* name : {"next-line", "intra-warp", "inter-warp", "mta", "cta-aware", "snake"}) {
    EXPECT_NE(unknown.find(name), std::string::npos) << name;
  }
  const std::vector<ParameterInfo>& keys = hierarchy_parameters();
  for (const auto& [key, fallback] : {std::pair{"prefetch.degree", "1"},
                                      {"prefetch.distance", "1"},
                                      {"prefetch.table_entries", "32"},
                                      {"prefetch.loads_per_warp", "8"}}) {
    const auto found = std::find_if(keys.begin(), keys.end(),
                                    [&](const ParameterInfo& info) { return info.key == key; });
    ASSERT_NE(found, keys.end()) << key;
    EXPECT_TRUE(found->optional) << key;
    EXPECT_EQ(found->fallback, fallback) << key;
  }
}

}  // namespace
}  // namespace memcarlo::sim
