// A sweep killed with SIGKILL at many moments (the whole process group, as a job scheduler or the
// OOM killer would) resumes with --resume into the report an uninterrupted sweep writes: a point
// is stored whole or not at all.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "cli/cli_fixtures.hpp"
#include "cli/report_equality.hpp"
#include "common/kill_at.hpp"

namespace {

namespace fs = std::filesystem;
using memcarlo::test_support::kMemcarlo;
using memcarlo::test_support::memcarlo;
using memcarlo::test_support::read_json_file;
using memcarlo::test_support::run_and_kill_after;
using memcarlo::test_support::scratch_dir;
using memcarlo::test_support::without_performance;
using memcarlo::test_support::write_trace;

TEST(KilledSweep, ResumesIntoTheUninterruptedReport) {
  const std::string trace = write_trace("kill-sweep.mct");
  const std::string points =
      " -q -n 6 --vary l1.size=16KiB,32KiB,48KiB --vary "
      "l1.replacement=lru,fifo,random -j 2 --resume -o ";
  const fs::path whole = scratch_dir() / "kill-sweep-whole.json";
  fs::remove_all(whole.string() + ".points");
  const auto started = std::chrono::steady_clock::now();
  const auto reference = memcarlo("sweep " + trace + points + whole.string());
  ASSERT_EQ(reference.exit_code, 0) << reference.output;
  const auto full_time = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - started);

  const fs::path report = scratch_dir() / "kill-sweep.json";
  fs::remove(report);
  fs::remove_all(report.string() + ".points");
  const std::string command = kMemcarlo + " sweep " + trace + points + report.string();
  // Kill it at 12 moments spread over an uninterrupted run's time, resuming each time.
  int killed = 0;
  for (int k = 1; k <= 12; ++k) {
    const auto delay = std::chrono::milliseconds(full_time.count() * k / 13 + 1);
    const auto result = run_and_kill_after(command, delay);
    ASSERT_TRUE(result.started);
    killed += result.killed ? 1 : 0;
    if (!result.killed) {
      ASSERT_EQ(result.exit_code, 0);
      break;
    }
  }
  EXPECT_GT(killed, 0);  // the test killed something
  const auto last = memcarlo("sweep " + trace + points + report.string());
  ASSERT_EQ(last.exit_code, 0) << last.output;
  EXPECT_EQ(without_performance(read_json_file(report)),
            without_performance(read_json_file(whole)));
}

}  // namespace
