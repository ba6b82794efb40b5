// `memcarlo report FILE --html` and the --html option of simulate and sweep, end to end on a small
// trace: the page holds the report that was written, one entry per load; bad input exits with 2
// and a message naming the file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli/cli_fixtures.hpp"
#include "html_test_support.hpp"

namespace {

namespace fs = std::filesystem;
using memcarlo::test_support::embedded_report;
using memcarlo::test_support::kHtmlData;
using memcarlo::test_support::memcarlo;
using memcarlo::test_support::read_json_file;
using memcarlo::test_support::read_text_file;
using memcarlo::test_support::scratch_dir;
using memcarlo::test_support::write_trace;
using nlohmann::json;

/// The gather trace of cli_fixtures (three accesses: two loads and a store), written once.
std::string gather_trace() {
  static const std::string path = write_trace("html-gather.mct");
  return path;
}

TEST(ReportCommand, SimulateHtmlAndReportHtmlShowTheReportJustWritten) {
  const fs::path dir = scratch_dir();
  const fs::path report = dir / "gather.json";
  const fs::path page = dir / "gather-simulate.html";
  const auto simulated = memcarlo("simulate " + gather_trace() + " -n 8 -q -o " + report.string() +
                                  " --html " + page.string());
  ASSERT_EQ(simulated.exit_code, 0) << simulated.output;
  const json written = read_json_file(report);
  ASSERT_EQ(written["loads"].size(), 3u);
  EXPECT_EQ(embedded_report(read_text_file(page)), written);

  const fs::path again = dir / "gather-report.html";
  const auto converted = memcarlo("report " + report.string() + " --html -o " + again.string());
  ASSERT_EQ(converted.exit_code, 0) << converted.output;
  EXPECT_EQ(embedded_report(read_text_file(again)), written);
  EXPECT_EQ(embedded_report(read_text_file(again))["loads"].size(), 3u);

  // Without -o the page goes beside the report, named after it.
  const auto beside = memcarlo("report " + report.string() + " --html");
  ASSERT_EQ(beside.exit_code, 0) << beside.output;
  EXPECT_TRUE(fs::exists(dir / "gather.html"));
}

TEST(ReportCommand, SweepHtmlAndReportHtmlOnASweepReport) {
  const fs::path dir = scratch_dir();
  const fs::path report = dir / "gather-sweep.json";
  const fs::path page = dir / "gather-sweep.html";
  const auto swept =
      memcarlo("sweep " + gather_trace() + " -n 6 -q --vary l1.size=16KiB,48KiB -o " +
               report.string() + " --html " + page.string());
  ASSERT_EQ(swept.exit_code, 0) << swept.output;
  const json written = read_json_file(report);
  EXPECT_EQ(embedded_report(read_text_file(page)), written);
  const auto converted = memcarlo("report " + report.string() + " --html -o -");
  ASSERT_EQ(converted.exit_code, 0);
  EXPECT_EQ(embedded_report(converted.output), written);
  EXPECT_NE(converted.output.find("<title>memcarlo sweep: "), std::string::npos);
}

TEST(ReportCommand, TheHandMadeReportWithPerAccessHistograms) {
  const fs::path page = scratch_dir() / "fixture.html";
  const std::string input = kHtmlData + "html_simulation_report.json";
  const auto r = memcarlo("report " + input + " --html -o " + page.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(embedded_report(read_text_file(page)), read_json_file(input));
}

TEST(ReportCommand, BadInputExitsWithTwoAndNamesTheFile) {
  const fs::path dir = scratch_dir();
  const auto not_json =
      memcarlo("report " + gather_trace() + " --html -o " + (dir / "x.html").string());
  EXPECT_EQ(not_json.exit_code, 2);
  EXPECT_NE(not_json.output.find("memcarlo: error: " + gather_trace() + ": not JSON"),
            std::string::npos)
      << not_json.output;
  EXPECT_FALSE(fs::exists(dir / "x.html"));

  const fs::path future = dir / "future.json";
  json report = read_json_file(kHtmlData + "html_simulation_report.json");
  report["schema_version"] = 3;
  std::ofstream(future) << report.dump();
  const auto unknown =
      memcarlo("report " + future.string() + " --html -o " + (dir / "y.html").string());
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.output.find(future.string() +
                                ": schema_version: unknown version 3: this memcarlo reads 1"),
            std::string::npos)
      << unknown.output;

  const auto missing = memcarlo("report " + (dir / "nothing.json").string() + " --html");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.output.find("nothing.json: cannot read the file"), std::string::npos);

  const auto no_format = memcarlo("report " + future.string());
  EXPECT_EQ(no_format.exit_code, 1);
  EXPECT_NE(no_format.output.find("--html"), std::string::npos);
}

}  // namespace
