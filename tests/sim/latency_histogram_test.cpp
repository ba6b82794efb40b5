// The per-load latency histograms: the bin layout's edges, known latencies on hand-built traces
// (an L1 hit takes l1.latency, an L2 hit l2.latency, an isolated DRAM read l2.latency plus its
// batch latency), counts that agree with the access counters level by level, and results that do
// not depend on the thread count.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "memcarlo/sim/dram/model.hpp"
#include "memcarlo/sim/latency_bins.hpp"
#include "memcarlo/sim/monte_carlo.hpp"
#include "trace_builder.hpp"

namespace memcarlo::sim {
namespace {

using latency::Level;
using testing::run_one;
using testing::TraceBuilder;
using tracebuf::AccessKind;

HierarchyConfig fermi_hierarchy(const std::vector<std::string>& overrides = {}) {
  return load_hierarchy("fermi-c2050", overrides);
}

/// Load `load`'s count of (level, bin) in a trial.
std::uint64_t count(const TrialResult& r, std::uint32_t load, Level level, std::uint32_t bin) {
  return r.latency_histogram.at(load * latency::kRowSize +
                                static_cast<std::size_t>(level) * latency::kBins + bin);
}

/// Load `load`'s accesses served by `level` in a trial.
std::uint64_t level_total(const TrialResult& r, std::uint32_t load, Level level) {
  std::uint64_t total = 0;
  for (std::uint32_t bin = 0; bin < latency::kBins; ++bin) {
    total += count(r, load, level, bin);
  }
  return total;
}

TEST(LatencyBins, SmallLatenciesHaveABinEachAndOctavesFourQuarters) {
  for (std::uint64_t c = 0; c < 8; ++c) {
    EXPECT_EQ(latency::bin_of(c), c);
    EXPECT_EQ(latency::lower_edge(c), c);
  }
  EXPECT_EQ(latency::bin_of(8), 8u);
  EXPECT_EQ(latency::bin_of(9), 8u);
  EXPECT_EQ(latency::bin_of(10), 9u);
  EXPECT_EQ(latency::bin_of(15), 11u);
  EXPECT_EQ(latency::bin_of(16), 12u);
  EXPECT_EQ(latency::bin_of(1u << 19), latency::kOpenBin - 4);
  EXPECT_EQ(latency::bin_of((1u << 20) - 1), latency::kOpenBin - 1);
  EXPECT_EQ(latency::bin_of(1u << 20), latency::kOpenBin);
  EXPECT_EQ(latency::bin_of(std::uint64_t{1} << 40), latency::kOpenBin);
  EXPECT_EQ(latency::bin_of(std::numeric_limits<std::uint64_t>::max()), latency::kOpenBin);
  EXPECT_EQ(latency::lower_edge(latency::kOpenBin), std::uint64_t{1} << 20);
}

TEST(LatencyBins, EveryLatencyLiesBetweenTheEdgesOfItsBin) {
  for (std::uint64_t c = 0; c < (1u << 21) + 100; c += c < 4096 ? 1 : 37) {
    const std::uint32_t bin = latency::bin_of(c);
    ASSERT_LT(bin, latency::kBins);
    EXPECT_LE(latency::lower_edge(bin), c) << c;
    if (bin != latency::kOpenBin) {
      EXPECT_LT(c, latency::upper_edge(bin)) << c;
    }
  }
  for (std::size_t bin = 0; bin < latency::kBins; ++bin) {
    EXPECT_LT(latency::lower_edge(bin), latency::upper_edge(bin));
    EXPECT_EQ(latency::bin_of(latency::lower_edge(bin)), bin);
    if (bin >= 8 && bin != latency::kOpenBin) {  // a quarter of its octave: at most 25 % wide
      EXPECT_LE(4 * (latency::upper_edge(bin) - latency::lower_edge(bin)),
                latency::lower_edge(bin));
    }
  }
}

TEST(LatencyHistogram, AReusedLineTakesTheL1LatencyAndTheFirstReadDramsIsolatedLatency) {
  // One warp reads a line, then reads it again 9 times, each after the previous data arrived:
  // one DRAM read (alone in its batch) and 9 L1 hits.
  TraceBuilder builder(1, 32);
  const auto x = builder.add_load(AccessKind::kRead, "x[0]");
  for (int k = 0; k < 10; ++k) {
    builder.coalesced(0, 0, x, 0x9000);
  }
  const auto path = builder.write("latency-reuse");
  const HierarchyConfig config = fermi_hierarchy();
  const TrialResult r = run_one(path, config);
  ASSERT_EQ(r.loads[x].l1_accesses, 10u);
  ASSERT_EQ(r.loads[x].l1_hits, 9u);
  ASSERT_EQ(r.loads[x].l1_inflight_hits, 0u);
  EXPECT_EQ(count(r, x, Level::kL1Hit, latency::bin_of(config.l1.latency)), 9u);
  EXPECT_EQ(level_total(r, x, Level::kL1Hit), 9u);

  // The model's latency for that one request: l2.latency + the batch latency of a fresh DRAM,
  // rounded to cycles as the drain rounds it.
  const CompiledTrace compiled = compile_trace(tracebuf::TraceReader::open(path), config);
  ASSERT_EQ(compiled.transactions.size(), 10u);
  const auto model = dram::make(config);
  model->reset();
  const std::uint32_t bursts = 4 * std::max<std::uint32_t>(1, config.l2.sector / 32);
  const dram::Request request{compiled.dram_location[compiled.transactions[0].line], bursts, false};
  const double full = config.l2.latency + model->batch_latency({&request, 1});
  const auto expected = static_cast<std::uint64_t>(full + 0.5);
  EXPECT_EQ(count(r, x, Level::kDram, latency::bin_of(expected)), 1u) << expected << " cycles";
  EXPECT_EQ(level_total(r, x, Level::kDram), 1u);
  EXPECT_EQ(r.loads[x].dram_latency_sum, full);
  EXPECT_EQ(level_total(r, x, Level::kL2) + level_total(r, x, Level::kL1Inflight), 0u);
}

TEST(LatencyHistogram, L2HitsTakeTheL2Latency) {
  // As L2Reuse: the second pass over 64 KiB misses the L1 and hits the L2 on every line.
  TraceBuilder builder(1, 32);
  const auto x = builder.add_load(AccessKind::kRead, "x[j]");
  constexpr std::uint32_t kLines = 64 * 1024 / 128;
  for (std::uint32_t pass = 0; pass < 2; ++pass) {
    for (std::uint32_t line = 0; line < kLines; ++line) {
      builder.coalesced(0, 0, x, 0x100000 + line * 128);
    }
  }
  const HierarchyConfig config = fermi_hierarchy();
  const TrialResult r = run_one(builder.write("latency-l2"), config);
  EXPECT_EQ(count(r, x, Level::kL2, latency::bin_of(config.l2.latency)), kLines);
  EXPECT_EQ(level_total(r, x, Level::kL2), kLines);
  EXPECT_EQ(level_total(r, x, Level::kDram), kLines);
  EXPECT_EQ(r.loads[x].dram_reads, kLines);
}

TEST(LatencyHistogram, AnInFlightHitWaitsAtLeastAnL1HitAndAtMostTheMiss) {
  // Two warps read the same line back to back: the second finds it still being filled.
  TraceBuilder builder(1, 64);
  const auto x = builder.add_load(AccessKind::kRead, "x[0]");
  builder.coalesced(0, 0, x, 0x5000);
  builder.coalesced(0, 1, x, 0x5000);
  const HierarchyConfig config = fermi_hierarchy();
  const TrialResult r = run_one(builder.write("latency-inflight"), config);
  ASSERT_EQ(r.loads[x].l1_inflight_hits, 1u);
  EXPECT_EQ(level_total(r, x, Level::kL1Inflight), 1u);
  EXPECT_EQ(level_total(r, x, Level::kDram), 1u);
  std::uint32_t inflight_bin = 0;
  std::uint32_t dram_bin = 0;
  for (std::uint32_t bin = 0; bin < latency::kBins; ++bin) {
    inflight_bin = count(r, x, Level::kL1Inflight, bin) != 0 ? bin : inflight_bin;
    dram_bin = count(r, x, Level::kDram, bin) != 0 ? bin : dram_bin;
  }
  EXPECT_GE(inflight_bin, latency::bin_of(config.l1.latency));
  EXPECT_LE(inflight_bin, dram_bin);
}

/// Several loads over a pseudo-random mix of lines, with reuse at every level.
std::string mixed_trace(std::uint32_t& loads) {
  TraceBuilder builder(28, 128);
  const auto a = builder.add_load(AccessKind::kRead, "a[i]");
  const auto b = builder.add_load(AccessKind::kRead, "b[idx[i]]");
  const auto c = builder.add_load(AccessKind::kReadModifyWrite, "c[i] += 1");
  const auto d = builder.add_load(AccessKind::kWrite, "d[i] = 0");
  loads = 4;
  std::uint64_t state = 12345;
  const auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(state >> 33);
  };
  for (std::uint32_t block = 0; block < 28; ++block) {
    for (std::uint32_t warp = 0; warp < 4; ++warp) {
      for (std::uint32_t k = 0; k < 12; ++k) {
        builder.coalesced(block, warp, a, 0x100000 + (next() % 64) * 128);
        builder.access(block, warp, b,
                       [&](unsigned lane) { return 0x400000 + (next() % 4096) * 4 + 0 * lane; });
        builder.coalesced(block, warp, c, 0x800000 + (next() % 512) * 128);
        builder.coalesced(block, warp, d, 0xA00000 + (next() % 256) * 128);
      }
    }
  }
  return builder.write("latency-mixed");
}

TEST(LatencyHistogram, CountsAgreeWithTheAccessCountersLevelByLevel) {
  std::uint32_t loads = 0;
  const auto path = mixed_trace(loads);
  for (const char* preset : {"fermi-c2050", "h100"}) {
    const HierarchyConfig config = load_hierarchy(preset);
    const CompiledTrace compiled = compile_trace(tracebuf::TraceReader::open(path), config);
    TrialWorkspace workspace;
    for (std::uint64_t trial = 0; trial < 3; ++trial) {
      const TrialResult r = run_trial(compiled, config, 5, trial, workspace);
      // Sparse: only occupied counters, in index order, all inside the loads' rows.
      ASSERT_EQ(r.latency_histogram.index.size(), r.latency_histogram.count.size());
      EXPECT_TRUE(
          std::is_sorted(r.latency_histogram.index.begin(), r.latency_histogram.index.end()));
      EXPECT_LT(r.latency_histogram.index.back(), loads * latency::kRowSize);
      EXPECT_EQ(std::count(r.latency_histogram.count.begin(), r.latency_histogram.count.end(), 0u),
                0);
      EXPECT_EQ(SparseCounts::from_dense(r.latency_histogram.dense(loads * latency::kRowSize)),
                r.latency_histogram);
      for (std::uint32_t id = 0; id < loads; ++id) {
        const AccessCounters& c = r.loads[id];
        SCOPED_TRACE(std::string(preset) + " load " + std::to_string(id));
        EXPECT_EQ(level_total(r, id, Level::kL1Hit), c.l1_hits - c.l1_inflight_hits);
        EXPECT_EQ(level_total(r, id, Level::kL1Inflight), c.l1_inflight_hits);
        EXPECT_EQ(level_total(r, id, Level::kL2) + level_total(r, id, Level::kDram),
                  c.l1_accesses - c.l1_hits);
        EXPECT_EQ(level_total(r, id, Level::kDram), c.dram_reads);  // one DRAM read per miss
        EXPECT_EQ(count(r, id, Level::kL1Hit, latency::bin_of(config.l1.latency)),
                  c.l1_hits - c.l1_inflight_hits);
      }
      // The store has no L1 load transactions, hence no latencies.
      EXPECT_EQ(r.loads[3].l1_accesses, 0u);
      for (std::size_t level = 0; level < latency::kLevels; ++level) {
        EXPECT_EQ(level_total(r, 3, static_cast<Level>(level)), 0u);
      }
    }
  }
}

TEST(LatencyHistogram, TheL1DisabledLeavesEveryCountZero) {
  std::uint32_t loads = 0;
  const auto path = mixed_trace(loads);
  const TrialResult r = run_one(path, fermi_hierarchy({"l1.enabled=false"}));
  EXPECT_GT(r.loads[0].l1_accesses + r.loads[0].l2_reads, 0u);
  EXPECT_TRUE(r.latency_histogram.index.empty());
  EXPECT_TRUE(r.latency_histogram.count.empty());
}

TEST(LatencyHistogram, TrialsGiveTheSameHistogramsWhateverTheThreadCount) {
  std::uint32_t loads = 0;
  const auto path = mixed_trace(loads);
  const HierarchyConfig config = fermi_hierarchy();
  const CompiledTrace compiled = compile_trace(tracebuf::TraceReader::open(path), config);
  MonteCarloOptions options;
  options.trials = 6;
  options.threads = 1;
  const MonteCarloRun one = run_monte_carlo(compiled, config, options);
  options.threads = 2;
  const MonteCarloRun two = run_monte_carlo(compiled, config, options);
  ASSERT_EQ(one.trials.size(), two.trials.size());
  bool trials_differ = false;
  for (std::size_t t = 0; t < one.trials.size(); ++t) {
    EXPECT_EQ(one.trials[t].latency_histogram, two.trials[t].latency_histogram) << "trial " << t;
    trials_differ =
        trials_differ || one.trials[t].latency_histogram != one.trials[0].latency_histogram;
  }
  EXPECT_TRUE(trials_differ);  // the ordering is random: the histograms vary between trials
}

}  // namespace
}  // namespace memcarlo::sim
