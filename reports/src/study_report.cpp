// The study report's JSON and CSV, and the averages over programs (see study_report.hpp).
#include "memcarlo/reports/study_report.hpp"
#include "csv_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "memcarlo/analysis/confidence.hpp"
#include "memcarlo/analysis/metrics.hpp"
#include "memcarlo/analysis/running_stats.hpp"

namespace memcarlo::reports {
namespace {

using csv::field;
using csv::number;

using nlohmann::json;
using nlohmann::ordered_json;

constexpr const char* kArithmetic =
    "arithmetic mean over programs, Student-t 95% interval over programs";
constexpr const char* kGeometric =
    "geometric mean over programs, exponentiated Student-t 95% interval of the logarithms";

ordered_json interval_json(const std::optional<std::array<double, 2>>& ci) {
  return ci ? ordered_json::array({(*ci)[0], (*ci)[1]}) : ordered_json();
}

std::optional<double> number_at(const json& object, const char* key) {
  if (!object.is_object()) {
    return std::nullopt;
  }
  const auto found = object.find(key);
  return found != object.end() && found->is_number() ? std::optional(found->get<double>())
                                                     : std::nullopt;
}

std::optional<std::array<double, 2>> interval_at(const json& object) {
  if (!object.is_object()) {
    return std::nullopt;
  }
  const auto found = object.find("ci95");
  if (found == object.end() || !found->is_array() || found->size() != 2 ||
      !(*found)[0].is_number() || !(*found)[1].is_number()) {
    return std::nullopt;
  }
  return std::array<double, 2>{(*found)[0].get<double>(), (*found)[1].get<double>()};
}

/// Whether the metric's change from the baseline is a ratio (latencies: point / baseline) rather
/// than a difference (ratios and amounts: point - baseline), and its values are averaged
/// geometrically.
bool geometric(const std::string& metric) {
  const analysis::Metric* found = analysis::find_metric(metric, analysis::MetricScope::kAggregate);
  return found != nullptr && found->unit == analysis::MetricUnit::kCycles;
}

ordered_json average_json(const std::optional<ProgramAverage>& average) {
  if (!average) {
    return nullptr;
  }
  return {{"mean", average->mean},
          {"ci95", interval_json(average->ci95)},
          {"programs", average->programs},
          {"method", average->method}};
}

std::string csv_number(const json& value) {
  return value.is_number() ? number(value.get<double>()) : "";
}

}  // namespace

std::optional<ProgramAverage> arithmetic_average(std::span<const double> values) {
  if (values.empty()) {
    return std::nullopt;
  }
  analysis::RunningStats stats;
  for (const double value : values) {
    stats.add(value);
  }
  return ProgramAverage{kArithmetic, values.size(), stats.mean(),
                        analysis::mean_confidence_interval(stats)};
}

std::optional<ProgramAverage> geometric_average(std::span<const double> values) {
  if (values.empty()) {
    return std::nullopt;
  }
  analysis::RunningStats logs;
  for (const double value : values) {
    if (!(value > 0)) {
      return std::nullopt;
    }
    logs.add(std::log(value));
  }
  std::optional<std::array<double, 2>> ci;
  if (const auto log_ci = analysis::mean_confidence_interval(logs)) {
    ci = std::array<double, 2>{std::exp((*log_ci)[0]), std::exp((*log_ci)[1])};
  }
  return ProgramAverage{kGeometric, values.size(), std::exp(logs.mean()), ci};
}

std::size_t sweep_index(std::size_t point, std::size_t baseline) {
  if (point == baseline) {
    return 0;
  }
  return point < baseline ? point + 1 : point;
}

ordered_json study_json(const StudyInputs& inputs, const std::vector<StudyProgram>& programs,
                        const json& performance) {
  ordered_json points = ordered_json::array();
  for (std::size_t p = 0; p < inputs.points.size(); ++p) {
    ordered_json set = ordered_json::object();
    for (const auto& [key, value] : inputs.points[p].set) {
      set[key] = value;
    }
    points.push_back({{"name", inputs.points[p].name},
                      {"preset", inputs.points[p].preset},
                      {"set", set},
                      {"baseline", p == inputs.baseline}});
  }
  // Per metric and point, the programs' values and changes that the averages take.
  const std::size_t metric_count = inputs.metrics.size();
  std::vector<std::vector<std::vector<double>>> values(
      inputs.points.size(), std::vector<std::vector<double>>(metric_count));
  auto changes = values;
  ordered_json program_rows = ordered_json::array();
  ordered_json failures = ordered_json::array();
  for (const StudyProgram& program : programs) {
    ordered_json row = {{"name", program.name}, {"path", program.path}};
    if (!program.note.empty()) {
      row["note"] = program.note;
    }
    if (!program.failed_stage.empty()) {
      row["status"] = "failed";
      row["stage"] = program.failed_stage;
      row["reason"] = program.reason;
      failures.push_back(
          {{"program", program.name}, {"stage", program.failed_stage}, {"reason", program.reason}});
      row["performance"] = program.performance;
      program_rows.push_back(std::move(row));
      continue;
    }
    row["status"] = "ok";
    row["trace_sha256"] = program.sweep["inputs"].value("trace_sha256", "");
    const json& sweep_points = program.sweep["points"];
    const json& baseline_overall = sweep_points[0]["overall"];
    ordered_json results = ordered_json::object();
    for (std::size_t p = 0; p < inputs.points.size(); ++p) {
      const json& point = sweep_points[sweep_index(p, inputs.baseline)];
      ordered_json metrics = ordered_json::object();
      for (std::size_t m = 0; m < metric_count; ++m) {
        const std::string& name = inputs.metrics[m];
        const json& value = point["overall"].value(name, json());
        const json& difference = point["difference"]["overall"].value(name, json());
        const auto mean = number_at(value, "mean");
        ordered_json entry = {{"mean", mean ? ordered_json(*mean) : ordered_json()},
                              {"ci95", interval_json(interval_at(value))}};
        const auto diff_mean = number_at(difference, "mean");
        entry["difference"] = diff_mean
                                  ? ordered_json{{"mean", *diff_mean},
                                                 {"ci95", interval_json(interval_at(difference))},
                                                 {"pairs", difference.value("pairs", 0)}}
                                  : ordered_json();
        if (mean) {
          values[p][m].push_back(*mean);
        }
        if (geometric(name)) {
          // The latency relative to the baseline: (b + d) / b with the paired interval of d
          // scaled by the baseline's mean (taken as known).
          const auto base = number_at(baseline_overall.value(name, json()), "mean");
          if (base && *base > 0 && diff_mean) {
            const double ratio = 1 + *diff_mean / *base;
            const auto d_ci = interval_at(difference);
            std::optional<std::array<double, 2>> ci;
            if (d_ci) {
              ci = std::array<double, 2>{1 + (*d_ci)[0] / *base, 1 + (*d_ci)[1] / *base};
            }
            entry["ratio"] = {{"mean", ratio}, {"ci95", interval_json(ci)}};
            changes[p][m].push_back(ratio);
          } else {
            entry["ratio"] = nullptr;
          }
        } else if (diff_mean) {
          changes[p][m].push_back(*diff_mean);
        }
        metrics[name] = std::move(entry);
      }
      results[inputs.points[p].name] = std::move(metrics);
    }
    row["results"] = std::move(results);
    row["performance"] = program.performance;
    program_rows.push_back(std::move(row));
  }

  ordered_json average = ordered_json::object();
  for (std::size_t p = 0; p < inputs.points.size(); ++p) {
    ordered_json metrics = ordered_json::object();
    for (std::size_t m = 0; m < metric_count; ++m) {
      const bool geo = geometric(inputs.metrics[m]);
      const auto value = geo ? geometric_average(values[p][m]) : arithmetic_average(values[p][m]);
      const auto change =
          geo ? geometric_average(changes[p][m]) : arithmetic_average(changes[p][m]);
      ordered_json entry = average_json(value);
      if (entry.is_null()) {
        entry = {{"mean", nullptr},
                 {"ci95", nullptr},
                 {"programs", values[p][m].size()},
                 {"method", geo ? "geometric mean over programs: undefined (no value, or a value "
                                  "that is not positive)"
                                : "arithmetic mean over programs: no value"}};
      }
      ordered_json change_json = average_json(change);
      if (!change_json.is_null()) {
        change_json["kind"] = geo ? "ratio" : "difference";
      }
      entry[geo ? "ratio" : "difference"] = change_json;
      metrics[inputs.metrics[m]] = std::move(entry);
    }
    average[inputs.points[p].name] = std::move(metrics);
  }

  ordered_json metric_rows = ordered_json::array();
  for (const std::string& name : inputs.metrics) {
    const analysis::Metric* found = analysis::find_metric(name, analysis::MetricScope::kAggregate);
    metric_rows.push_back(
        {{"name", name},
         {"label", found != nullptr ? std::string(found->label) : name},
         {"unit", geometric(name)                                                   ? "cycles"
                  : found != nullptr && found->unit == analysis::MetricUnit::kRatio ? "ratio"
                                                                                    : "amount"},
         {"average", geometric(name) ? "geometric" : "arithmetic"},
         {"change", geometric(name) ? "ratio" : "difference"}});
  }
  return {{"schema", "memcarlo-study"},
          {"version", kStudySchemaVersion},
          {"producer", "memcarlo " MEMCARLO_VERSION},
          {"study",
           {{"name", inputs.name},
            {"file", inputs.file},
            {"description", inputs.description},
            {"suite_root", inputs.suite_root},
            {"trials", inputs.trials},
            {"seed", inputs.seed},
            {"baseline", inputs.points[inputs.baseline].name}}},
          {"metrics", metric_rows},
          {"points", points},
          {"programs", program_rows},
          {"average", average},
          {"failures", failures},
          {"performance", performance}};
}

void write_study_csv(std::ostream& out, const ordered_json& study) {
  out << "program,point,metric,mean,ci95_low,ci95_high,change_kind,change,change_ci95_low,"
         "change_ci95_high,method\n";
  std::vector<std::string> ratio_metrics;
  for (const auto& metric : study["metrics"]) {
    if (metric["change"] == "ratio") {
      ratio_metrics.push_back(metric["name"].get<std::string>());
    }
  }
  const auto is_ratio = [&](const std::string& metric) {
    return std::find(ratio_metrics.begin(), ratio_metrics.end(), metric) != ratio_metrics.end();
  };
  const auto row = [&](const std::string& program, const std::string& point,
                       const std::string& metric, const json& entry, const std::string& method) {
    const char* kind = is_ratio(metric) ? "ratio" : "difference";
    const json& change = entry.value(kind, json());
    out << field(program) << "," << field(point) << "," << metric << ","
        << csv_number(entry.value("mean", json())) << ","
        << (entry.value("ci95", json()).is_array()
                ? csv_number(entry["ci95"][0]) + "," + csv_number(entry["ci95"][1])
                : std::string(","))
        << "," << kind << ","
        << csv_number(change.is_object() ? change.value("mean", json()) : json()) << ","
        << (change.is_object() && change.value("ci95", json()).is_array()
                ? csv_number(change["ci95"][0]) + "," + csv_number(change["ci95"][1])
                : std::string(","))
        << "," << field(method) << "\n";
  };
  for (const auto& program : study["programs"]) {
    if (program["status"] != "ok") {
      continue;
    }
    for (const auto& [point, metrics] : program["results"].items()) {
      for (const auto& [metric, entry] : metrics.items()) {
        row(program["name"].get<std::string>(), point, metric, entry, "");
      }
    }
  }
  for (const auto& [point, metrics] : study["average"].items()) {
    for (const auto& [metric, entry] : metrics.items()) {
      row("average", point, metric, entry, entry.value("method", std::string()));
    }
  }
}

}  // namespace memcarlo::reports
