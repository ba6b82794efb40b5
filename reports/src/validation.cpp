// Gathering the Nsight Compute comparisons of several programs into the validation table (see
// validation.hpp).
#include "memcarlo/reports/validation.hpp"

#include <utility>

namespace memcarlo::reports {
namespace {

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.';
}

}  // namespace

ValidationCase parse_validation_case(std::string_view spec) {
  const std::string quoted = "\"" + std::string(spec) + "\"";
  const auto equals = spec.find('=');
  if (equals == std::string_view::npos) {
    throw CompareInputError("case " + quoted + ": expected NAME=REPORT.json,NCU.csv");
  }
  const std::string_view name = spec.substr(0, equals);
  const std::string_view files = spec.substr(equals + 1);
  if (name.empty()) {
    throw CompareInputError("case " + quoted + ": the name before '=' is empty");
  }
  for (const char c : name) {
    if (!name_char(c)) {
      throw CompareInputError("case " + quoted +
                              ": the name may hold letters, digits, '_', '-' "
                              "and '.', not '" +
                              std::string(1, c) + "'");
    }
  }
  const auto comma = files.find(',');
  if (comma == std::string_view::npos || files.find(',', comma + 1) != std::string_view::npos) {
    throw CompareInputError("case " + quoted +
                            ": expected NAME=REPORT.json,NCU.csv (two paths, one comma)");
  }
  ValidationCase out;
  out.name = std::string(name);
  out.report_path = std::string(files.substr(0, comma));
  out.ncu_path = std::string(files.substr(comma + 1));
  if (out.report_path.empty() || out.ncu_path.empty()) {
    throw CompareInputError("case " + quoted + ": a path is empty");
  }
  return out;
}

Validation build_validation(std::string device, std::vector<ValidatedCase> cases,
                            std::vector<FailedCase> failed) {
  Validation out;
  out.device = std::move(device);
  out.cases = std::move(cases);
  out.failed = std::move(failed);
  std::array<double, kComparedMetrics.size()> error_sums{};
  for (std::size_t m = 0; m < kComparedMetrics.size(); ++m) {
    out.metrics[m].metric = m;
  }
  for (const ValidatedCase& validated : out.cases) {
    for (const KernelComparison& kernel : validated.comparison.kernels) {
      for (const MetricComparison& metric : kernel.metrics) {
        out.rows.push_back({validated.input.name, kernel.report_kernel, metric});
        if (metric.verdict != Verdict::kInside && metric.verdict != Verdict::kOutside) {
          continue;
        }
        MetricAccuracy& accuracy = out.metrics[metric.metric];
        ++accuracy.judged;
        accuracy.inside += metric.verdict == Verdict::kInside ? 1 : 0;
        error_sums[metric.metric] += *metric.absolute_error;
      }
    }
  }
  for (std::size_t m = 0; m < kComparedMetrics.size(); ++m) {
    if (out.metrics[m].judged > 0) {
      out.metrics[m].mean_absolute_error = error_sums[m] / out.metrics[m].judged;
    }
  }
  return out;
}

Validation run_validation(std::string device, const std::vector<ValidationCase>& cases,
                          std::vector<FailedCase> failed) {
  std::vector<ValidatedCase> validated;
  for (const ValidationCase& input : cases) {
    try {
      validated.push_back({input, compare_with_ncu(read_report_predictions(input.report_path),
                                                   read_measurements(input.ncu_path))});
    } catch (const CompareInputError& e) {
      throw CompareInputError("case " + input.name + ": " + e.what());
    }
  }
  return build_validation(std::move(device), std::move(validated), std::move(failed));
}

}  // namespace memcarlo::reports
