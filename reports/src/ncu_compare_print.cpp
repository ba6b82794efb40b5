// Printers of an Nsight Compute comparison: the terminal table (percentages) and the versioned
// JSON document (ratios).
#include <cstdio>
#include <nlohmann/json.hpp>

#include "memcarlo/reports/ncu_compare.hpp"
#include "ncu_text.hpp"

namespace memcarlo::reports {
namespace {

using ncu_text::percent;
using ncu_text::plural;
using ncu_text::quoted;
using nlohmann::ordered_json;

std::string percent_interval(const std::array<double, 2>& interval) {
  return "[" + percent(interval[0]) + ", " + percent(interval[1]) + "]";
}

ordered_json interval_json(const std::array<double, 2>& interval) {
  return ordered_json::array({interval[0], interval[1]});
}

struct Tally {
  std::uint32_t inside = 0;
  std::uint32_t outside = 0;
  std::uint32_t no_measurement = 0;
  std::uint32_t no_prediction = 0;
};

Tally tally(const NcuComparison& comparison) {
  Tally t;
  for (const KernelComparison& kernel : comparison.kernels) {
    for (const MetricComparison& metric : kernel.metrics) {
      switch (metric.verdict) {
        case Verdict::kInside:
          ++t.inside;
          break;
        case Verdict::kOutside:
          ++t.outside;
          break;
        case Verdict::kNoMeasurement:
          ++t.no_measurement;
          break;
        case Verdict::kNoPrediction:
          ++t.no_prediction;
          break;
      }
    }
  }
  return t;
}

}  // namespace

void print_comparison(std::ostream& out, const NcuComparison& comparison) {
  out << "memcarlo report " << comparison.report_path << " (hierarchy " << comparison.hierarchy
      << ", " << plural(comparison.trials, "trial") << ", "
      << (comparison.per_kernel_report ? "per-kernel predictions"
                                       : "overall figures of a single-kernel report")
      << ")\nvs Nsight Compute " << comparison.ncu_path << " (" << to_string(comparison.layout)
      << " page)\n"
      << "Percentages. measured: Nsight Compute's mean over the n launches that had a value. "
         "ci95: 95% interval\nof the predicted mean. 2σ band: [mean - 2σ, mean + 2σ] of "
         "single-trial predictions (spread_2sigma,\npaper §5.2); \"inside\" means the "
         "measurement lies in the 2σ band.\n";
  char line[256];
  for (const KernelComparison& kernel : comparison.kernels) {
    out << "\n"
        << kernel.report_kernel << "  (report: " << plural(kernel.report_launches.size(), "launch")
        << "; Nsight Compute: " << plural(kernel.ncu_launches, "launch") << " of ";
    for (std::size_t i = 0; i < kernel.ncu_kernels.size(); ++i) {
      out << (i == 0 ? "" : ", ") << quoted(kernel.ncu_kernels[i]);
    }
    out << ", matched "
        << (kernel.match == MatchRule::kBaseName    ? "by base name"
            : kernel.match == MatchRule::kSignature ? "by signature"
                                                    : "exactly")
        << ")\n";
    // Written out rather than padded by printf, which would count the two bytes of "σ".
    out << "  metric                     measured    n predicted  ci95 of mean       2σ band"
           "            |error|  in 2σ band\n";
    for (const MetricComparison& metric : kernel.metrics) {
      const auto& predicted = metric.predicted;
      const std::string verdict = metric.verdict == Verdict::kInside          ? "yes"
                                  : metric.verdict == Verdict::kOutside       ? "NO"
                                  : metric.verdict == Verdict::kNoMeasurement ? "- (no measurement)"
                                                                              : "- (no prediction)";
      std::snprintf(line, sizeof line, "  %-25s %9s %4u %9s  %-18s %-18s %7s  %s\n",
                    std::string(kComparedMetrics[metric.metric].label).c_str(),
                    metric.measured ? percent(*metric.measured).c_str() : "n/a",
                    metric.measured_launches, predicted ? percent(predicted->mean).c_str() : "null",
                    predicted && predicted->ci95 ? percent_interval(*predicted->ci95).c_str() : "-",
                    predicted ? percent_interval(predicted->spread_2sigma).c_str() : "-",
                    metric.absolute_error ? percent(*metric.absolute_error).c_str() : "-",
                    verdict.c_str());
      out << line;
    }
  }
  if (!comparison.unmatched_ncu.empty()) {
    out << "\nNsight Compute kernels without a report kernel:\n";
    for (const UnmatchedNcuKernel& kernel : comparison.unmatched_ncu) {
      out << "  " << quoted(kernel.name) << " (" << plural(kernel.launches, "launch");
      if (!kernel.ambiguous_between.empty()) {
        out << "; ambiguous between report kernels";
        for (const std::string& name : kernel.ambiguous_between) {
          out << " " << quoted(name);
        }
      }
      out << ")\n";
    }
  }
  if (!comparison.unmatched_report.empty()) {
    out << "\nReport kernels without Nsight Compute rows:\n";
    for (const std::string& name : comparison.unmatched_report) {
      out << "  " << quoted(name) << "\n";
    }
  }
  const Tally t = tally(comparison);
  out << "\n"
      << plural(t.inside + t.outside, "comparison") << ": " << t.inside << " inside the 2σ band, "
      << t.outside << " outside";
  if (t.no_measurement + t.no_prediction > 0) {
    out << "; not compared: " << t.no_measurement << " without measurement, " << t.no_prediction
        << " without prediction";
  }
  out << "\n";
}

std::string comparison_json(const NcuComparison& comparison, int indent) {
  ordered_json doc;
  doc["schema_version"] = kCompareSchemaVersion;
  doc["producer"] = std::string("memcarlo ") + MEMCARLO_VERSION;
  doc["units"] = "ratio";
  doc["inside_means"] =
      "the measurement lies within spread_2sigma, [mean - 2 stddev, mean + 2 stddev] of "
      "single-trial predictions (paper §5.2)";
  doc["report"] = {{"path", comparison.report_path},
                   {"hierarchy", comparison.hierarchy},
                   {"trials", comparison.trials},
                   {"per_kernel", comparison.per_kernel_report}};
  doc["ncu"] = {{"path", comparison.ncu_path}, {"layout", to_string(comparison.layout)}};

  ordered_json kernels = ordered_json::array();
  for (const KernelComparison& kernel : comparison.kernels) {
    ordered_json entry;
    entry["kernel"] = kernel.report_kernel;
    entry["report_launches"] = kernel.report_launches;
    entry["ncu_kernels"] = kernel.ncu_kernels;
    entry["ncu_launches"] = kernel.ncu_launches;
    entry["match"] = to_string(kernel.match);
    ordered_json metrics = ordered_json::array();
    for (const MetricComparison& metric : kernel.metrics) {
      ordered_json m;
      m["ncu_metric"] = kComparedMetrics[metric.metric].ncu_metric;
      m["report_metric"] = kComparedMetrics[metric.metric].report_key;
      m["measured"] = metric.measured ? ordered_json(*metric.measured) : ordered_json();
      m["measured_launches"] = metric.measured_launches;
      if (metric.predicted) {
        const analysis::Distribution& d = *metric.predicted;
        m["predicted"] = {{"mean", d.mean},
                          {"stddev", d.stddev},
                          {"ci95", d.ci95 ? interval_json(*d.ci95) : ordered_json()},
                          {"spread_2sigma", interval_json(d.spread_2sigma)},
                          {"trials", d.count}};
      } else {
        m["predicted"] = nullptr;
      }
      m["absolute_error"] =
          metric.absolute_error ? ordered_json(*metric.absolute_error) : ordered_json();
      m["inside_2sigma"] = metric.verdict == Verdict::kInside    ? ordered_json(true)
                           : metric.verdict == Verdict::kOutside ? ordered_json(false)
                                                                 : ordered_json();
      m["verdict"] = to_string(metric.verdict);
      metrics.push_back(std::move(m));
    }
    entry["metrics"] = std::move(metrics);
    kernels.push_back(std::move(entry));
  }
  doc["kernels"] = std::move(kernels);

  ordered_json unmatched_ncu = ordered_json::array();
  for (const UnmatchedNcuKernel& kernel : comparison.unmatched_ncu) {
    unmatched_ncu.push_back({{"kernel", kernel.name},
                             {"launches", kernel.launches},
                             {"ambiguous_between", kernel.ambiguous_between}});
  }
  doc["unmatched"] = {{"ncu", std::move(unmatched_ncu)}, {"report", comparison.unmatched_report}};

  const Tally t = tally(comparison);
  doc["summary"] = {{"compared", t.inside + t.outside},
                    {"inside_2sigma", t.inside},
                    {"outside_2sigma", t.outside},
                    {"no_measurement", t.no_measurement},
                    {"no_prediction", t.no_prediction}};
  return doc.dump(indent);
}

}  // namespace memcarlo::reports
