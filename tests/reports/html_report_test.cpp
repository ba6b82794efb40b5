// The HTML page of a report (reports::html_report): the report is embedded intact and cannot
// close its element, Chart.js from Debian's libjs-chart.js is inlined, nothing is loaded from
// elsewhere, and input that is not a report the page can show is refused with the file, the key
// and what was expected.
#include "memcarlo/reports/html_report.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string_view>
#include <vector>

#include "html_test_support.hpp"
#include "memcarlo/analysis/metrics.hpp"
#include "memcarlo/reports/ncu_compare.hpp"
#include "memcarlo/reports/report.hpp"
#include "memcarlo/reports/sweep_report.hpp"

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
  // The page's eight script elements (data, the metric table, the page's script in four parts,
  // Chart.js, the call) and no other.
  EXPECT_EQ(occurrences(page, "</script>"), 8u);
  EXPECT_EQ(occurrences(page, "<script"), 8u);
}

TEST(HtmlReport, InlinesChartJsFromTheInstalledPackage) {
  const std::string chart_js = read_text_file(MEMCARLO_CHART_JS);
  // "Chart.js v3.9.1": the banner with its version (std::regex is avoided: GCC 12 warns inside it
  // under the sanitizer build's -O2).
  const std::size_t at = chart_js.find("Chart.js v");
  ASSERT_NE(at, std::string::npos) << MEMCARLO_CHART_JS;
  std::size_t end = at + std::string_view("Chart.js v").size();
  while (end < chart_js.size() &&
         (std::isdigit(static_cast<unsigned char>(chart_js[end])) != 0 || chart_js[end] == '.')) {
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

/// The page's metric-table element, parsed.
json page_metric_table_of(const std::string& page) {
  constexpr std::string_view kOpen = "<script type=\"application/json\" id=\"metric-table\">";
  const auto begin = page.find(kOpen);
  if (begin == std::string::npos) {
    ADD_FAILURE() << "the page has no metric-table element";
    return json::object();
  }
  const auto start = begin + kOpen.size();
  return json::parse(page.substr(start, page.find("</script>", start) - start));
}

// The page's script takes the metrics' order, units, scopes and counter groups from the metric
// table that the page carries, and that is memcarlo's metric table line for line: a metric added
// to analysis/metrics.cpp reaches the page with nothing else to edit, and a page that dropped or
// reordered one fails here.
TEST(HtmlReportMetricTable, IsTheMetricTableLineForLine) {
  namespace analysis = memcarlo::analysis;
  for (const json& report : {simulation_report(), sweep_report()}) {
    const json table = page_metric_table_of(html_report(report, "r.json"));
    const json& lines = table["metrics"];
    const auto metrics = analysis::metric_table();
    ASSERT_EQ(lines.size(), metrics.size());
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      const analysis::Metric& metric = metrics[m];
      const json& line = lines[m];
      EXPECT_EQ(line["name"], std::string(metric.name)) << m;
      EXPECT_EQ(line["unit"], std::string(analysis::unit_name(metric.unit))) << metric.name;
      EXPECT_EQ(line["headline"], metric.headline) << metric.name;
      EXPECT_EQ(line["bounded"], analysis::stays_in_unit_interval(metric)) << metric.name;
      EXPECT_EQ(line["group"].is_null(), metric.group == nullptr) << metric.name;
      EXPECT_EQ(line["prefetch_column"], memcarlo::reports::in_prefetch_columns(metric))
          << metric.name;
      EXPECT_EQ(line["scope"] != "aggregate",
                analysis::in_scope(metric.scope, analysis::MetricScope::kLoad))
          << metric.name;
      EXPECT_EQ(line["scope"] != "load",
                analysis::in_scope(metric.scope, analysis::MetricScope::kAggregate))
          << metric.name;
    }
  }
  // Known answers from the table's definition: a ratio, a latency, an amount, and the two
  // prefetch ratios that can pass 1.
  const json lines = page_metric_table_of(html_report(simulation_report(), "r.json"))["metrics"];
  const auto line_named = [&](const std::string& name) {
    for (const json& line : lines) {
      if (line["name"] == name) {
        return line;
      }
    }
    ADD_FAILURE() << "no line " << name;
    return json::object();
  };
  EXPECT_EQ(line_named("l1_hit_ratio")["unit"], "ratio");
  EXPECT_EQ(line_named("l1_hit_ratio")["scope"], "load");
  EXPECT_EQ(line_named("l1_hit_ratio")["bounded"], true);
  EXPECT_EQ(line_named("latency_cycles")["unit"], "cycles");
  EXPECT_EQ(line_named("numa_link_bytes")["unit"], "amount");
  EXPECT_EQ(line_named("numa_link_bytes")["group"], "numa");
  EXPECT_EQ(line_named("prefetch_extra_dram_reads")["bounded"], false);
  EXPECT_EQ(line_named("prefetch_extra_dram_reads")["group"], "prefetch");
  EXPECT_EQ(line_named("prefetch_coverage")["prefetch_column"], true);
  EXPECT_EQ(line_named("prefetch_extra_dram_reads")["prefetch_column"], false);
}

// What reports choose by a metric's name is a metric of the table: the sweep key families (the
// page and the terminal table), the quantities `memcarlo compare` matches to Nsight Compute's. A
// renamed metric fails here, not as an empty column.
TEST(HtmlReportMetricTable, EveryChoiceByNameIsAMetricOfTheTable) {
  namespace analysis = memcarlo::analysis;
  const json table = page_metric_table_of(html_report(sweep_report(), "s.json"));
  ASSERT_EQ(table["sweep_acts_on"].size(), memcarlo::reports::sweep_acts_on().size());
  std::vector<std::string> names = table["sweep_other_keys"];
  for (const json& family : table["sweep_acts_on"]) {
    for (const std::string name : family["metrics"]) {
      names.push_back(name);
    }
  }
  for (const memcarlo::reports::ComparedMetric& compared : memcarlo::reports::kComparedMetrics) {
    names.emplace_back(compared.report_key);
  }
  EXPECT_EQ(table["sweep_acts_on"][0]["prefix"], "prefetch.");
  EXPECT_EQ(table["sweep_other_keys"].size(), 3u);
  for (const std::string& name : names) {
    EXPECT_NE(analysis::find_metric(name, analysis::MetricScope::kAggregate), nullptr) << name;
  }
}

// The page's scripts keep no list of metrics of their own (the order, the units and the prefetch
// charts' metrics come from the metric table): the few names they still choose for a column are
// names the table has, so a renamed or removed metric fails here rather than as an empty column.
TEST(HtmlReportMetricTable, ThePagesScriptsNameOnlyMetricsOfTheTable) {
  namespace analysis = memcarlo::analysis;
  // A quoted name ('l1_hit_ratio') or a member read (load.latency_cycles).
  const std::regex quoted_metric(
      "['.]([a-z0-9_]+_(ratio|cycles|coverage|accuracy|share|efficiency|accesses|bytes|reads))\\b");
  std::size_t named = 0;
  for (const char* part : {"core", "simulation", "sweep", "study"}) {
    const std::string script = read_text_file(std::string(MEMCARLO_SOURCE_DIR) +
                                              "/reports/src/resources/report_" + part + ".js");
    for (auto it = std::sregex_iterator(script.begin(), script.end(), quoted_metric);
         it != std::sregex_iterator(); ++it) {
      const std::string name = (*it)[1];
      ++named;
      EXPECT_TRUE(analysis::find_metric(name, analysis::MetricScope::kLoad) != nullptr ||
                  analysis::find_metric(name, analysis::MetricScope::kAggregate) != nullptr)
          << "report_" << part << ".js names " << name << ", which the metric table lacks";
    }
  }
  // The load table's three columns, the prefetch columns' test for a prefetching load and the
  // sweep table's closing latency, each named twice at most: a list of every metric would be
  // many more.
  EXPECT_GT(named, 0u);
  EXPECT_LE(named, 10u);
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
