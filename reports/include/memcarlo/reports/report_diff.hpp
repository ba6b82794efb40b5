// Two reports of the same program side by side (before and after a code change, or two
// hierarchies): loads matched by their place in the source, per load and per overall and kernel
// metric the two means, the change and whether it is significant by Welch's t-test on the
// per-trial distributions the reports hold (analysis/mean_difference.hpp). Plain structs; printers
// apart.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "memcarlo/analysis/mean_difference.hpp"

namespace memcarlo::reports {

/// Version of the `memcarlo diff --json` document.
inline constexpr int kDiffSchemaVersion = 1;

/// A report that cannot be read; what() names the file and the JSON key and what was expected.
class DiffInputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What a report says about its inputs.
struct DiffSide {
  std::string path;
  std::string producer;
  std::string trace;
  std::string trace_sha256;
  std::string hierarchy;
  std::vector<std::pair<std::string, std::string>> parameters;  // key, value as JSON text
  std::uint64_t seed = 0;
  std::uint64_t trials = 0;
  std::string stop_rule;  // JSON text ("null" without one)
};

/// An input on which the reports differ: "trace_sha256", "hierarchy.name",
/// "hierarchy.parameters.l1.size", "seed", "trials", "stop_rule", "producer"; values as text.
struct InputDifference {
  std::string input;
  std::string a;
  std::string b;
};

/// One metric in both reports. `a` / `b` are empty where that report has null (the level saw no
/// such access) or no such load.
struct MetricDiff {
  std::string metric;  // the report's key; "cycles" is requests x latency_cycles
  std::optional<analysis::SampleMoments> a;
  std::optional<analysis::SampleMoments> b;
  std::optional<analysis::MeanDifference> change;  // when both are present
  std::optional<double> relative_change;           // change / |mean a|, when mean a != 0
};

/// Where a load is in the source and what it is: the matching key.
struct LoadIdentity {
  std::uint32_t id = 0;  // within its report
  std::string file;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::string expression;
  std::string kind;
  std::vector<std::string> kernels;
  std::uint64_t requests = 0;
  double transactions_per_request = 0;
};

enum class LoadMatch {
  kExact,  // same file, line, column, expression, kind and kernels
  kMoved,  // same file name, expression, kind and kernels, other line or column; the only such
           // load left unmatched in either report (an edit above it moved it)
};

struct LoadDiff {
  LoadIdentity a;
  LoadIdentity b;
  LoadMatch match = LoadMatch::kExact;
  std::vector<MetricDiff> metrics;
};

struct KernelDiff {
  std::string kernel;
  std::vector<MetricDiff> metrics;
};

struct ReportDiff {
  DiffSide a;
  DiffSide b;
  std::vector<InputDifference> input_differences;
  double level = 0.95;
  std::vector<MetricDiff> overall;
  std::vector<KernelDiff> kernels;  // kernels in both, in A's order
  std::vector<std::string> kernels_only_in_a;
  std::vector<std::string> kernels_only_in_b;
  std::vector<LoadDiff> loads;  // in A's order
  std::vector<LoadIdentity> only_in_a;
  std::vector<LoadIdentity> only_in_b;
};

/// Reads two reports (schema version 1) and compares them. `path_a` / `path_b` label messages.
/// Throws DiffInputError naming the file and the key for anything that is not a report.
ReportDiff diff_reports(std::string_view json_a, const std::string& path_a, std::string_view json_b,
                        const std::string& path_b);
ReportDiff read_and_diff_reports(const std::string& path_a, const std::string& path_b);

std::string_view to_string(LoadMatch match);

/// The comparison for a terminal: inputs, then overall, per-kernel and per-load metrics.
void print_diff(std::ostream& out, const ReportDiff& diff);
/// The same as a versioned JSON document, pretty-printed with `indent` (-1: one line).
std::string diff_json(const ReportDiff& diff, int indent = 2);

}  // namespace memcarlo::reports
