// The HTML page of a report (reports::html_report): the report is embedded intact and cannot
// close its element, Chart.js from Debian's libjs-chart.js is inlined, nothing is loaded from
// elsewhere, and input that is not a report the page can show is refused with the file, the key
// and what was expected.
#include "memcarlo/reports/html_report.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "html_test_support.hpp"

namespace {

using memcarlo::reports::check_html_report;
using memcarlo::reports::html_report;
using memcarlo::reports::html_report_from_file;
using memcarlo::reports::HtmlReportError;
using memcarlo::reports::HtmlReportKind;
using memcarlo::test_support::embedded_report;
using memcarlo::test_support::embedded_report_text;
using memcarlo::test_support::kHtmlData;
using memcarlo::test_support::occurrences;
using memcarlo::test_support::read_text_file;
using nlohmann::json;

json fixture(const std::string& name) {
  return json::parse(read_text_file(kHtmlData + name));
}

json simulation_report() {
  return fixture("html_simulation_report.json");
}
json sweep_report() {
  return fixture("html_sweep_report.json");
}

/// The message of the HtmlReportError that html_report throws for `report` (empty if none).
std::string error_for(const json& report) {
  try {
    (void)html_report(report, "in.json");
  } catch (const HtmlReportError& e) {
    return e.what();
  }
  return {};
}

TEST(HtmlReport, EmbedsTheReportUnchanged) {
  const json report = simulation_report();
  ASSERT_TRUE(report["loads"][0].contains("latency_histogram"));
  const std::string page = html_report(report, "report.json");
  EXPECT_EQ(embedded_report(page), report);
  EXPECT_EQ(embedded_report(page)["loads"].size(), report["loads"].size());  // one row each
}

TEST(HtmlReport, EmbeddedTextCannotCloseItsElement) {
  json report = simulation_report();
  report["loads"][0]["expression"] = "a[i] </script><script>alert(1)</script> <!-- & \"q\"";
  report["inputs"]["trace"] = "</SCRIPT>.mct";
  const std::string page = html_report(report, "report.json");
  const std::string text = embedded_report_text(page);
  EXPECT_EQ(text.find('<'), std::string::npos);
  EXPECT_EQ(embedded_report(page), report);
  // The page's seven script elements (data, the page's script in four parts, Chart.js, the
  // call) and no other.
  EXPECT_EQ(occurrences(page, "</script>"), 7u);
  EXPECT_EQ(occurrences(page, "<script"), 7u);
}

TEST(HtmlReport, InlinesChartJsFromTheInstalledPackage) {
  const std::string chart_js = read_text_file(MEMCARLO_CHART_JS);
  // "Chart.js v3.9.1": the banner with its version (std::regex is avoided: GCC 12 warns inside it
  // under the sanitizer build's -O2).
  const std::size_t at = chart_js.find("Chart.js v");
  ASSERT_NE(at, std::string::npos) << MEMCARLO_CHART_JS;
  std::size_t end = at + std::string_view("Chart.js v").size();
  while (end < chart_js.size() && (std::isdigit(static_cast<unsigned char>(chart_js[end])) != 0 ||
                                   chart_js[end] == '.')) {
    ++end;
  }
  const std::string banner = chart_js.substr(at, end - at);
  ASSERT_GT(banner.size(), std::string_view("Chart.js v").size()) << banner;
  const std::string page = html_report(simulation_report(), "report.json");
  EXPECT_NE(page.find(banner), std::string::npos) << banner;
  EXPECT_NE(page.find(chart_js.substr(0, 4000)), std::string::npos);  // the file's own text
  EXPECT_NE(page.find(chart_js.substr(chart_js.size() - 4000)), std::string::npos);
  EXPECT_NE(page.find("memcarloReport.render()"), std::string::npos);
}

TEST(HtmlReport, LoadsNothingFromOutsideThePage) {
  for (const json& report : {simulation_report(), sweep_report()}) {
    const std::string page = html_report(report, "report.json");
    EXPECT_EQ(page.find("<script src"), std::string::npos);
    EXPECT_EQ(page.find(" src="), std::string::npos);
    EXPECT_EQ(page.find("<link"), std::string::npos);
    EXPECT_EQ(page.find("<iframe"), std::string::npos);
    EXPECT_EQ(page.find("@import"), std::string::npos);
    EXPECT_EQ(page.find("url("), std::string::npos);
    EXPECT_EQ(page.find("fetch("), std::string::npos);
    EXPECT_EQ(page.find("XMLHttpRequest"), std::string::npos);
    // The http(s) addresses on the page are the ones in Chart.js's banner and license comments.
    for (std::size_t at = page.find("http"); at != std::string::npos;
         at = page.find("http", at + 1)) {
      const std::string_view rest = std::string_view(page).substr(at);
      if (!rest.starts_with("http://") && !rest.starts_with("https://")) {
        continue;
      }
      const std::string found(rest.substr(0, rest.find_first_of(" \t\n\"'<>)")));
      EXPECT_TRUE(found.rfind("https://www.chartjs.org", 0) == 0 ||
                  found.rfind("https://github.com/kurkle/color", 0) == 0)
          << found;
    }
  }
}

TEST(HtmlReport, TellsSimulationAndSweepReportsApart) {
  EXPECT_EQ(check_html_report(simulation_report(), "a.json"), HtmlReportKind::kSimulation);
  EXPECT_EQ(check_html_report(sweep_report(), "b.json"), HtmlReportKind::kSweep);
  const std::string page = html_report(sweep_report(), "sweep.json");
  EXPECT_EQ(embedded_report(page), sweep_report());
  EXPECT_NE(page.find("<title>memcarlo sweep: sweep.json</title>"), std::string::npos);
}

TEST(HtmlReport, WorksWithoutTheOptionalParts) {
  json report = simulation_report();
  for (const char* key : {"allocations", "kernels", "performance", "producer"}) {
    report.erase(key);
  }
  for (json& load : report["loads"]) {
    load.erase("latency_histogram");
  }
  EXPECT_EQ(embedded_report(html_report(report, "old.json")), report);
  report["loads"][0]["latency_histogram"] = nullptr;  // as for a store
  EXPECT_EQ(embedded_report(html_report(report, "old.json")), report);
}

TEST(HtmlReportErrors, NameTheFileThePlaceAndWhatWasExpected) {
  EXPECT_EQ(error_for(json::array()),
            "in.json: expected a JSON object: a memcarlo simulate report (\"schema_version\": 1) "
            "or sweep report (\"schema\": \"memcarlo-sweep\")");
  EXPECT_EQ(error_for(json{{"hello", 1}}),
            "in.json: not a memcarlo report: expected \"schema_version\" (a simulate report) or "
            "\"schema\": \"memcarlo-sweep\" (a sweep report)");

  json report = simulation_report();
  report["schema_version"] = 2;
  EXPECT_EQ(error_for(report), "in.json: schema_version: unknown version 2: this memcarlo reads 1");
  report = simulation_report();
  report.erase("loads");
  EXPECT_EQ(error_for(report), "in.json: loads: missing");
  report = simulation_report();
  report["loads"][1].erase("expression");
  EXPECT_EQ(error_for(report), "in.json: loads[1].expression: missing");
  report = simulation_report();
  report["loads"][0]["requests"] = "many";
  EXPECT_EQ(error_for(report),
            "in.json: loads[0].requests: expected a non-negative integer, found \"many\"");
  report = simulation_report();
  report["loads"][0]["latency_histogram"]["edges"].erase(0);
  EXPECT_NE(error_for(report).find("in.json: loads[0].latency_histogram.edges: expected one edge "
                                   "more than counts"),
            std::string::npos);
  report = simulation_report();
  report["convergence"] = json::object();
  EXPECT_EQ(error_for(report), "in.json: convergence.stddev: missing");

  json sweep = sweep_report();
  sweep["schema"] = "memcarlo-sweeps";
  EXPECT_NE(error_for(sweep).find("in.json: schema: unknown schema \"memcarlo-sweeps\""),
            std::string::npos);
  sweep = sweep_report();
  sweep["version"] = 7;
  EXPECT_EQ(error_for(sweep),
            "in.json: version: unknown sweep report version 7: this memcarlo reads 1");
  sweep = sweep_report();
  sweep["points"] = json::array();
  EXPECT_EQ(error_for(sweep), "in.json: points: expected at least one point (the baseline)");
  sweep = sweep_report();
  sweep["points"][1].erase("difference");
  EXPECT_EQ(error_for(sweep), "in.json: points[1].difference: missing");
}

TEST(HtmlReportErrors, FilesThatAreNotJsonOrCannotBeRead) {
  const auto dir =
      std::filesystem::temp_directory_path() /
      ("memcarlo-html-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir);
  const std::string not_json = (dir / "trace.mct").string();
  std::ofstream(not_json) << "MCT\x01 binary";
  try {
    (void)html_report_from_file(not_json);
    FAIL() << "no error";
  } catch (const HtmlReportError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(not_json + ": not JSON (", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find("expected a memcarlo simulate or sweep report"),
              std::string::npos);
  }
  const std::string missing = (dir / "missing.json").string();
  try {
    (void)html_report_from_file(missing);
    FAIL() << "no error";
  } catch (const HtmlReportError& e) {
    EXPECT_EQ(std::string(e.what()), missing + ": cannot read the file");
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
