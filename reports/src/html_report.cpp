// The self-contained HTML page of a simulate or sweep report (see html_report.hpp): the checks
// of the fields the page's script reads, and the assembly of the page from the embedded resources.
#include "memcarlo/reports/html_report.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string_view>

#include "checked_json.hpp"
#include "memcarlo/analysis/metrics.hpp"
#include "memcarlo/reports/report.hpp"
#include "memcarlo/reports/study_report.hpp"
#include "memcarlo/reports/sweep_report.hpp"
#include "resources.hpp"

namespace memcarlo::reports {
namespace {

using nlohmann::json;
using Checked = CheckedJson<HtmlReportError>;

inline constexpr std::int64_t kSimulationSchemaVersion = kSchemaVersion;  // report.hpp
inline constexpr std::string_view kSweepSchema = "memcarlo-sweep";
inline constexpr std::string_view kStudySchema = "memcarlo-study";

std::string at(const std::string& place, std::size_t index) {
  return place + "[" + std::to_string(index) + "]";
}

const json& object_member(const Checked& in, const json& object, const std::string& place,
                          std::string_view key) {
  const json& value = in.member(object, place, key);
  if (!value.is_object()) {
    in.fail(Checked::join(place, key), "expected an object, found " + value.dump());
  }
  return value;
}

const json& array_member(const Checked& in, const json& object, const std::string& place,
                         std::string_view key) {
  const json& value = in.member(object, place, key);
  if (!value.is_array()) {
    in.fail(Checked::join(place, key), "expected an array, found " + value.dump());
  }
  return value;
}

/// A schema version: any integer (an unknown one is named as such, not as a bad number).
std::int64_t version_number(const Checked& in, const json& value, const std::string& place) {
  if (!value.is_number_integer()) {
    in.fail(place, "expected an integer version, found " + value.dump());
  }
  return value.get<std::int64_t>();
}

void check_numbers(const Checked& in, const json& value, const std::string& place) {
  if (!value.is_array()) {
    in.fail(place, "expected an array of numbers");
  }
  for (std::size_t i = 0; i < value.size(); ++i) {
    in.number(value[i], at(place, i));
  }
}

/// The per-access latency histogram of a load, when the report has one: edges one longer than the
/// counts, and each level's counts (when given) as long as the counts.
void check_latency_histogram(const Checked& in, const json& histogram, const std::string& place) {
  if (!histogram.is_object()) {
    in.fail(place, "expected an object, found " + histogram.dump());
  }
  const json& edges = in.member(histogram, place, "edges");
  const json& counts = in.member(histogram, place, "counts");
  check_numbers(in, edges, Checked::join(place, "edges"));
  check_numbers(in, counts, Checked::join(place, "counts"));
  if (edges.size() != counts.size() + 1) {
    in.fail(Checked::join(place, "edges"), "expected one edge more than counts (" +
                                               std::to_string(counts.size() + 1) + "), found " +
                                               std::to_string(edges.size()));
  }
  if (const auto by_level = histogram.find("by_level"); by_level != histogram.end()) {
    const std::string level_place = Checked::join(place, "by_level");
    if (!by_level->is_object()) {
      in.fail(level_place, "expected an object of per-level counts");
    }
    for (const auto& [level, level_counts] : by_level->items()) {
      check_numbers(in, level_counts, Checked::join(level_place, level));
      if (level_counts.size() != counts.size()) {
        in.fail(Checked::join(level_place, level),
                "expected " + std::to_string(counts.size()) + " counts, as many as bins");
      }
    }
  }
}

/// The fields of a load that the table shows.
void check_load(const Checked& in, const json& load, const std::string& place) {
  if (!load.is_object()) {
    in.fail(place, "expected an object (one load), found " + load.dump());
  }
  for (const char* key : {"id", "line", "column", "requests"}) {
    in.count(in.member(load, place, key), Checked::join(place, key));
  }
  for (const char* key : {"file", "expression", "kind"}) {
    in.text(in.member(load, place, key), Checked::join(place, key));
  }
  in.number(in.member(load, place, "transactions_per_request"),
            Checked::join(place, "transactions_per_request"));
  // null: a load without one (a store); the page says so.
  if (const auto histogram = load.find("latency_histogram");
      histogram != load.end() && !histogram->is_null()) {
    check_latency_histogram(in, *histogram, Checked::join(place, "latency_histogram"));
  }
}

void check_simulation(const Checked& in, const json& report) {
  const json& version = in.member(report, "", "schema_version");
  if (version_number(in, version, "schema_version") != kSimulationSchemaVersion) {
    in.fail("schema_version", "unknown version " + version.dump() + ": this memcarlo reads " +
                                  std::to_string(kSimulationSchemaVersion));
  }
  const json& inputs = object_member(in, report, "", "inputs");
  in.text(in.member(inputs, "inputs", "trace"), "inputs.trace");
  in.text(in.member(object_member(in, inputs, "inputs", "hierarchy"), "inputs.hierarchy", "name"),
          "inputs.hierarchy.name");
  in.count(in.member(inputs, "inputs", "seed"), "inputs.seed");
  in.count(in.member(inputs, "inputs", "trials"), "inputs.trials");
  object_member(in, report, "", "overall");
  const json& loads = array_member(in, report, "", "loads");
  for (std::size_t i = 0; i < loads.size(); ++i) {
    check_load(in, loads[i], at("loads", i));
  }
  object_member(in, object_member(in, report, "", "convergence"), "convergence", "stddev");
  for (const char* optional : {"allocations", "kernels"}) {
    if (report.contains(optional)) {
      array_member(in, report, "", optional);
    }
  }
}

void check_sweep(const Checked& in, const json& report) {
  const json& version = in.member(report, "", "version");
  if (version_number(in, version, "version") != kSweepSchemaVersion) {
    in.fail("version", "unknown sweep report version " + version.dump() + ": this memcarlo reads " +
                           std::to_string(kSweepSchemaVersion));
  }
  const json& inputs = object_member(in, report, "", "inputs");
  in.text(in.member(inputs, "inputs", "trace"), "inputs.trace");
  const json& keys = array_member(in, inputs, "inputs", "varied_keys");
  for (std::size_t i = 0; i < keys.size(); ++i) {
    in.text(keys[i], at("inputs.varied_keys", i));
  }
  const json& points = array_member(in, report, "", "points");
  if (points.empty()) {
    in.fail("points", "expected at least one point (the baseline)");
  }
  for (std::size_t p = 0; p < points.size(); ++p) {
    const std::string place = at("points", p);
    if (!points[p].is_object()) {
      in.fail(place, "expected an object (one point), found " + points[p].dump());
    }
    object_member(in, points[p], place, "parameters");
    object_member(in, points[p], place, "overall");
    const json& loads = array_member(in, points[p], place, "loads");
    for (std::size_t i = 0; i < loads.size(); ++i) {
      check_load(in, loads[i], at(Checked::join(place, "loads"), i));
    }
    object_member(in, object_member(in, points[p], place, "difference"),
                  Checked::join(place, "difference"), "overall");
  }
}

void check_study(const Checked& in, const json& report) {
  const json& version = in.member(report, "", "version");
  if (version_number(in, version, "version") != kStudySchemaVersion) {
    in.fail("version", "unknown study report version " + version.dump() + ": this memcarlo reads " +
                           std::to_string(kStudySchemaVersion));
  }
  object_member(in, report, "", "study");
  const json& metrics = array_member(in, report, "", "metrics");
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    in.text(in.member(metrics[m], at("metrics", m), "name"), at("metrics", m) + ".name");
  }
  const json& points = array_member(in, report, "", "points");
  if (points.empty()) {
    in.fail("points", "expected at least one point (the baseline)");
  }
  for (std::size_t p = 0; p < points.size(); ++p) {
    in.text(in.member(points[p], at("points", p), "name"), at("points", p) + ".name");
  }
  const json& programs = array_member(in, report, "", "programs");
  for (std::size_t p = 0; p < programs.size(); ++p) {
    const std::string place = at("programs", p);
    in.text(in.member(programs[p], place, "name"), place + ".name");
    in.text(in.member(programs[p], place, "status"), place + ".status");
  }
  object_member(in, report, "", "average");
}

/// Text that may stand inside a <script> element: no "</script" or "<!--" can end or disturb it.
/// In JavaScript, "<\/" and "<\!" mean the same as "</" and "<!" inside strings and regular
/// expressions, the only places such text occurs.
std::string script_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] != '<' || i + 1 >= text.size()) {
      continue;
    }
    std::string next(text.substr(i + 1, 7));
    std::transform(next.begin(), next.end(), next.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (next.rfind("/script", 0) == 0 || next.rfind("!--", 0) == 0) {
      out += '\\';
    }
  }
  return out;
}

