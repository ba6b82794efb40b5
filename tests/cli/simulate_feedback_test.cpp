// What `memcarlo simulate` says before and while it runs: the memory estimate against what a run
// measures, the notice thresholds, the thread limit and the progress text.
#include <gtest/gtest.h>

#include <optional>
#include <sstream>

#include "cli_fixtures.hpp"
#include "memcarlo/analysis/summary.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/sim/monte_carlo.hpp"
#include "memcarlo/tracebuf/reader.hpp"
#include "simulate_feedback.hpp"

namespace memcarlo::cli {
namespace {

TEST(ResourceEstimate, TrialStateIsWithinAFifthOfWhatARunMeasuresOnEveryPreset) {
  const std::string path = test_support::write_trace("estimate.mct", {.kernels = {"a", "b"}});
  const auto reader = tracebuf::TraceReader::open(path);
  for (const std::string& preset : sim::preset_names()) {
    const sim::HierarchyConfig config = sim::load_hierarchy(preset);
    const sim::CompiledTrace trace = sim::compile_trace(reader, config);
    sim::MonteCarloOptions options;
    options.trials = 1;
    options.threads = 1;
    const sim::MonteCarloRun run = sim::run_monte_carlo(trace, config, options);
    const auto estimate = static_cast<double>(estimate_trial_state_bytes(trace, config));
    const auto measured = static_cast<double>(run.workspace_bytes);
    EXPECT_NEAR(estimate / measured, 1.0, 0.2)
        << preset << ": estimate " << estimate << " bytes, measured " << measured;
  }
}

RunEstimate small_run() {
  RunEstimate e;
  e.compiled_trace_bytes = 100 << 20;
  e.trial_state_bytes = 50 << 20;
  e.threads = 4;
  e.transactions = 1'000'000;
  e.trials = 32;
  return e;
}

TEST(ResourceNotice, NothingToSayBelowTheThresholds) {
  const RunEstimate e = small_run();  // 300 MiB, 32 M transactions on 4 threads: 4 s
  EXPECT_EQ(e.memory_bytes(), std::uint64_t{300} << 20);
  EXPECT_NEAR(e.seconds(), 32e6 / (kConservativeTransactionsPerSecond * 4), 1e-9);
  EXPECT_EQ(resource_notice(e, std::uint64_t{64} << 30), "");
  EXPECT_EQ(resource_notice(e, 0), "");
}

TEST(ResourceNotice, ALongRunSaysHowLongAndWhatShortensIt) {
  RunEstimate e = small_run();
  e.transactions = 40'000'000;  // 1.28 G transactions on 4 threads: 160 s
  const std::string notice = resource_notice(e, 0);
  EXPECT_NE(notice.find("about 2.7 min for 32 trials of 40000000 transactions"), std::string::npos)
      << notice;
  EXPECT_NE(notice.find("fewer trials (-n)"), std::string::npos) << notice;
  EXPECT_EQ(notice.find("fewer threads"), std::string::npos) << notice;
  e.until_ci = true;
  e.max_trials = 1000;
  EXPECT_NE(resource_notice(e, 0).find("its first 32 trials"), std::string::npos);
  EXPECT_NE(resource_notice(e, 0).find("up to 1000 trials with --until-ci"), std::string::npos);
}

TEST(ResourceNotice, MuchMemorySaysHowMuchAndWhatLowersIt) {
  RunEstimate e = small_run();
  e.threads = 64;  // 100 MiB + 64 x 50 MiB = 3.2 GiB: below 4 GiB ...
  EXPECT_EQ(resource_notice(e, 0), "");
  // ... but more than half of a 4 GiB machine.
  const std::string notice = resource_notice(e, std::uint64_t{4} << 30);
  EXPECT_NE(notice.find("about 3.2 GiB of memory (the compiled trace 100 MiB, 64 threads x 50 MiB "
                        "of trial state; this machine has 4.0 GiB)"),
            std::string::npos)
      << notice;
  EXPECT_NE(notice.find("fewer threads (-j)"), std::string::npos) << notice;
  e.threads = 100;  // 5 GiB: above kNoticeBytes whatever the machine
  EXPECT_NE(resource_notice(e, 0), "");
}

TEST(Threads, ARequestAboveTheMachineIsLoweredWithANote) {
  std::string note;
  EXPECT_EQ(usable_threads(0, 8, note), 8u);
  EXPECT_EQ(usable_threads(3, 8, note), 3u);
  EXPECT_EQ(note, "");
  EXPECT_EQ(usable_threads(1000, 8, note), 8u);
  EXPECT_EQ(note,
            "--threads 1000 is more than the 8 hardware threads this process may use; using 8 "
            "(more would only take turns on them)");
}

TEST(Progress, TextGivesTrialsTimeAndWhatIsLeft) {
  ProgressState s;
  s.done = 8;
  s.total = 32;
  s.elapsed_seconds = 2;
  EXPECT_EQ(progress_text(s), "memcarlo: 8/32 trials, 2.0 s, about 6.0 s left");
  s.done = 32;
  EXPECT_EQ(progress_text(s), "memcarlo: 32/32 trials, 2.0 s");
  s.until_ci = true;
  s.total = 1000;
  s.done = 40;
  s.target = 0.005;
  EXPECT_EQ(progress_text(s), "memcarlo: 40 trials (at most 1000), 2.0 s");
  s.widest = 0.0123;
  s.widest_where = "load 3 l2_hit_ratio";
  EXPECT_EQ(progress_text(s),
            "memcarlo: 40 trials (at most 1000), 2.0 s, widest 95% interval 0.0123 (load 3 "
            "l2_hit_ratio), target 0.005");
}

TEST(Progress, InASweepTheBarAndTheTimeLeftAreTheWholeSweeps) {
  ProgressState s;
  s.done = 16;
  s.total = 32;
  s.elapsed_seconds = 2;
  // Point 2 of 4 half done: 1.5 of 4 points in 30 s, so 2.5 points, 50 s, are left.
  s.sweep = SweepPosition{1, 4, "l1.size=32768", 30};
  EXPECT_EQ(progress_text(s),
            "memcarlo: [#######-------------] point 2/4 (l1.size=32768): 16/32 trials, 2.0 s, "
            "about 2.0 s left; sweep 30 s, about 50 s left");
  // With --until-ci only the finished points count; before the first one ends, no estimate.
  s.until_ci = true;
  s.total = 1000;
  s.done = 40;
  s.sweep = SweepPosition{0, 4, "", 5};
  EXPECT_EQ(progress_text(s),
            "memcarlo: [--------------------] point 1/4: 40 trials (at most 1000), 2.0 s; sweep "
            "5.0 s");
  s.sweep = SweepPosition{2, 4, "", 60};
  EXPECT_EQ(progress_text(s),
            "memcarlo: [##########----------] point 3/4: 40 trials (at most 1000), 2.0 s; sweep "
            "60 s, about 60 s left");
}

/// The trials of a run, with the stop rule simulate uses, with or without the progress driver.
sim::MonteCarloRun run_with(const sim::CompiledTrace& trace, const sim::HierarchyConfig& config,
                            const ProgressPlan& plan, bool with_progress, std::ostream& out) {
  sim::MonteCarloOptions mc;
  mc.seed = 7;
  mc.threads = 2;
  mc.trials = plan.trials;
  if (plan.until_ci > 0) {
    mc.max_trials = plan.max_trials;
    mc.converged = [&](const std::vector<sim::TrialResult>& trials) {
      return analysis::intervals_within(analysis::summarize_run(trials, trace, config, plan.bins),
                                        plan.until_ci);
    };
  }
  std::optional<ProgressDriver> driver;
  if (with_progress) {
    driver.emplace(plan, trace, config, mc, out);
  }
  return sim::run_monte_carlo(trace, config, mc);
}

TEST(ProgressDriver, CuttingTheTrialsIntoRoundsChangesNoResultAndNoStoppingPoint) {
  const std::string path = test_support::write_trace("driver.mct", {.blocks = 32});
  const auto reader = tracebuf::TraceReader::open(path);
  const sim::HierarchyConfig config = sim::load_hierarchy("fermi-c2050");
  const sim::CompiledTrace trace = sim::compile_trace(reader, config);
  struct Case {
    std::uint32_t trials;
    double until_ci;
    std::uint32_t max_trials;
    unsigned threads;  // what the chunking assumes
  };
  const Case cases[] = {{37, 0, 0, 1},       {37, 0, 0, 2},     {37, 0, 0, 16},  {12, 0.004, 44, 2},
                        {12, 0.004, 44, 16}, {5, 0.004, 21, 1}, {12, 0.5, 44, 2}};
  for (const Case& c : cases) {
    ProgressPlan plan;
    plan.trials = c.trials;
    plan.until_ci = c.until_ci;
    plan.max_trials = c.max_trials;
    plan.threads = c.threads;
    std::ostringstream lines;
    const sim::MonteCarloRun plain = run_with(trace, config, plan, false, lines);
    const sim::MonteCarloRun shown = run_with(trace, config, plan, true, lines);
    const std::string label = std::to_string(c.trials) + " trials, until_ci " +
                              std::to_string(c.until_ci) + ", " + std::to_string(c.threads) +
                              " threads";
    ASSERT_EQ(plain.trials.size(), shown.trials.size()) << label;
    if (c.until_ci > 0) {
      EXPECT_EQ(plain.converged, shown.converged) << label;
    }
    for (std::size_t t = 0; t < plain.trials.size(); ++t) {
      EXPECT_EQ(plain.trials[t].overall.l1_hits, shown.trials[t].overall.l1_hits) << label;
      EXPECT_EQ(plain.trials[t].overall.l2_read_hits, shown.trials[t].overall.l2_read_hits)
          << label;
      EXPECT_EQ(plain.trials[t].overall.dram_latency_sum, shown.trials[t].overall.dram_latency_sum)
          << label;
    }
    EXPECT_NE(lines.str().find("\r\033[Kmemcarlo: 0"), std::string::npos) << label;
  }
}

}  // namespace
}  // namespace memcarlo::cli
