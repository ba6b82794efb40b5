// The HTML reports in a real browser (MEMCARLO_BROWSER_TESTS): headless Chromium opens the page of
// the hand-made report with per-access histograms, of a simulated trace, of sweeps of one, two and
// three keys and of a locality graph; the test reads the rendered DOM back (--dump-dom) and
// checks: no console error, neither in Chromium's log nor caught by the page; one table row per
// load (or point); every chart holds the data points of its series; the layout (no text box over
// another or rotated, ratios on [0, 1], block axes and colour scales); a screenshot that is not
// blank.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "browser/png_image.hpp"
#include "cli/cli_fixtures.hpp"
#include "html_test_support.hpp"
#include "memcarlo/analysis/metrics.hpp"

namespace {

namespace fs = std::filesystem;
using memcarlo::test_support::image_figures;
using memcarlo::test_support::kHtmlData;
using memcarlo::test_support::memcarlo;
using memcarlo::test_support::occurrences;
using memcarlo::test_support::read_json_file;
using memcarlo::test_support::read_png;
using memcarlo::test_support::read_text_file;
using memcarlo::test_support::run_command;
using memcarlo::test_support::scratch_dir;
using memcarlo::test_support::write_trace;
using nlohmann::json;

struct BrowserRun {
  int exit_code = -1;
  std::string dom;  // --dump-dom: the document after its scripts ran
  std::string log;  // Chromium's standard error with --enable-logging=stderr
};

/// Chromium, headless, on `page` (with the address's `fragment`, e.g. "#load=4") with a fresh
/// profile, no network use and a time limit.
BrowserRun chromium(const fs::path& page, const std::string& mode,
                    const std::string& fragment = "") {
  static int runs = 0;
  const fs::path profile = scratch_dir() / ("chromium-profile-" + std::to_string(runs++));
  fs::create_directories(profile);
  const fs::path log = profile / "stderr.txt";
  const std::string command =
      "timeout 45 " MEMCARLO_CHROMIUM
      " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
      " --disable-background-networking --disable-component-update --disable-sync"
      " --disable-extensions --disable-default-apps --disable-dev-shm-usage --hide-scrollbars"
      " --user-data-dir=" +
      profile.string() + " --enable-logging=stderr --v=0 --virtual-time-budget=5000 " + mode +
      " file://" + fs::absolute(page).string() + fragment + " 2>" + log.string();
  const auto result = run_command(command);
  BrowserRun run{result.exit_code, result.output, read_text_file(log)};
  fs::remove_all(profile);
  return run;
}

/// The lines of Chromium's log that come from the page's console (the page logs nothing when
/// all is well) or report an uncaught exception.
std::vector<std::string> console_lines(const std::string& log) {
  std::vector<std::string> lines;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    if (line.find("CONSOLE") != std::string::npos || line.find("Uncaught") != std::string::npos) {
      lines.push_back(line);
    }
  }
  return lines;
}

