// Printers of a validation: the terminal table (percentages) and validation.json (ratios).
#include <algorithm>
#include <nlohmann/json.hpp>

#include "memcarlo/reports/validation.hpp"
#include "ncu_text.hpp"
#include "text_columns.hpp"

namespace memcarlo::reports {
namespace {

using ncu_text::percent;
using ncu_text::plural;
using ncu_text::quoted;
using nlohmann::ordered_json;

using text::columns;  // "σ" takes one column

std::string left(std::string_view text, std::size_t width) {
  return text::padded(std::string(text), width, false);
}

std::string right(std::string_view text, std::size_t width) {
  return text::padded(std::string(text), width, true);
}

std::string verdict_text(Verdict verdict) {
  switch (verdict) {
    case Verdict::kInside:
      return "yes";
    case Verdict::kOutside:
      return "NO";
    case Verdict::kNoMeasurement:
      return "- (no measurement)";
    case Verdict::kNoPrediction:
      return "- (no prediction)";
  }
  return "?";
}

ordered_json optional_number(const std::optional<double>& value) {
  return value ? ordered_json(*value) : ordered_json();
}

ordered_json unmatched_json(const NcuComparison& comparison) {
  ordered_json ncu = ordered_json::array();
  for (const UnmatchedNcuKernel& kernel : comparison.unmatched_ncu) {
    ncu.push_back({{"kernel", kernel.name},
                   {"launches", kernel.launches},
                   {"ambiguous_between", kernel.ambiguous_between}});
  }
  return {{"ncu", std::move(ncu)}, {"report", comparison.unmatched_report}};
}

struct Totals {
  std::uint32_t judged = 0;
  std::uint32_t inside = 0;
  std::uint32_t traces_differ = 0;
};

Totals totals(const Validation& validation) {
  Totals t;
  for (const MetricAccuracy& accuracy : validation.metrics) {
    t.judged += accuracy.judged;
    t.inside += accuracy.inside;
  }
  for (const ValidatedCase& validated : validation.cases) {
    t.traces_differ += validated.input.traces_agree == false ? 1 : 0;
  }
  return t;
}

/// Whom the measurements come from: Accel-Sim when every case was measured by it.
std::string reference_of(const Validation& validation) {
  const bool accelsim =
      !validation.cases.empty() &&
      std::all_of(validation.cases.begin(), validation.cases.end(), [](const ValidatedCase& c) {
        return c.comparison.layout == NcuCsvLayout::kAccelsim;
      });
  return accelsim ? "Accel-Sim" : "Nsight Compute";
}

/// Accel-Sim's own hit rates (in-flight hits not counted), where the measurements have them.
void print_hit_only(std::ostream& out, const Validation& validation, std::size_t case_width,
                    std::size_t kernel_width, std::size_t metric_width) {
  bool any = false;
  for (const ValidationRow& row : validation.rows) {
    any = any || row.comparison.measured_hit_only.has_value();
  }
  if (!any) {
    return;
  }
  out << "\nAccel-Sim's own count: HIT / (HIT + HIT_RESERVED + MISS + SECTOR_MISS), a hit on a "
         "sector still\nbeing filled (HIT_RESERVED) counted as no hit; the table above counts it "
         "as a hit, as memcarlo\ndoes. Accel-Sim also counts global atomics as L2 reads, memcarlo "
         "(like Nsight Compute) does not\n(docs/accelsim.md):\n";
  for (const ValidationRow& row : validation.rows) {
    if (row.comparison.measured_hit_only) {
      out << "  " << left(row.case_name, case_width) << "  " << left(row.kernel, kernel_width)
          << "  " << left(kComparedMetrics[row.comparison.metric].label, metric_width)
          << right(percent(*row.comparison.measured_hit_only), 9) << "\n";
    }
  }
}

}  // namespace

void print_validation(std::ostream& out, const Validation& validation) {
  out << "memcarlo validation" << (validation.device.empty() ? "" : " on " + validation.device)
      << ": " << plural(validation.cases.size(), "program") << " compared with "
      << reference_of(validation) << "\n"
      << "Percentages. measured: " << reference_of(validation)
      << "'s mean over the launches that had a value; "
         "predicted: the\nreport's mean; |error|: |measured - predicted|; in 2σ band: the "
         "measurement lies in [mean - 2σ,\nmean + 2σ] of single-trial predictions (paper "
         "§5.2).\n\n";

  std::size_t case_width = columns("program");
  std::size_t kernel_width = columns("kernel");
  for (const ValidationRow& row : validation.rows) {
    case_width = std::max(case_width, columns(row.case_name));
    kernel_width = std::max(kernel_width, columns(row.kernel));
  }
  constexpr std::size_t kMetricWidth = 25;
  constexpr std::size_t kNumberWidth = 9;
  constexpr std::size_t kBandWidth = 16;
  out << "  " << left("program", case_width) << "  " << left("kernel", kernel_width) << "  "
      << left("metric", kMetricWidth) << right("measured", kNumberWidth)
      << right("predicted", kNumberWidth + 1) << right("|error|", kNumberWidth) << "  "
      << left("2σ band", kBandWidth) << "  in 2σ band\n";
  for (const ValidationRow& row : validation.rows) {
    const MetricComparison& metric = row.comparison;
    const auto& predicted = metric.predicted;
    const std::string band = predicted ? "[" + percent(predicted->spread_2sigma[0]) + ", " +
                                             percent(predicted->spread_2sigma[1]) + "]"
                                       : "-";
    out << "  " << left(row.case_name, case_width) << "  " << left(row.kernel, kernel_width) << "  "
        << left(kComparedMetrics[metric.metric].label, kMetricWidth)
        << right(metric.measured ? percent(*metric.measured) : "n/a", kNumberWidth)
        << right(predicted ? percent(predicted->mean) : "null", kNumberWidth + 1)
        << right(metric.absolute_error ? percent(*metric.absolute_error) : "-", kNumberWidth)
        << "  " << left(band, kBandWidth) << "  " << verdict_text(metric.verdict) << "\n";
  }
  if (validation.rows.empty()) {
    out << "  (no kernel was compared)\n";
  }
  print_hit_only(out, validation, case_width, kernel_width, kMetricWidth);

  out << "\nMean absolute error per metric over the judged rows (percentage points):\n";
  for (const MetricAccuracy& accuracy : validation.metrics) {
    out << "  " << left(kComparedMetrics[accuracy.metric].label, kMetricWidth)
        << right(accuracy.mean_absolute_error ? percent(*accuracy.mean_absolute_error) : "-", 7)
        << "  (";
    if (accuracy.judged == 0) {
      out << "no row judged)\n";
    } else {
      out << accuracy.judged << " judged, " << accuracy.inside << " inside the 2σ band)\n";
    }
  }

  out << "\nPrograms:\n";
  for (const ValidatedCase& validated : validation.cases) {
    const NcuComparison& c = validated.comparison;
    out << "  " << validated.input.name << ": report " << c.report_path << " (hierarchy "
        << c.hierarchy << ", " << plural(c.trials, "trial") << "), ";
    if (c.layout == NcuCsvLayout::kAccelsim) {
      out << "Accel-Sim " << c.ncu_path;
    } else {
      out << "Nsight Compute " << c.ncu_path << " (" << to_string(c.layout) << " page)";
    }
    if (validated.input.traces_agree) {
      out << "; host and GPU traces " << (*validated.input.traces_agree ? "agree" : "DIFFER");
    }
    out << "\n";
    for (const UnmatchedNcuKernel& kernel : c.unmatched_ncu) {
      out << "    Nsight Compute kernel without a report kernel: " << quoted(kernel.name) << " ("
          << plural(kernel.launches, "launch");
      for (std::size_t i = 0; i < kernel.ambiguous_between.size(); ++i) {
        out << (i == 0 ? "; ambiguous between " : ", ") << quoted(kernel.ambiguous_between[i]);
      }
      out << ")\n";
    }
    for (const std::string& name : c.unmatched_report) {
      out << "    report kernel without Nsight Compute rows: " << quoted(name) << "\n";
    }
  }
  if (validation.cases.empty()) {
    out << "  (none)\n";
  }
  if (!validation.failed.empty()) {
    out << "\nNot validated:\n";
    for (const FailedCase& failed : validation.failed) {
      out << "  " << failed.name << ": " << failed.reason << "\n";
    }
  }

  const Totals t = totals(validation);
  out << "\n"
      << plural(validation.rows.size(), "row") << ", " << t.judged << " judged: " << t.inside
      << " inside the 2σ band, " << t.judged - t.inside << " outside; " << validation.cases.size()
      << " validated, " << validation.failed.size() << " not validated";
  if (t.traces_differ > 0) {
    out << "; " << t.traces_differ << " with host and GPU traces that differ";
  }
  out << "\n";
}

std::string validation_json(const Validation& validation, int indent) {
  ordered_json doc;
  doc["schema_version"] = kValidationSchemaVersion;
  doc["producer"] = std::string("memcarlo ") + MEMCARLO_VERSION;
  doc["units"] = "ratio";
  doc["inside_means"] =
      "the measurement lies within spread_2sigma, [mean - 2 stddev, mean + 2 stddev] of "
      "single-trial predictions (paper §5.2)";
  doc["device"] = validation.device.empty() ? ordered_json() : ordered_json(validation.device);

  ordered_json cases = ordered_json::array();
  for (const ValidatedCase& validated : validation.cases) {
    const NcuComparison& c = validated.comparison;
    ordered_json entry;
    entry["name"] = validated.input.name;
    entry["report"] = c.report_path;
    entry["ncu"] = c.ncu_path;
    entry["ncu_layout"] = to_string(c.layout);
    entry["hierarchy"] = c.hierarchy;
    entry["trials"] = c.trials;
    entry["traces_agree"] =
        validated.input.traces_agree ? ordered_json(*validated.input.traces_agree) : ordered_json();
    entry["kernels_compared"] = c.kernels.size();
    entry["unmatched"] = unmatched_json(c);
    cases.push_back(std::move(entry));
  }
  doc["cases"] = std::move(cases);

  ordered_json failed = ordered_json::array();
  for (const FailedCase& f : validation.failed) {
    failed.push_back({{"name", f.name}, {"reason", f.reason}});
  }
  doc["failed_cases"] = std::move(failed);

  ordered_json rows = ordered_json::array();
  for (const ValidationRow& row : validation.rows) {
    const MetricComparison& metric = row.comparison;
    const auto& predicted = metric.predicted;
    ordered_json entry;
    entry["case"] = row.case_name;
    entry["kernel"] = row.kernel;
    entry["ncu_metric"] = kComparedMetrics[metric.metric].ncu_metric;
    entry["report_metric"] = kComparedMetrics[metric.metric].report_key;
    entry["measured"] = optional_number(metric.measured);
    entry["measured_launches"] = metric.measured_launches;
    if (metric.measured_hit_only) {
      entry["measured_hit_only"] = *metric.measured_hit_only;  // Accel-Sim: HIT alone
    }
    entry["predicted"] = predicted ? ordered_json(predicted->mean) : ordered_json();
    entry["predicted_stddev"] = predicted ? ordered_json(predicted->stddev) : ordered_json();
    entry["spread_2sigma"] =
        predicted ? ordered_json::array({predicted->spread_2sigma[0], predicted->spread_2sigma[1]})
                  : ordered_json();
    entry["absolute_error"] = optional_number(metric.absolute_error);
    entry["inside_2sigma"] = metric.verdict == Verdict::kInside    ? ordered_json(true)
                             : metric.verdict == Verdict::kOutside ? ordered_json(false)
                                                                   : ordered_json();
    entry["verdict"] = to_string(metric.verdict);
    rows.push_back(std::move(entry));
  }
  doc["rows"] = std::move(rows);

  ordered_json metrics = ordered_json::array();
  for (const MetricAccuracy& accuracy : validation.metrics) {
    metrics.push_back({{"ncu_metric", kComparedMetrics[accuracy.metric].ncu_metric},
                       {"report_metric", kComparedMetrics[accuracy.metric].report_key},
                       {"judged", accuracy.judged},
                       {"inside_2sigma", accuracy.inside},
                       {"mean_absolute_error", optional_number(accuracy.mean_absolute_error)}});
  }
  doc["metrics"] = std::move(metrics);

  const Totals t = totals(validation);
  doc["summary"] = {{"cases", validation.cases.size()},
                    {"failed_cases", validation.failed.size()},
                    {"traces_differ", t.traces_differ},
                    {"rows", validation.rows.size()},
                    {"judged", t.judged},
                    {"inside_2sigma", t.inside},
                    {"outside_2sigma", t.judged - t.inside}};
  return doc.dump(indent);
}

}  // namespace memcarlo::reports