/// The report as JSON for a <script type="application/json"> element: "<", ">" and "&" occur in
/// JSON only inside strings, where \u003c, \u003e and \u0026 mean the same to JSON.parse, so
/// nothing in the data can close the element. Invalid UTF-8 in a string becomes U+FFFD.
std::string embedded_json(const json& report) {
  const std::string text = report.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  for (const char c : text) {
    switch (c) {
      case '<':
        out += "\\u003c";
        break;
      case '>':
        out += "\\u003e";
        break;
      case '&':
        out += "\\u0026";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string html_text(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace

HtmlReportKind check_html_report(const json& report, const std::string& source) {
  const Checked in(source);
  if (!report.is_object()) {
    in.fail("",
            "expected a JSON object: a memcarlo simulate report (\"schema_version\": 1) or "
            "sweep report (\"schema\": \"memcarlo-sweep\")");
  }
  if (const auto schema = report.find("schema"); schema != report.end()) {
    if (*schema == kStudySchema) {
      check_study(in, report);
      return HtmlReportKind::kStudy;
    }
    if (*schema != kSweepSchema) {
      in.fail("schema",
              "unknown schema " + schema->dump() +
                  ": expected \"memcarlo-sweep\" (a sweep report), \"memcarlo-study\" (a study "
                  "report) or a simulate report "
                  "(\"schema_version\": 1)");
    }
    check_sweep(in, report);
    return HtmlReportKind::kSweep;
  }
  if (!report.contains("schema_version")) {
    in.fail("",
            "not a memcarlo report: expected \"schema_version\" (a simulate report) or "
            "\"schema\": \"memcarlo-sweep\" (a sweep report)");
  }
  check_simulation(in, report);
  return HtmlReportKind::kSimulation;
}

json page_metric_table() {
  json metrics = json::array();
  for (const analysis::Metric& metric : analysis::metric_table()) {
    const char* scope = metric.scope == analysis::MetricScope::kLoad        ? "load"
                        : metric.scope == analysis::MetricScope::kAggregate ? "aggregate"
                                                                            : "both";
    metrics.push_back({{"name", metric.name},
                       {"scope", scope},
                       {"unit", analysis::unit_name(metric.unit)},
                       {"bounded", analysis::stays_in_unit_interval(metric)},
                       {"headline", metric.headline},
                       {"label", metric.label},
                       {"group", metric.group != nullptr ? json(metric.group->name) : json()},
                       {"prefetch_column", in_prefetch_columns(metric)},
                       {"description", metric.description}});
  }
  json acts_on = json::array();
  for (const SweepActsOn& family : sweep_acts_on()) {
    json names = json::array();
    for (const std::string_view name : family.metrics) {
      if (!name.empty()) {
        names.push_back(name);
      }
    }
    acts_on.push_back({{"prefix", family.prefix}, {"metrics", std::move(names)}});
  }
  json other = json::array();
  for (const std::string_view name : sweep_other_key_metrics()) {
    other.push_back(name);
  }
  return {{"metrics", std::move(metrics)},
          {"sweep_acts_on", std::move(acts_on)},
          {"sweep_other_keys", std::move(other)}};
}

std::string html_report(const json& report, const std::string& source) {
  const HtmlReportKind kind = check_html_report(report, source);
  const std::string title = std::string(kind == HtmlReportKind::kSweep   ? "memcarlo sweep: "
                                        : kind == HtmlReportKind::kStudy ? "memcarlo study: "
                                                                         : "memcarlo report: ") +
                            source;
  std::string page;
  page.reserve(resources::chart_js().size() + report.size() * 64 + 65536);
  page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  page += "<meta name=\"generator\" content=\"memcarlo " MEMCARLO_VERSION "\">\n";
  page += "<title>" + html_text(title) + "</title>\n";
  page += "<style>\n" + std::string(resources::html_report_css()) + "</style>\n";
  page += "</head>\n<body>\n";
  page +=
      "<div id=\"app\"><noscript>This report draws its tables and plots with JavaScript; "
      "the data is in the element report-data of this file.</noscript></div>\n";
  page += "<pre id=\"render-status\" hidden></pre>\n";
  page += "<script type=\"application/json\" id=\"report-data\">" + embedded_json(report) +
          "</script>\n";
  // The metric table, generated from memcarlo's (analysis/metrics.hpp): the script's only source
  // for the metrics' order, units and families.
  page += "<script type=\"application/json\" id=\"metric-table\">" +
          embedded_json(page_metric_table()) + "</script>\n";
  // The page's script first (its error capture sees everything after it), one element per part.
  for (const std::string_view part :
       {resources::html_report_core_js(), resources::html_report_simulation_js(),
        resources::html_report_sweep_js(), resources::html_report_study_js()}) {
    page += "<script>\n" + script_text(part) + "</script>\n";
  }
  // Chart.js last before the call that draws the page: its banner (version, license) stays intact.
  page += "<script>\n" + script_text(resources::chart_js()) + "\n</script>\n";
  page += "<script>memcarloReport.render();</script>\n";
  page += "</body>\n</html>\n";
  return page;
}

std::string html_report_from_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw HtmlReportError(path + ": cannot read the file");
  }
  std::ostringstream text;
  text << in.rdbuf();
  json report;
  try {
    report = json::parse(text.str());
  } catch (const json::exception& e) {  // parse_error; out_of_range: a number beyond a double
    throw HtmlReportError(path + ": not JSON (" + e.what() +
                          "); expected a memcarlo simulate or sweep report");
  }
  return html_report(report, path);
}

}  // namespace memcarlo::reports
