// The HTML page of a report (`memcarlo report --html`, `simulate|sweep|profile --html`): one
// self-contained file with the report's JSON embedded and Chart.js, the page's script and its style
// inlined, so that it opens offline. The page itself (tables, plots) is drawn by that script, which
// takes what it knows of the metrics from the metric table written into the page.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace memcarlo::reports {

/// A file that is not a report the page can show: the message names the file, the place and what
/// was expected (the command turns it into exit code 2).
class HtmlReportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class HtmlReportKind { kSimulation, kSweep, kStudy };

/// Which report `report` is, after checking the fields the page reads: a simulate report
/// ("schema_version": 1, with inputs, overall, loads and convergence; each load with its place,
/// expression, kind and counts) or a sweep report ("schema": "memcarlo-sweep", "version": 1, with
/// inputs.varied_keys and points, each with parameters, overall and difference) or a study report
/// ("schema": "memcarlo-study", "version": 1, with metrics, points, programs and average). Optional
/// parts (allocations, kernels, performance, a load's latency_histogram) may be missing. Throws
/// HtmlReportError("SOURCE: PLACE: ...") otherwise.
HtmlReportKind check_html_report(const nlohmann::json& report, const std::string& source);

/// What the page's script knows of memcarlo's metrics, written into every page (the element
/// metric-table): each line of the metric table (analysis/metrics.hpp) in order, with its name,
/// scope ("load", "aggregate", "both"), unit, whether it stays in [0, 1] ("bounded"), headline,
/// label, counter group (or null), whether the loads tables show it among their prefetch columns
/// (in_prefetch_columns) and description, and the sweep key families (sweep_acts_on,
/// sweep_other_key_metrics). The script keeps no list of metrics of its own.
nlohmann::json page_metric_table();

/// The page for `report` (checked as check_html_report does; `source` names it in errors and in
/// the page's title).
std::string html_report(const nlohmann::json& report, const std::string& source);

/// Reads and parses the JSON file `path`, then html_report(); HtmlReportError when the file cannot
/// be read or is not JSON.
std::string html_report_from_file(const std::string& path);

}  // namespace memcarlo::reports