/// What the page's script recorded after drawing (<pre id="render-status">), from the DOM.
json render_status(const std::string& dom) {
  // Found by hand: std::regex recurses per character and overflows the stack on a long status.
  const std::size_t element = dom.find("<pre id=\"render-status\"");
  const std::size_t open = element == std::string::npos ? element : dom.find('>', element);
  const std::size_t close = open == std::string::npos ? open : dom.find("</pre>", open);
  if (close == std::string::npos) {
    ADD_FAILURE() << "no render-status element in the DOM:\n" << dom.substr(0, 2000);
    return json::object();
  }
  std::string text = dom.substr(open + 1, close - open - 1);
  for (const auto& [entity, character] :
       {std::pair<std::string, std::string>{"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}}) {
    for (auto at = text.find(entity); at != std::string::npos; at = text.find(entity, at + 1)) {
      text.replace(at, entity.size(), character);
    }
  }
  return json::parse(text);
}

/// Data points per dataset of the chart `name` (empty when the page has no such chart).
std::vector<std::size_t> chart_points(const json& status, const std::string& name) {
  for (const json& chart : status["charts"]) {
    if (chart["name"] == name) {
      return chart["points"].get<std::vector<std::size_t>>();
    }
  }
  ADD_FAILURE() << "no chart " << name << " in " << status.dump();
  return {};
}

/// Opens the page, checks that it drew without an error and returns what it recorded (and in
/// `dom`, when given, the rendered DOM).
json open_page(const fs::path& page, const std::string& fragment = "", std::string* dom = nullptr) {
  const BrowserRun run = chromium(page, "--dump-dom", fragment);
  if (dom != nullptr) {
    *dom = run.dom;
  }
  EXPECT_EQ(run.exit_code, 0) << run.log;
  EXPECT_EQ(console_lines(run.log), std::vector<std::string>{}) << run.log;
  const json status = render_status(run.dom);
  EXPECT_EQ(status.value("done", false), true) << status.dump();
  EXPECT_EQ(status.value("errors", json::array()), json::array()) << status.dump();
  // The rendered DOM, not only the status: the rows are there.
  EXPECT_EQ(occurrences(run.dom, "<tr data-load="), status.value("load_rows", 0u));
  EXPECT_EQ(occurrences(run.dom, "<tr data-point="), status.value("point_rows", 0u));
  EXPECT_GT(occurrences(run.dom, "<canvas"), 0u);
  return status;
}

/// A screenshot of the top of the page: many colours, much ink, and the colours of the plots and
/// cost bars (not only grey text).
void expect_not_blank(const fs::path& page, const std::string& name) {
  const fs::path png = scratch_dir() / (name + ".png");
  fs::remove(png);
  const BrowserRun run =
      chromium(page, "--screenshot=" + png.string() + " --window-size=1200,1600");
  ASSERT_EQ(run.exit_code, 0) << run.log;
  EXPECT_EQ(console_lines(run.log), std::vector<std::string>{}) << run.log;
  ASSERT_TRUE(fs::exists(png)) << run.log;
  const auto image = read_png(png.string());
  EXPECT_EQ(image.width, 1200u);
  EXPECT_EQ(image.height, 1600u);
  const auto figures = image_figures(image);
  EXPECT_GE(figures.distinct_colours, 100u) << png;
  EXPECT_GE(figures.non_white_share, 0.03) << png;
  EXPECT_GE(figures.coloured_pixels, 2000u) << png;
}

fs::path make_page(const std::string& report, const std::string& name) {
  const fs::path page = scratch_dir() / name;
  const auto r = memcarlo("report " + report + " --html -o " + page.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return page;
}

TEST(HtmlInChromium, HandMadeReportWithPerAccessHistograms) {
  const std::string input = kHtmlData + "html_simulation_report.json";
  const json report = read_json_file(input);
  const fs::path page = make_page(input, "browser-fixture.html");
  const json status = open_page(page);
  EXPECT_EQ(status["kind"], "simulation");
  EXPECT_EQ(status["load_rows"], report["loads"].size());

  // The load shown first is the costliest; its per-access histogram is stacked by level, one data
  // point per bin in each level's series; its across-trial histograms hold one point per bin.
  const json& costliest = report["loads"][0];
  ASSERT_TRUE(costliest.contains("latency_histogram"));
  const std::string prefix = "load-" + std::to_string(costliest["id"].get<int>()) + "-";
  const json& access = costliest["latency_histogram"];
  EXPECT_EQ(chart_points(status, prefix + "access-latency"),
            std::vector<std::size_t>(access["by_level"].size(), access["counts"].size()));
  for (const char* metric : {"latency_cycles", "l1_hit_ratio", "l2_hit_ratio"}) {
    EXPECT_EQ(chart_points(status, prefix + metric),
              std::vector<std::size_t>{costliest[metric]["histogram"]["counts"].size()})
        << metric;
  }
  // Convergence: ratios and cycles, one point per trial in each metric's series.
  const auto ratios = chart_points(status, "convergence-ratios");
  const auto cycles = chart_points(status, "convergence-cycles");
  EXPECT_EQ(ratios.size() + cycles.size(), report["convergence"]["stddev"].size());
  for (const std::size_t points : ratios) {
    EXPECT_EQ(points, report["inputs"]["trials"].get<std::size_t>());
  }
  expect_not_blank(page, "browser-fixture");

  // The store (no latency, a null per-access histogram) named in the address: its hit ratio
  // histograms, no latency plot, no error.
  const json& store = report["loads"][4];
  ASSERT_EQ(store["kind"], "store");
  ASSERT_TRUE(store["latency_histogram"].is_null());
  const std::string id = std::to_string(store["id"].get<int>());
  const json store_status = open_page(page, "#load=" + id);
  EXPECT_EQ(chart_points(store_status, "load-" + id + "-l1_hit_ratio"),
            std::vector<std::size_t>{store["l1_hit_ratio"]["histogram"]["counts"].size()});
  for (const json& chart : store_status["charts"]) {
    EXPECT_NE(chart["name"], "load-" + id + "-latency_cycles");
    EXPECT_NE(chart["name"], "load-" + id + "-access-latency");
  }
}

TEST(HtmlInChromium, InputsSayWhenTheProgramWasStoppedAfterItsTracedLaunches) {
  // profile's report: the program stopped after its traced launches, one of which ran partly.
  json report = read_json_file(kHtmlData + "html_simulation_report.json");
  report["inputs"]["emulation"] = {
      {"stopped_after_trace", true},
      {"program_checks_ran", false},
      {"partial_launches",
       {{{"index", 1}, {"kernel", "step"}, {"blocks_run", 4}, {"blocks", 64}}}}};
  const fs::path input = scratch_dir() / "browser-stopped.json";
  std::ofstream(input) << report.dump();
  std::string dom;
  open_page(make_page(input.string(), "browser-stopped.html"), "", &dom);
  EXPECT_NE(dom.find("stopped after the traced launches; launch 1 (step) ran 4 of 64 blocks; the "
                     "program's own checks did not run"),
            std::string::npos);
}

TEST(HtmlInChromium, SimulatedTraceWithoutPerAccessHistograms) {
  const fs::path report = scratch_dir() / "browser-gather.json";
  const auto r =
      memcarlo("simulate " + write_trace("browser-gather.mct") + " -n 6 -q -o " + report.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json written = read_json_file(report);
  const json status = open_page(make_page(report.string(), "browser-gather.html"));
  EXPECT_EQ(status["load_rows"], written["loads"].size());
  EXPECT_EQ(written["loads"].size(), 3u);
  EXPECT_GE(status["charts"].size(), 3u);
  for (const json& chart : status["charts"]) {
    for (const json& points : chart["points"]) {
      EXPECT_GT(points.get<std::size_t>(), 0u) << chart.dump();
    }
  }
}

// A prefetcher on: the loads table gains its prefetch columns and the Prefetching section plots
// each prefetch ratio and the extra reads for every load that issued prefetches (the loads, not
// the store); without a prefetcher neither appears.
TEST(HtmlInChromium, PrefetchingSectionWhenAPrefetcherIsOn) {
  const fs::path trace = scratch_dir() / "browser-chain.mct";
  const auto made = memcarlo("synth --pattern chain --blocks 16 -o " + trace.string());
  ASSERT_EQ(made.exit_code, 0) << made.output;
  const fs::path report = scratch_dir() / "browser-chain-mta.json";
  const auto r = memcarlo("simulate " + trace.string() + " --set prefetch.policy=mta -n 4 -q -o " +
                          report.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json written = read_json_file(report);
  std::size_t prefetching_loads = 0;
  for (const json& load : written["loads"]) {
    prefetching_loads +=
        load.contains("prefetch_coverage") && load["prefetch_coverage"].is_object() ? 1 : 0;
  }
  ASSERT_GT(prefetching_loads, 0u);
  ASSERT_LT(prefetching_loads, written["loads"].size());  // the store has no prefetch metric (null)
  const fs::path page = make_page(report.string(), "browser-chain-mta.html");
  const BrowserRun run = chromium(page, "--dump-dom", "");
  EXPECT_NE(run.dom.find("<h2>Prefetching</h2>"), std::string::npos);
  EXPECT_NE(run.dom.find("Prefetcher: mta."), std::string::npos);
  EXPECT_NE(run.dom.find(">prefetch coverage</th>"), std::string::npos);
  const json status = open_page(page);
  // coverage, timely coverage (the Snake paper's accuracy), accuracy (useful / issued), timely
  // accuracy, late, early-eviction and useless ratios
  EXPECT_EQ(chart_points(status, "prefetch-ratios"),
            std::vector<std::size_t>(7, prefetching_loads));
  EXPECT_EQ(chart_points(status, "prefetch-traffic"),
            std::vector<std::size_t>(2, prefetching_loads));

  const fs::path plain = scratch_dir() / "browser-chain-none.json";
  ASSERT_EQ(memcarlo("simulate " + trace.string() + " -n 2 -q -o " + plain.string()).exit_code, 0);
  const BrowserRun without =
      chromium(make_page(plain.string(), "browser-chain-none.html"), "--dump-dom", "");
  EXPECT_EQ(without.dom.find("<h2>Prefetching</h2>"), std::string::npos);
  EXPECT_EQ(without.dom.find(">prefetch coverage</th>"), std::string::npos);
  EXPECT_NE(without.dom.find("<tr data-load="), std::string::npos);
}

/// No two text boxes of a chart or panel overlap (by more than half a pixel), each lies inside its
/// canvas, and none is rotated.
void expect_text_apart(const json& texts, double width, double height, const std::string& where) {
  ASSERT_TRUE(texts.is_array()) << where;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const json& a = texts[i];
    EXPECT_EQ(a.value("rotation", 0.0), 0.0) << where << ": " << a.dump();
    EXPECT_GE(a["left"].get<double>(), -0.5) << where << ": " << a.dump();
    EXPECT_LE(a["right"].get<double>(), width + 0.5) << where << ": " << a.dump();
    EXPECT_GE(a["top"].get<double>(), -0.5) << where << ": " << a.dump();
    EXPECT_LE(a["bottom"].get<double>(), height + 0.5) << where << ": " << a.dump();
    for (std::size_t j = i + 1; j < texts.size(); ++j) {
      const json& b = texts[j];
      const bool apart = a["right"].get<double>() <= b["left"].get<double>() + 0.5 ||
                         b["right"].get<double>() <= a["left"].get<double>() + 0.5 ||
                         a["bottom"].get<double>() <= b["top"].get<double>() + 0.5 ||
                         b["bottom"].get<double>() <= a["top"].get<double>() + 0.5;
      EXPECT_TRUE(apart) << where << ": " << a.dump() << " overlaps " << b.dump();
    }
  }
}

const json& chart_named(const json& status, const std::string& name) {
  static const json kNone = json::object();
  for (const json& chart : status["charts"]) {
    if (chart["name"] == name) {
      return chart;
    }
  }
  ADD_FAILURE() << "no chart " << name;
  return kNone;
}

/// A ratio that stays in [0, 1] (the page's isBoundedRatio, which the page's metric table drives).
bool bounded_ratio(const std::string& metric) {
  namespace analysis = memcarlo::analysis;
  const analysis::Metric* line = analysis::find_metric(metric, analysis::MetricScope::kAggregate);
  return line != nullptr && analysis::stays_in_unit_interval(*line);
}

/// The overall metrics some point of `report` defines.
std::set<std::string> defined_overall(const json& report) {
  std::set<std::string> metrics;
  for (const json& point : report["points"]) {
    for (const auto& [metric, distribution] : point["overall"].items()) {
      if (!distribution.is_null()) {
        metrics.insert(metric);
      }
    }
  }
  return metrics;
}

/// Every chart of a sweep page: bars, horizontal labels, text apart, ratios on [0, 1].
void expect_sweep_charts_readable(const json& status) {
  for (const json& chart : status["charts"]) {
    const std::string name = chart["name"];
    EXPECT_EQ(chart["type"], "bar") << name;
    EXPECT_EQ(chart["scales"]["x"]["rotation"], 0.0) << name;
    expect_text_apart(chart["texts"], chart["width"], chart["height"], name);
    const std::string metric = name.substr(std::string("sweep-overall-").size());
    if (metric.find("-difference") == std::string::npos && bounded_ratio(metric)) {
      EXPECT_EQ(chart["scales"]["y"]["min"], 0.0) << name;
      EXPECT_EQ(chart["scales"]["y"]["max"], 1.0) << name;
    }
  }
}

// Two varied keys, 3 x 3: per metric, bars grouped by the first key's values and coloured by the
// second's (a legend), for its mean and for its paired difference from the baseline, each bar
// with its interval; every metric paired; no text box over another, no rotated label; ratios on
// [0, 1].
TEST(HtmlInChromium, TwoKeySweepIsGroupedBarsWithReadableText) {
  const fs::path report = scratch_dir() / "browser-sweep.json";
  const auto r = memcarlo("sweep " + write_trace("browser-sweep.mct") +
                          " -n 6 -q --vary l1.size=16KiB,32KiB,48KiB --vary "
                          "l1.replacement=lru,fifo,random -o " +
                          report.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json written = read_json_file(report);
  const fs::path page = make_page(report.string(), "browser-sweep.html");
  std::string dom;
  const json status = open_page(page, "", &dom);
  EXPECT_EQ(status["kind"], "sweep");
  EXPECT_EQ(status["point_rows"], 9u);
  EXPECT_EQ(status["layout"]["grid"], true);
  const std::set<std::string> metrics = defined_overall(written);
  ASSERT_GT(metrics.size(), 5u);
  for (const std::string& metric : metrics) {
    for (const std::string suffix : {"", "-difference"}) {
      const json& chart = chart_named(status, "sweep-overall-" + metric + suffix);
      EXPECT_EQ(chart["points"], json::parse("[3, 3, 3]")) << metric << suffix;
      EXPECT_EQ(
          chart["datasets"],
          json::parse(R"(["l1.replacement=lru", "l1.replacement=fifo", "l1.replacement=random"])"))
          << metric << suffix;
      EXPECT_EQ(chart["labels"], json::parse(R"(["16KiB", "32KiB", "48KiB"])")) << metric << suffix;
    }
  }
  EXPECT_EQ(status["charts"].size(), 2 * metrics.size());
  expect_sweep_charts_readable(status);
  EXPECT_EQ(dom.find("no paired difference"), std::string::npos);
  // The points table shows what the l1.* keys act on, as the terminal table does, and X.
  EXPECT_NE(dom.find("<th>Δ L1 read hit ratio</th><th>L2 read hit ratio</th>"), std::string::npos);
  EXPECT_NE(dom.find("<th>Δ latency cycles</th>"), std::string::npos);
  EXPECT_EQ(dom.find("<th>DRAM latency cycles</th>"), std::string::npos);
  expect_not_blank(page, "browser-sweep");
}

// One varied key: a bar per point; three: small multiples, one panel per value of the third key.
TEST(HtmlInChromium, OneKeyIsABarPerPointAndThreeKeysAreSmallMultiples) {
  const fs::path one = scratch_dir() / "browser-sweep-one.json";
  ASSERT_EQ(memcarlo("sweep " + write_trace("browser-sweep.mct") +
                     " -n 3 -q --vary l1.size=16KiB,32KiB,48KiB,64KiB -o " + one.string())
                .exit_code,
            0);
  const json one_status = open_page(make_page(one.string(), "browser-sweep-one.html"));
  EXPECT_EQ(chart_named(one_status, "sweep-overall-l1_read_hit_ratio")["points"],
            json::parse("[4]"));
  expect_sweep_charts_readable(one_status);

  const fs::path three = scratch_dir() / "browser-sweep-three.json";
  ASSERT_EQ(memcarlo("sweep " + write_trace("browser-sweep.mct") +
                     " -n 2 -q --vary l1.size=16KiB,48KiB --vary l1.replacement=lru,fifo,random "
                     "--vary l2.replacement=lru,fifo -o " +
                     three.string())
                .exit_code,
            0);
  const json written = read_json_file(three);
  const json status = open_page(make_page(three.string(), "browser-sweep-three.html"));
  for (const std::string& metric : defined_overall(written)) {
    for (const std::string suffix : {"", "-difference"}) {
      for (const char* panel : {"-0", "-1"}) {
        EXPECT_EQ(chart_named(status, "sweep-overall-" + metric + suffix + panel)["points"],
                  json::parse("[2, 2, 2]"))
            << metric << suffix << panel;
      }
    }
  }
  expect_sweep_charts_readable(status);
}

// The locality page: per panel, block axes from block 0 to the last block, the colour scale from
// 0 to the largest cell, axis and scale titles, no text over another; both graphs of the static
// run (elements and lines).
TEST(HtmlInChromium, LocalityHeatmapsHaveBlockAxesAndAColourScale) {
  const fs::path page = scratch_dir() / "browser-locality.html";
  const auto r = memcarlo("locality " MEMCARLO_SOURCE_DIR
                          "/tests/locality/loads/gemm.json --grid 2,8 --block 32,8 --html " +
                          page.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json status = open_page(page);
  ASSERT_EQ(status["panels"].size(), 2u) << status.dump();
  EXPECT_EQ(status["panels"][0]["title"], "static, elements");
  EXPECT_EQ(status["panels"][1]["title"], "static, lines");
  for (const json& panel : status["panels"]) {
    const std::string title = panel["title"];
    EXPECT_EQ(panel["blocks"], 16);
    EXPECT_EQ(panel["x_ticks"].front(), 0) << title;
    EXPECT_EQ(panel["x_ticks"].back(), 15) << title;
    EXPECT_EQ(panel["y_ticks"], panel["x_ticks"]) << title;
    EXPECT_EQ(panel["scale_ticks"].front(), 0) << title;
    EXPECT_EQ(panel["scale_ticks"].back(), panel["max"]) << title;
    EXPECT_GT(panel["max"].get<double>(), 0) << title;
    std::set<std::string> kinds;
    for (const json& text : panel["texts"]) {
      kinds.insert(text["kind"].get<std::string>());
    }
    EXPECT_EQ(kinds, (std::set<std::string>{"x-tick", "y-tick", "x-title", "y-title", "scale-tick",
                                            "scale-title"}))
        << title;
    expect_text_apart(panel["texts"], panel["width"], panel["height"], title);
  }
}

}  // namespace

// The study page (memcarlo study): one figure per metric with the programs along the x axis, a bar
// per point (a dataset each) and the average group last, each bar with its interval; the table
// of every program and the average x point; ratios on [0, 1]; no text over other text.
TEST(HtmlInChromium, StudyFigureHasProgramsThenTheAverageAndABarPerPoint) {
  const auto entry = [](double mean) {
    return json{{"mean", mean},
                {"ci95", {mean * 0.95, mean * 1.05}},
                {"difference", {{"mean", 0.0}, {"ci95", {0.0, 0.0}}, {"pairs", 4}}},
                {"ratio", {{"mean", 1.0}, {"ci95", {1.0, 1.0}}}}};
  };
  json programs = json::array();
  json average = json::object();
  const std::vector<std::string> points = {"none", "snake", "next-line"};
  for (const std::string name : {"gemm", "hotspot-with-a-long-name"}) {
    json results = json::object();
    for (std::size_t p = 0; p < points.size(); ++p) {
      results[points[p]] = {{"l1_read_hit_ratio", entry(0.2 + 0.1 * static_cast<double>(p))},
                            {"latency_cycles", entry(300 - 20 * static_cast<double>(p))}};
    }
    programs.push_back(
        {{"name", name}, {"path", "suite/" + name}, {"status", "ok"}, {"results", results}});
  }
  programs.push_back({{"name", "broken"},
                      {"path", "suite/broken"},
                      {"status", "failed"},
                      {"stage", "build"},
                      {"reason", "does not compile"}});
  for (const std::string& point : points) {
    average[point] = {{"l1_read_hit_ratio", entry(0.3)}, {"latency_cycles", entry(280)}};
    average[point]["l1_read_hit_ratio"]["method"] = "arithmetic mean over programs";
  }
  const json report = {
      {"schema", "memcarlo-study"},
      {"version", 1},
      {"study",
       {{"name", "browser"},
        {"file", "browser.json"},
        {"suite_root", "/suites"},
        {"trials", 4},
        {"seed", 1},
        {"baseline", "none"}}},
      {"metrics",
       {{{"name", "l1_read_hit_ratio"},
         {"label", "L1 read hit ratio"},
         {"unit", "ratio"},
         {"average", "arithmetic"},
         {"change", "difference"}},
        {{"name", "latency_cycles"},
         {"label", "latency"},
         {"unit", "cycles"},
         {"average", "geometric"},
         {"change", "ratio"}}}},
      {"points",
       {{{"name", "none"}, {"baseline", true}},
        {{"name", "snake"}, {"baseline", false}},
        {{"name", "next-line"}, {"baseline", false}}}},
      {"programs", programs},
      {"average", average},
      {"failures", {{{"program", "broken"}, {"stage", "build"}, {"reason", "does not compile"}}}},
      {"performance",
       {{"build_seconds", 12.0},
        {"trace_seconds", 3.0},
        {"simulate_seconds", 8.0},
        {"wall_seconds", 24.0}}}};
  const fs::path file = scratch_dir() / "browser-study.json";
  std::ofstream(file) << report.dump();
  std::string dom;
  const json status = open_page(make_page(file.string(), "browser-study.html"), "", &dom);
  EXPECT_EQ(status["kind"], "study");
  EXPECT_EQ(status["point_rows"], 9);  // (2 programs + the average) x 3 points
  for (const std::string metric : {"l1_read_hit_ratio", "latency_cycles"}) {
    const json& chart = chart_named(status, "study-" + metric);
    EXPECT_EQ(chart["points"], json::parse("[3, 3, 3]")) << metric;
    EXPECT_EQ(chart["datasets"].size(), 3u);
    EXPECT_EQ(chart["labels"].back().get<std::string>().rfind("average", 0), 0u) << chart.dump();
    EXPECT_EQ(chart["scales"]["x"]["rotation"], 0.0);
    expect_text_apart(chart["texts"], chart["width"], chart["height"], metric);
  }
  EXPECT_EQ(chart_named(status, "study-l1_read_hit_ratio")["scales"]["y"]["max"], 1.0);
  EXPECT_NE(dom.find("does not compile"), std::string::npos);
}
