// Fidelity on a real GPU: the Nsight Compute comparisons (compare_with_ncu) of several programs
// gathered into one table of (program, kernel, metric) rows, with the mean absolute error per
// metric. `memcarlo validate` prints it and writes validation.json; scripts/validate-gpu.sh feeds
// it. Plain structs; printers apart.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "memcarlo/reports/ncu_compare.hpp"

namespace memcarlo::reports {

/// Version of the validation.json document.
inline constexpr int kValidationSchemaVersion = 1;

/// One program to validate: the report memcarlo simulated from its trace and the Nsight Compute
/// CSV measured on the GPU.
struct ValidationCase {
  std::string name;
  std::string report_path;
  std::string ncu_path;
  /// Whether the host backend's and the cuda backend's traces agreed (`memcarlo trace compare`);
  /// nullopt when that was not checked.
  std::optional<bool> traces_agree;
};

/// Parses "NAME=REPORT.json,NCU.csv". NAME is letters, digits, '_', '-' and '.'; the paths may not
/// contain commas. Throws CompareInputError saying what was expected.
ValidationCase parse_validation_case(std::string_view spec);

/// A program that could not be validated (its build, run or measurement failed), and why.
struct FailedCase {
  std::string name;
  std::string reason;
};

/// A case with its comparison.
struct ValidatedCase {
  ValidationCase input;
  NcuComparison comparison;
};

/// One (program, kernel, metric) of the table: the comparison of that metric, as compare_with_ncu
/// judged it.
struct ValidationRow {
  std::string case_name;
  std::string kernel;
  MetricComparison comparison;
};

/// Per compared metric, over the rows that were judged (a measurement and a prediction).
struct MetricAccuracy {
  std::size_t metric = 0;  // index into kComparedMetrics
  std::uint32_t judged = 0;
  std::uint32_t inside = 0;  // measurements inside the 2σ band
  /// Mean of |measured - predicted mean| over the judged rows; nullopt when none was judged.
  std::optional<double> mean_absolute_error;
};

struct Validation {
  std::string device;  // the GPU's name; empty when not given
  std::vector<ValidatedCase> cases;
  std::vector<FailedCase> failed;
  std::vector<ValidationRow> rows;  // by case, then kernel (report order), then metric
  std::array<MetricAccuracy, kComparedMetrics.size()> metrics{};
};

/// Gathers already computed comparisons into rows and per-metric accuracies.
Validation build_validation(std::string device, std::vector<ValidatedCase> cases,
                            std::vector<FailedCase> failed);

/// Reads every case's report and CSV (read_report_predictions, read_ncu_csv), compares them
/// (compare_with_ncu) and gathers the result. Throws CompareInputError naming the case, the file
/// and the place when an input cannot be read.
Validation run_validation(std::string device, const std::vector<ValidationCase>& cases,
                          std::vector<FailedCase> failed);

/// The table (percentages), the mean absolute error per metric, then the cases' notes.
void print_validation(std::ostream& out, const Validation& validation);
/// validation.json (ratios), pretty-printed with `indent` (-1: one line); keys in
/// docs/ncu-compare.md.
std::string validation_json(const Validation& validation, int indent = 2);

}  // namespace memcarlo::reports
