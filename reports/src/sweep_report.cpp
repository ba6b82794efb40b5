// The sweep report's JSON, CSV and table (see sweep_report.hpp).
#include "memcarlo/reports/sweep_report.hpp"
#include "csv_text.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string_view>

#include "memcarlo/analysis/metrics.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "report_json_parts.hpp"

namespace memcarlo::reports {
namespace {

using csv::field;
using csv::number;

using nlohmann::json;
using nlohmann::ordered_json;

ordered_json difference_json(const std::optional<analysis::PairedDifference>& d) {
  if (!d) {
    return nullptr;
  }
  return {{"mean", d->mean},
          {"stddev", d->stddev},
          {"ci95", d->ci95 ? ordered_json::array({(*d->ci95)[0], (*d->ci95)[1]}) : ordered_json()},
          {"pairs", d->pairs}};
}

ordered_json differences_json(const std::vector<SweepMetricDifference>& metrics,
                              ordered_json out = ordered_json::object()) {
  for (const SweepMetricDifference& m : metrics) {
    out[std::string(m.metric->name)] = difference_json(m.difference);
  }
  return out;
}

std::string parameters_text(const SweepPoint& point) {
  std::string text;
  for (const auto& [key, value] : point.parameters) {
    text += (text.empty() ? "" : " ") + key + "=" + value;
  }
  return text;
}

void csv_row(std::ostream& out, std::size_t index, const SweepPoint& point,
             const std::string& scope, const std::string& load, const SweepMetricDifference& m,
             const std::optional<analysis::Distribution>& d) {
  out << index << "," << field(parameters_text(point)) << "," << scope << "," << load << ","
      << m.metric->name << ",";
  if (d) {
    out << number(d->mean) << "," << (d->ci95 ? number((*d->ci95)[0]) : "") << ","
        << (d->ci95 ? number((*d->ci95)[1]) : "") << "," << d->count;
  } else {
    out << ",,,";
  }
  out << ",";
  if (m.difference) {
    const auto& diff = *m.difference;
    out << number(diff.mean) << "," << (diff.ci95 ? number((*diff.ci95)[0]) : "") << ","
        << (diff.ci95 ? number((*diff.ci95)[1]) : "") << "," << diff.pairs;
  } else {
    out << ",,,";
  }
  out << "\n";
}

/// "0.512±0.003", or "-" when undefined; `digits` after the point.
std::string with_interval(double mean, const std::optional<std::array<double, 2>>& ci, int digits,
                          bool sign) {
  char buffer[64];
  if (ci) {
    std::snprintf(buffer, sizeof buffer, sign ? "%+.*f±%.*f" : "%.*f±%.*f", digits, mean, digits,
                  ((*ci)[1] - (*ci)[0]) / 2);
  } else {
    std::snprintf(buffer, sizeof buffer, sign ? "%+.*f" : "%.*f", digits, mean);
  }
  return buffer;
}

}  // namespace

std::string sweep_json(const SweepInputs& inputs, const std::vector<SweepPoint>& points,
                       const SweepPerformance& performance, int indent) {
  ordered_json report;
  report["schema"] = "memcarlo-sweep";
  report["version"] = kSweepSchemaVersion;
  report["producer"] = std::string("memcarlo ") + MEMCARLO_VERSION;

  ordered_json in;
  in["trace"] = inputs.trace_path;
  in["trace_sha256"] = inputs.trace_sha256;
  in["hierarchy"] = {{"name", inputs.base_name},
                     {"overrides", inputs.base_overrides},
                     {"parameters", json::parse(sim::hierarchy_to_json(*inputs.base))}};
  in["seed"] = inputs.seed;
  in["trials"] = inputs.trials;
  if (inputs.stop_rule) {
    in["stop_rule"] = {{"until_ci", inputs.stop_rule->until_ci},
                       {"max_trials", inputs.stop_rule->max_trials}};
  } else {
    in["stop_rule"] = nullptr;
  }
  in["mode"] = inputs.mode;
  in["varied_keys"] = inputs.varied_keys;
  in["baseline"] = 0;
  in["launches"] = inputs.launches.empty() ? ordered_json("all") : ordered_json(inputs.launches);
  in["truncated_at"] = inputs.truncated_at ? ordered_json(*inputs.truncated_at) : nullptr;
  report["inputs"] = in;

  ordered_json entries = ordered_json::array();
  for (std::size_t p = 0; p < points.size(); ++p) {
    const SweepPoint& point = points[p];
    ordered_json entry;
    entry["index"] = p;
    ordered_json parameters = ordered_json::object();
    for (const auto& [key, value] : point.parameters) {
      parameters[key] = value;
    }
    entry["parameters"] = parameters;
    entry["trials"] = point.summary.trials;
    entry["converged"] = inputs.stop_rule ? ordered_json(point.converged) : ordered_json(nullptr);
    entry["overall"] = aggregate(point.summary, point.summary.overall);
    ordered_json loads = ordered_json::array();
    const auto load_metrics = point.summary.reported_metrics(analysis::MetricScope::kLoad);
    for (const analysis::LoadSummary& load : point.summary.loads) {
      loads.push_back(load_json(load, *point.trace, load_metrics));
    }
    entry["loads"] = loads;
    ordered_json load_differences = ordered_json::array();
    for (const SweepLoadDifference& load : point.load_differences) {
      ordered_json named;
      named["id"] = load.id;
      load_differences.push_back(differences_json(load.metrics, std::move(named)));
    }
    entry["difference"] = {
        {"description",
         "this point minus the baseline (point 0): mean of the per-trial differences over the "
         "trials both ran (common random numbers), paired Student-t 95% interval"},
        {"overall", differences_json(point.overall_difference)},
        {"loads", load_differences}};
    entry["performance"] = {{"wall_seconds", point.wall_seconds}};
    entries.push_back(std::move(entry));
  }
  report["points"] = entries;
  report["performance"] = {{"compiles", performance.compiles},
                           {"resumed_points", performance.resumed},
                           {"compile_seconds", performance.compile_seconds},
                           {"wall_seconds", performance.wall_seconds},
                           {"threads", performance.threads}};
  return report.dump(indent);
}

void write_sweep_csv(std::ostream& out, const std::vector<SweepPoint>& points) {
  out << "point,parameters,scope,load,metric,mean,ci95_low,ci95_high,trials,difference,"
         "difference_ci95_low,difference_ci95_high,pairs\n";
  for (std::size_t p = 0; p < points.size(); ++p) {
    const SweepPoint& point = points[p];
    for (const SweepMetricDifference& m : point.overall_difference) {
      csv_row(out, p, point, "overall", "", m, point.summary.overall[*m.metric]);
    }
    for (const SweepLoadDifference& load : point.load_differences) {
      const analysis::LoadSummary* summary = nullptr;
      for (const analysis::LoadSummary& candidate : point.summary.loads) {
        summary = candidate.id == load.id ? &candidate : summary;
      }
      for (const SweepMetricDifference& m : load.metrics) {
        csv_row(out, p, point, "load", std::to_string(load.id), m,
                summary != nullptr ? summary->metrics[*m.metric] : std::nullopt);
      }
    }
  }
}

namespace {

// What each family of keys acts on, by the key's prefix; `base` and every other key: the hit
// ratios and Tm. The overall latency X closes every table.
constexpr SweepActsOn kActsOn[] = {
    {"prefetch.", {"l1_read_hit_ratio", "prefetch_coverage", "prefetch_accuracy"}},
    {"placement.", {"numa_access_efficiency", "numa_crossing_latency_cycles", "numa_link_bytes"}},
    {"numa.", {"numa_access_efficiency", "numa_crossing_latency_cycles", "numa_link_bytes"}},
    {"schedule.", {"l1_read_hit_ratio", "numa_access_efficiency", "numa_crossing_latency_cycles"}},
    {"ldesc.", {"l1_read_hit_ratio", "numa_access_efficiency", "numa_crossing_latency_cycles"}},
    {"l1.", {"l1_read_hit_ratio", "l2_read_hit_ratio", ""}},
    {"l2.", {"l2_read_hit_ratio", "dram_latency_cycles", ""}},
    {"dram.", {"dram_latency_cycles", "", ""}},
};
constexpr std::array<std::string_view, 3> kOther = {"l1_read_hit_ratio", "l2_read_hit_ratio",
                                                    "dram_latency_cycles"};

}  // namespace

std::span<const SweepActsOn> sweep_acts_on() {
  return kActsOn;
}

std::span<const std::string_view> sweep_other_key_metrics() {
  return kOther;
}

std::vector<const analysis::Metric*> sweep_table_metrics(const std::vector<SweepPoint>& points) {
  std::vector<std::string_view> wanted;
  const auto want = [&](std::string_view metric) {
    if (!metric.empty() && std::find(wanted.begin(), wanted.end(), metric) == wanted.end()) {
      wanted.push_back(metric);
    }
  };
  for (const SweepPoint& point : points) {
    for (const auto& [key, value] : point.parameters) {
      const SweepActsOn* match = nullptr;
      for (const SweepActsOn& family : kActsOn) {
        match = match == nullptr && key.starts_with(family.prefix) ? &family : match;
      }
      for (const std::string_view metric : match != nullptr ? match->metrics : kOther) {
        want(metric);
      }
    }
  }
  // Shown when some point reports it (the numa metrics need numa.modules > 1, the prefetch ones
  // a prefetcher); the hit ratios and Tm when nothing the keys act on is reported.
  const auto reported = [&](std::string_view name) {
    return std::any_of(points.begin(), points.end(), [&](const SweepPoint& point) {
      return point.summary.overall[name].has_value();
    });
  };
  std::vector<const analysis::Metric*> out;
  for (const std::string_view name : wanted) {
    if (reported(name)) {
      out.push_back(analysis::find_metric(name, analysis::MetricScope::kAggregate));
    }
  }
  if (out.empty()) {
    for (const std::string_view name : kOther) {
      out.push_back(analysis::find_metric(name, analysis::MetricScope::kAggregate));
    }
  }
  out.push_back(analysis::find_metric("latency_cycles", analysis::MetricScope::kAggregate));
  return out;
}

void print_sweep_table(std::ostream& out, const std::vector<SweepPoint>& points) {
  const std::vector<const analysis::Metric*> metrics = sweep_table_metrics(points);
  const auto digits = [](const analysis::Metric& metric) {
    return metric.unit == analysis::MetricUnit::kRatio    ? 4
           : metric.unit == analysis::MetricUnit::kCycles ? 1
                                                          : 0;
  };
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"#", "parameters", "trials"};
  for (const analysis::Metric* metric : metrics) {
    header.emplace_back(metric->label);
    header.emplace_back("Δ " + std::string(metric->label));
  }
  rows.push_back(header);
  for (std::size_t p = 0; p < points.size(); ++p) {
    const SweepPoint& point = points[p];
    std::vector<std::string> row = {std::to_string(p) + (p == 0 ? "*" : ""), parameters_text(point),
                                    std::to_string(point.summary.trials)};
    for (const analysis::Metric* metric : metrics) {
      const auto& d = point.summary.overall[*metric];
      row.push_back(d ? with_interval(d->mean, d->ci95, digits(*metric), false) : "-");
      std::string difference = "-";
      for (const SweepMetricDifference& m : point.overall_difference) {
        if (m.metric == metric && m.difference) {
          difference = with_interval(m.difference->mean, m.difference->ci95, digits(*metric), true);
        }
      }
      row.push_back(difference);
    }
    rows.push_back(std::move(row));
  }
  // Column widths in code points ("±" and "Δ" are two bytes each in UTF-8).
  const auto width = [](const std::string& text) {
    std::size_t n = 0;
    for (const unsigned char c : text) {
      n += (c & 0xC0) != 0x80 ? 1 : 0;
    }
    return n;
  };
  std::vector<std::size_t> widths(header.size(), 0);
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      widths[c] = std::max(widths[c], width(row[c]));
    }
  }
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      const std::string padding(widths[c] - width(row[c]), ' ');
      out << (c == 0 ? "" : "  ") << (c == 1 ? row[c] + padding : padding + row[c]);
    }
    out << "\n";
  }
  out << "* baseline; Δ: paired difference from the baseline (common random numbers), mean ± 95% "
         "half-width\n";
}

}  // namespace memcarlo::reports
