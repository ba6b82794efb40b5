// The known answers of issue 2 on traces from `memcarlo synth`: compulsory misses of a stream,
// two transactions per request at stride 2, the (n - 1) / n L1 hit ratio of reuse, and the
// scalar SpMV case study of paper §6.2.
#include <gtest/gtest.h>

#include <filesystem>

#include "memcarlo/analysis/summary.hpp"
#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/sim/monte_carlo.hpp"
#include "memcarlo/synth/synth.hpp"
#include "memcarlo/tracebuf/reader.hpp"

namespace memcarlo {
namespace {

struct Simulated {
  sim::CompiledTrace trace;
  analysis::SimulationSummary summary;
};

Simulated simulate(synth::SynthOptions options, const std::string& preset = "fermi-c2050",
                   std::uint32_t trials = 4) {
  const auto dir = std::filesystem::temp_directory_path() / "memcarlo-integration";
  std::filesystem::create_directories(dir);
  const std::string path =
      (dir / (options.pattern + "-" + std::to_string(::getpid()) + ".mct")).string();
  synth::generate(options, path);
  const auto config = sim::load_hierarchy(preset);
  const auto reader = tracebuf::TraceReader::open(path);
  Simulated out;
  out.trace = sim::compile_trace(reader, config);
  sim::MonteCarloOptions mc;
  mc.trials = trials;
  mc.seed = 3;
  const auto run = sim::run_monte_carlo(out.trace, config, mc);
  out.summary = analysis::summarize_run(run.trials, out.trace, config);
  return out;
}

const analysis::LoadSummary& load(const Simulated& s, std::uint32_t id) {
  for (const auto& l : s.summary.loads) {
    if (l.id == id) {
      return l;
    }
  }
  throw std::out_of_range("load not in summary");
}

TEST(SynthKnownAnswers, CoalescedStreamMissesEverywhereWithOneTransactionPerRequest) {
  synth::SynthOptions options;
  options.pattern = "stream";
  options.blocks = 64;
  const Simulated s = simulate(options);
  const auto& in = load(s, 0);
  EXPECT_EQ(in.counts.transactions, in.counts.requests);
  EXPECT_EQ(in.metrics["l1_hit_ratio"]->max, 0.0);
  EXPECT_EQ(in.metrics["l2_hit_ratio"]->max, 0.0);
  EXPECT_EQ(s.summary.overall["l1_read_hit_ratio"]->max, 0.0);
  EXPECT_EQ(s.summary.overall["l2_read_hit_ratio"]->max, 0.0);
}

TEST(SynthKnownAnswers, StrideTwoFloatsTakeTwoTransactionsPerRequest) {
  synth::SynthOptions options;
  options.pattern = "stride";
  options.blocks = 16;
  options.stride = 2;
  const Simulated s = simulate(options, "fermi-c2050", 2);
  const auto& a = load(s, 0);
  EXPECT_EQ(a.counts.transactions, 2 * a.counts.requests);
}

TEST(SynthKnownAnswers, ReuseOfAnArrayThatFitsInL1HitsNMinusOneOverN) {
  // synth.hpp: with --blocks 56 and the defaults (256 threads, 4 passes, 4-byte elements, 8 KiB)
  // on the 14 SMs of a C2050, each SM reads each line n = 4 blocks x 8 warps x 4 passes = 128
  // times: H1 = 127/128, in every trial.
  synth::SynthOptions options;
  options.pattern = "reuse";
  options.blocks = 56;
  const Simulated s = simulate(options);
  const auto& h1 = *s.summary.overall["l1_read_hit_ratio"];
  EXPECT_DOUBLE_EQ(h1.min, 127.0 / 128.0);
  EXPECT_DOUBLE_EQ(h1.max, 127.0 / 128.0);
}

TEST(SynthKnownAnswers, ScalarSpmvIndexAndValueLoadsAreSlowerThanTheVectorGather) {
  // Paper §6.2: in the scalar kernel indices[j] (id 2) and val[j] (id 4) have a higher expected
  // latency than y[ind] (id 3), for random and block-diagonal matrices alike.
  for (auto layout : {synth::MatrixLayout::kRandom, synth::MatrixLayout::kBlockDiagonal}) {
    synth::SynthOptions options;
    options.pattern = "spmv";
    options.blocks = 28;
    options.nnz_per_row = 32;
    options.matrix = layout;
    const Simulated s = simulate(options);
    const double indices = load(s, 2).metrics["latency_cycles"]->mean;
    const double y = load(s, 3).metrics["latency_cycles"]->mean;
    const double val = load(s, 4).metrics["latency_cycles"]->mean;
    EXPECT_GT(indices, y) << synth::to_string(layout);
    EXPECT_GT(val, y) << synth::to_string(layout);
  }
}

}  // namespace
}  // namespace memcarlo
