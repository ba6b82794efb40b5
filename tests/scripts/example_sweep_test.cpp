// scripts/example-sweep.sh's options and scripts/example_sweep_table.py's table: the baseline row,
// the metrics as the sweep report has them, and a point that replays exactly like the baseline
// (prefetch.degree with no prefetcher: the same trials) shows a latency change of exactly zero.
#include <gtest/gtest.h>

#include <string>

#include "cli/cli_fixtures.hpp"
#include "common/run_command.hpp"

namespace {

using memcarlo::test_support::memcarlo;
using memcarlo::test_support::read_json_file;
using memcarlo::test_support::run_command;
using memcarlo::test_support::scratch_dir;
using memcarlo::test_support::write_trace;

const std::string kSource = MEMCARLO_SOURCE_DIR;

std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

TEST(ExampleSweepTable, BaselineRowMetricsAndAZeroChange) {
  const auto sweep = scratch_dir() / "example-sweep-table.json";
  const auto r =
      memcarlo("sweep " + write_trace("example-sweep-table.mct") +
               " -H fermi-c2050 --vary prefetch.degree=1,2 -n 3 -q -o " + sweep.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto table =
      run_command("python3 " + kSource + "/scripts/example_sweep_table.py --metrics " +
                  "l1_read_hit_ratio,dram_latency_cycles gather=" + sweep.string() + " 2>&1");
  ASSERT_EQ(table.exit_code, 0) << table.output;
  const auto report = read_json_file(sweep);
  const auto& l1 = report["points"][0]["overall"]["l1_read_hit_ratio"];
  const double half = (l1["ci95"][1].get<double>() - l1["ci95"][0].get<double>()) / 2;
  const std::string l1_cell = fixed(l1["mean"].get<double>(), 3) + " ±" + fixed(half, 3);
  EXPECT_NE(table.output.find("| gather | 1 | " + l1_cell + " | "), std::string::npos)
      << table.output;
  EXPECT_NE(table.output.find(" | (baseline) | - |"), std::string::npos) << table.output;
  EXPECT_NE(table.output.find("| gather | 2 | " + l1_cell + " | "), std::string::npos)
      << table.output;
  EXPECT_NE(table.output.find(" | +0.0 ±0.0 | +0.0% |"), std::string::npos) << table.output;
}

TEST(ExampleSweepTable, ANonSweepFileIsRefusedByName) {
  const auto report = scratch_dir() / "example-sweep-not-a-sweep.json";
  ASSERT_EQ(memcarlo("simulate " + write_trace("example-sweep-not.mct") + " -n 2 -q -o " +
                     report.string())
                .exit_code,
            0);
  const auto table = run_command("python3 " + kSource +
                                 "/scripts/example_sweep_table.py x=" + report.string() + " 2>&1");
  EXPECT_EQ(table.exit_code, 2);
  EXPECT_NE(table.output.find(report.string() + ": not a sweep report"), std::string::npos)
      << table.output;
}

TEST(ExampleSweepScript, OptionsAreCheckedBeforeAnythingRuns) {
  const std::string script = "bash " + kSource + "/scripts/example-sweep.sh ";
  const auto no_vary = run_command(script + "--build-dir /nonexistent 2>&1");
  EXPECT_EQ(no_vary.exit_code, 2);
  EXPECT_NE(no_vary.output.find("at least one --vary"), std::string::npos) << no_vary.output;
  const auto trials = run_command(script + "--vary a=1,2 -n zero 2>&1");
  EXPECT_EQ(trials.exit_code, 2);
  EXPECT_NE(trials.output.find("--trials must be a positive integer"), std::string::npos);
  const auto unbuilt = run_command(script + "--vary a=1,2 --build-dir /nonexistent 2>&1");
  EXPECT_EQ(unbuilt.exit_code, 2);
  EXPECT_NE(unbuilt.output.find("/nonexistent/cli/memcarlo is not built"), std::string::npos);
  const auto help = run_command(script + "--help 2>&1");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.output.find("usage: scripts/example-sweep.sh --vary"), std::string::npos);
}

}  // namespace
