// `mpirun -np 3 memcarlo simulate|sweep`: rank 0's report equals the one-process report field by
// field apart from `performance`, with a fixed trial count and with a stop rule (--until-ci), and
// an error on the ranks ends the job instead of hanging it. Built only with MEMCARLO_WITH_MPI.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli_fixtures.hpp"
#include "report_equality.hpp"

namespace {

namespace fs = std::filesystem;
using memcarlo::test_support::kMemcarlo;
using memcarlo::test_support::memcarlo;
using memcarlo::test_support::read_json_file;
using memcarlo::test_support::run_command;
using memcarlo::test_support::scratch_dir;
using nlohmann::json;

/// `mpirun --oversubscribe -np 3 memcarlo ARGUMENTS` (the environment that lets Open MPI run as
/// root on loopback comes from the test's ENVIRONMENT property).
memcarlo::test_support::CommandResult mpirun(const std::string& arguments) {
  return run_command(std::string(MEMCARLO_MPIEXEC) + " --oversubscribe -np 3 " + kMemcarlo + " " +
                     arguments + " 2>&1");
}

std::string trace() {
  const fs::path path = scratch_dir() / "mpi-reuse.mct";
  if (!fs::exists(path)) {
    const auto r = memcarlo("synth --pattern reuse --blocks 16 --threads 128 -o " + path.string());
    EXPECT_EQ(r.exit_code, 0) << r.output;
  }
  return path.string();
}

std::string path(const std::string& name) {
  return (scratch_dir() / name).string();
}

/// A trace whose intervals shrink slowly enough that --until-ci 0.05 stops after several rounds
/// but before --max-trials 40 (at 28 trials when this was written), so the stop rule is asked on
/// trials gathered from all ranks more than once.
std::string slowly_converging_trace() {
  const fs::path path = scratch_dir() / "mpi-spmv.mct";
  if (!fs::exists(path)) {
    const auto r = memcarlo("synth --pattern spmv --blocks 8 --threads 128 -o " + path.string());
    EXPECT_EQ(r.exit_code, 0) << r.output;
  }
  return path.string();
}

/// Checks that a run with a stop rule stopped after more than its first round and before its
/// trial limit.
void expect_stopped_between_rounds(const json& report) {
  EXPECT_EQ(report.at("stop_rule").at("converged"), true);
  EXPECT_GT(report.at("trials").get<int>(), 4);
  EXPECT_LT(report.at("trials").get<int>(), 40);
}

/// Runs `command` in one process and on three ranks; returns the one-process report.
json expect_same_with_and_without_mpi(const std::string& command, const std::string& name) {
  const auto one = memcarlo(command + " -q -o " + path(name + "-one.json"));
  EXPECT_EQ(one.exit_code, 0) << one.output;
  const auto three = mpirun(command + " -o " + path(name + "-mpi.json"));
  EXPECT_EQ(three.exit_code, 0) << three.output;
  if (one.exit_code != 0 || three.exit_code != 0) {
    return json::object();
  }
  const json report = read_json_file(path(name + "-one.json"));
  EXPECT_SAME_REPORT(report, read_json_file(path(name + "-mpi.json")));
  return report;
}

TEST(MpiRun, SimulateOnThreeRanksGivesTheOneProcessReport) {
  expect_same_with_and_without_mpi("simulate " + trace() + " -n 7 --seed 9 -j 1", "simulate");
}

TEST(MpiRun, SimulateWithAStopRuleStopsWhereOneProcessStops) {
  const json report = expect_same_with_and_without_mpi(
      "simulate " + slowly_converging_trace() + " --until-ci 0.05 -n 4 --max-trials 40 -j 1",
      "until-ci");
  expect_stopped_between_rounds(report.at("inputs"));
}

TEST(MpiRun, SweepOnThreeRanksGivesTheOneProcessReport) {
  expect_same_with_and_without_mpi(
      "sweep " + trace() + " -n 5 -j 1 --vary l1.replacement=lru,fifo --vary l1.size=8KiB,16KiB",
      "sweep");
}

TEST(MpiRun, SweepWithAStopRuleStopsEachPointWhereOneProcessStops) {
  const json report = expect_same_with_and_without_mpi(
      "sweep " + slowly_converging_trace() +
          " --until-ci 0.05 -n 4 --max-trials 40 -j 1 --vary l1.replacement=lru,random",
      "sweep-until-ci");
  for (const json& point : report.at("points")) {
    EXPECT_EQ(point.at("converged"), true);
    EXPECT_GT(point.at("trials").get<int>(), 4);
  }
}

TEST(MpiRun, SweepResumesUnderMpiWithTheSameReport) {
  const std::string command = "sweep " + trace() +
                              " -n 4 -j 1 --resume --vary l1.replacement=lru,fifo -o " +
                              path("resume-mpi.json");
  const auto first = mpirun(command);
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const json report = read_json_file(path("resume-mpi.json"));
  const auto again = mpirun(command);
  ASSERT_EQ(again.exit_code, 0) << again.output;
  const json resumed = read_json_file(path("resume-mpi.json"));
  EXPECT_EQ(resumed.at("performance").at("resumed_points"), 2);
  EXPECT_SAME_REPORT(report, resumed);
}

TEST(MpiRun, OnlyRankZeroPrints) {
  const auto r = mpirun("simulate " + trace() + " -n 3 -j 1 -o " + path("print.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::size_t lines_with_report = 0;
  for (std::size_t at = r.output.find("; report: "); at != std::string::npos;
       at = r.output.find("; report: ", at + 1)) {
    ++lines_with_report;
  }
  EXPECT_EQ(lines_with_report, 1u) << r.output;
  EXPECT_NE(r.output.find("in each of 3 MPI ranks"), std::string::npos) << r.output;
}

TEST(MpiRun, AnErrorEndsTheJob) {
  const auto r = mpirun("simulate " + path("no-such-trace.mct") + " -n 3");
  EXPECT_NE(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("no-such-trace.mct"), std::string::npos) << r.output;
}

}  // namespace
