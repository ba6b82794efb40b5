// Printers of a report comparison: the terminal text and the versioned JSON document.
#include <array>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <variant>

#include "memcarlo/analysis/confidence.hpp"
#include "memcarlo/analysis/metrics.hpp"
#include "memcarlo/reports/report_diff.hpp"
#include "text_columns.hpp"

namespace memcarlo::reports {
namespace {

using nlohmann::ordered_json;

/// Whether the text shows a load metric (the JSON has every one): the headline load metrics of
/// the metric table, and "cycles" (requests x latency_cycles).
bool shown_for_loads(std::string_view metric) {
  if (metric == "cycles") {
    return true;
  }
  const analysis::Metric* line = analysis::find_metric(metric, analysis::MetricScope::kLoad);
  return line != nullptr && line->headline;
}

std::string printf_string(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

/// The metric table's unit; a name the table lacks (a newer producer's) by its suffix.
bool is_ratio(std::string_view metric) {
  for (const auto scope : {analysis::MetricScope::kLoad, analysis::MetricScope::kAggregate}) {
    if (const analysis::Metric* line = analysis::find_metric(metric, scope)) {
      return line->unit == analysis::MetricUnit::kRatio;
    }
  }
  return metric.ends_with("_ratio");
}

std::string value_text(std::string_view metric, double value, bool sign = false) {
  if (is_ratio(metric)) {
    return printf_string(sign ? "%+.3f" : "%.3f", value);
  }
  if (metric == "cycles") {  // requests x X: whole cycles are precise enough
    return printf_string(sign ? "%+.0f" : "%.0f", value);
  }
  return printf_string(sign ? "%+.1f" : "%.1f", value);
}

/// "0.753 ±0.004": the mean and the half-width of its Student-t 95% interval, as reports show it.
std::string moments_text(std::string_view metric, const std::optional<analysis::SampleMoments>& m) {
  if (!m) {
    return "-";
  }
  std::string out = value_text(metric, m->mean);
  if (m->count >= 2) {
    const double half = analysis::student_t_quantile(0.95, m->count - 1) * m->stddev /
                        std::sqrt(static_cast<double>(m->count));
    out += " ±" + value_text(metric, half);
  }
  return out;
}

using DiffCells = std::array<std::string, 6>;  // label, A, B, change [interval], relative, p

DiffCells metric_cells(const MetricDiff& d) {
  DiffCells cells{
      "  " + d.metric, moments_text(d.metric, d.a), moments_text(d.metric, d.b), "-", "", ""};
  if (d.change) {
    const analysis::MeanDifference& c = *d.change;
    cells[3] = value_text(d.metric, c.difference, true);
    if (c.interval) {
      cells[3] += " [" + value_text(d.metric, (*c.interval)[0], true) + ", " +
                  value_text(d.metric, (*c.interval)[1], true) + "]";
    }
    if (d.relative_change) {
      cells[4] = printf_string("%+.1f%%", 100 * *d.relative_change);
    }
    if (c.p_value) {
      cells[5] = *c.p_value < 0.001 ? "<0.001" : printf_string("%.3f", *c.p_value);
      cells[5] += c.significant ? " *" : "";
    }
  }
  return cells;
}

DiffCells count_cells(const std::string& label, double a, double b, const char* pattern) {
  DiffCells cells{"  " + label, printf_string(pattern, a), printf_string(pattern, b), "", "", ""};
  if (a != b) {
    cells[3] = printf_string(pattern[1] == '.' ? "%+.2f" : "%+.0f", b - a);
    if (a != 0) {
      cells[4] = printf_string("%+.1f%%", 100 * (b - a) / a);
    }
  }
  return cells;
}

std::string location(const LoadIdentity& l) {
  const auto slash = l.file.find_last_of('/');
  return (slash == std::string::npos ? l.file : l.file.substr(slash + 1)) + ":" +
         std::to_string(l.line) + ":" + std::to_string(l.column);
}

std::string kernels_text(const std::vector<std::string>& kernels) {
  std::string out;
  for (const std::string& k : kernels) {
    out += (out.empty() ? "" : ", ") + k;
  }
  return "[" + out + "]";
}

std::string identity_text(const LoadIdentity& l) {
  return location(l) + "  " + l.expression + "  " + l.kind + "  " + kernels_text(l.kernels);
}

std::string side_text(const DiffSide& s) {
  return s.path + ": trace " + s.trace + " (sha256 " + s.trace_sha256.substr(0, 12) +
         "), hierarchy " + s.hierarchy + ", seed " + std::to_string(s.seed) + ", " +
         std::to_string(s.trials) + " trials";
}

/// Headings and metric rows, laid out together so that every section shares the columns.
using Line = std::variant<std::string, DiffCells>;

void print_lines(std::ostream& out, const std::vector<Line>& lines) {
  std::array<std::size_t, 6> widths{};
  for (const Line& line : lines) {
    if (const DiffCells* cells = std::get_if<DiffCells>(&line)) {
      for (std::size_t c = 0; c < widths.size(); ++c) {
        widths[c] = std::max(widths[c], text::columns((*cells)[c]));
      }
    }
  }
  for (const Line& line : lines) {
    if (const std::string* heading = std::get_if<std::string>(&line)) {
      out << *heading << "\n";
      continue;
    }
    const DiffCells& cells = std::get<DiffCells>(line);
    std::string row;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      row += (c == 0 ? "" : "  ") + text::padded(cells[c], widths[c], c == 4);
    }
    row.erase(row.find_last_not_of(' ') + 1);
    out << row << "\n";
  }
}

ordered_json moments_json(const std::optional<analysis::SampleMoments>& m) {
  if (!m) {
    return nullptr;
  }
  return {{"mean", m->mean}, {"stddev", m->stddev}, {"trials", m->count}};
}

template <class T>
ordered_json optional_json(const std::optional<T>& value) {
  return value ? ordered_json(*value) : ordered_json(nullptr);
}

ordered_json metrics_json(const std::vector<MetricDiff>& metrics) {
  ordered_json out = ordered_json::array();
  for (const MetricDiff& d : metrics) {
    ordered_json m;
    m["metric"] = d.metric;
    m["a"] = moments_json(d.a);
    m["b"] = moments_json(d.b);
    const std::optional<analysis::MeanDifference>& c = d.change;
    m["change"] = c ? ordered_json(c->difference) : ordered_json(nullptr);
    m["change_ci95"] = c && c->interval
                           ? ordered_json::array({(*c->interval)[0], (*c->interval)[1]})
                           : ordered_json(nullptr);
    m["relative_change"] = optional_json(d.relative_change);
    m["t"] = c ? optional_json(c->t) : ordered_json(nullptr);
    m["degrees_of_freedom"] = c ? optional_json(c->degrees_of_freedom) : ordered_json(nullptr);
    m["p_value"] = c ? optional_json(c->p_value) : ordered_json(nullptr);
    m["significant"] = c && c->significant;
    out.push_back(std::move(m));
  }
  return out;
}

ordered_json identity_json(const LoadIdentity& l) {
  return {{"id", l.id},
          {"file", l.file},
          {"line", l.line},
          {"column", l.column},
          {"expression", l.expression},
          {"kind", l.kind},
          {"kernels", l.kernels},
          {"requests", l.requests},
          {"transactions_per_request", l.transactions_per_request}};
}

ordered_json side_json(const DiffSide& s) {
  return {{"path", s.path},           {"producer", s.producer},
          {"trace", s.trace},         {"trace_sha256", s.trace_sha256},
          {"hierarchy", s.hierarchy}, {"seed", s.seed},
          {"trials", s.trials}};
}

constexpr const char* kMethod =
    "change = mean B - mean A; its interval and p from Welch's two-sided t-test on the per-trial "
    "values of each report (mean, stddev, trials; Welch 1947, NIST/SEMATECH e-Handbook 1.3.5.3); "
    "significant when p < 1 - level";

}  // namespace

void print_diff(std::ostream& out, const ReportDiff& diff) {
  out << "A  " << side_text(diff.a) << "\n"
      << "B  " << side_text(diff.b) << "\n";
  if (diff.input_differences.empty()) {
    out << "inputs: the same (trace, hierarchy, seed, trials)\n";
  } else {
    out << "inputs that differ:\n";
    for (const InputDifference& d : diff.input_differences) {
      out << "  " << d.input << ": " << d.a << " -> " << d.b << "\n";
    }
  }
  out << "change = B - A [its 95% interval]; p: Welch's two-sided t-test on the trials of each "
         "report; * p < "
      << printf_string("%g", 1 - diff.level) << "\n\n";

  std::vector<Line> lines;
  lines.emplace_back(DiffCells{"overall", "A", "B", "change", "", "p"});
  for (const MetricDiff& d : diff.overall) {
    lines.emplace_back(metric_cells(d));
  }
  const bool several_kernels = diff.kernels.size() + diff.kernels_only_in_a.size() > 1 ||
                               diff.kernels.size() + diff.kernels_only_in_b.size() > 1;
  if (several_kernels) {
    for (const KernelDiff& k : diff.kernels) {
      lines.emplace_back("");
      lines.emplace_back("kernel " + k.kernel);
      for (const MetricDiff& d : k.metrics) {
        lines.emplace_back(metric_cells(d));
      }
    }
  }
  lines.emplace_back("");
  lines.emplace_back(
      "loads, matched by file, line, column, expression, kind and kernels (--json has every "
      "metric)");
  for (const LoadDiff& load : diff.loads) {
    std::string heading = location(load.a);
    if (load.match == LoadMatch::kMoved) {
      heading += " -> " + location(load.b);
    }
    heading += "  " + load.a.expression + "  " + load.a.kind + "  " + kernels_text(load.a.kernels);
    if (load.match == LoadMatch::kMoved) {
      heading += "  (moved)";
    }
    lines.emplace_back(heading);
    lines.emplace_back(count_cells("requests", static_cast<double>(load.a.requests),
                                   static_cast<double>(load.b.requests), "%.0f"));
    lines.emplace_back(count_cells("tx/req", load.a.transactions_per_request,
                                   load.b.transactions_per_request, "%.2f"));
    for (const MetricDiff& d : load.metrics) {
      if (shown_for_loads(d.metric)) {
        lines.emplace_back(metric_cells(d));
      }
    }
  }
  print_lines(out, lines);
  const auto only = [&](const char* side, const std::vector<LoadIdentity>& loads) {
    if (loads.empty()) {
      return;
    }
    out << "\nonly in " << side << ": " << loads.size() << (loads.size() == 1 ? " load" : " loads")
        << "\n";
    for (const LoadIdentity& l : loads) {
      out << "  id " << l.id << "  " << identity_text(l) << "  " << l.requests << " requests\n";
    }
  };
  only("A", diff.only_in_a);
  only("B", diff.only_in_b);
  const auto kernels_only = [&](const char* side, const std::vector<std::string>& kernels) {
    if (!kernels.empty()) {
      out << "\nkernels only in " << side << ": " << kernels_text(kernels) << "\n";
    }
  };
  kernels_only("A", diff.kernels_only_in_a);
  kernels_only("B", diff.kernels_only_in_b);
}

std::string diff_json(const ReportDiff& diff, int indent) {
  ordered_json doc;
  doc["schema_version"] = kDiffSchemaVersion;
  doc["a"] = side_json(diff.a);
  doc["b"] = side_json(diff.b);
  ordered_json inputs = ordered_json::array();
  for (const InputDifference& d : diff.input_differences) {
    inputs.push_back({{"input", d.input}, {"a", d.a}, {"b", d.b}});
  }
  doc["input_differences"] = inputs;
  doc["test"] = {{"method", kMethod}, {"level", diff.level}};
  doc["overall"] = metrics_json(diff.overall);
  ordered_json kernels = ordered_json::array();
  for (const KernelDiff& k : diff.kernels) {
    kernels.push_back({{"kernel", k.kernel}, {"metrics", metrics_json(k.metrics)}});
  }
  doc["kernels"] = kernels;
  doc["kernels_only_in_a"] = diff.kernels_only_in_a;
  doc["kernels_only_in_b"] = diff.kernels_only_in_b;
  ordered_json loads = ordered_json::array();
  for (const LoadDiff& load : diff.loads) {
    loads.push_back({{"match", std::string(to_string(load.match))},
                     {"a", identity_json(load.a)},
                     {"b", identity_json(load.b)},
                     {"metrics", metrics_json(load.metrics)}});
  }
  doc["loads"] = loads;
  ordered_json only_a = ordered_json::array();
  for (const LoadIdentity& l : diff.only_in_a) {
    only_a.push_back(identity_json(l));
  }
  ordered_json only_b = ordered_json::array();
  for (const LoadIdentity& l : diff.only_in_b) {
    only_b.push_back(identity_json(l));
  }
  doc["only_in_a"] = only_a;
  doc["only_in_b"] = only_b;
  return doc.dump(indent);
}

}  // namespace memcarlo::reports
