// Reading a report's predictions (per kernel, or the overall figures of a single-kernel report),
// kernel-name matching and the verdicts against the 2σ band.
#include <cxxabi.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "checked_json.hpp"
#include "memcarlo/reports/ncu_compare.hpp"
#include "ncu_text.hpp"

namespace memcarlo::reports {
namespace {

using ncu_text::trim;
using nlohmann::json;

class ReportReader : public CheckedJson<CompareInputError> {
 public:
  using CheckedJson::CheckedJson;

  std::array<double, 2> interval(const json& value, const std::string& place) const {
    if (!value.is_array() || value.size() != 2) {
      fail(place, "expected [lo, hi], found " + value.dump());
    }
    return {number(value[0], place + "[0]"), number(value[1], place + "[1]")};
  }

  std::optional<analysis::Distribution> distribution(const json& value,
                                                     const std::string& place) const {
    if (value.is_null()) {
      return std::nullopt;
    }
    analysis::Distribution d;
    d.mean = number(member(value, place, "mean"), join(place, "mean"));
    d.stddev = number(member(value, place, "stddev"), join(place, "stddev"));
    const json& ci95 = member(value, place, "ci95");
    if (!ci95.is_null()) {
      d.ci95 = interval(ci95, join(place, "ci95"));
    }
    d.spread_2sigma = interval(member(value, place, "spread_2sigma"), join(place, "spread_2sigma"));
    if (value.contains("trials")) {
      d.count = count(value["trials"], join(place, "trials"));
    }
    if (value.contains("min") && value.contains("max")) {
      d.min = number(value["min"], join(place, "min"));
      d.max = number(value["max"], join(place, "max"));
    }
    return d;
  }

  void read_metrics(const json& overall, const std::string& place, PredictedKernel& kernel) const {
    for (std::size_t m = 0; m < kComparedMetrics.size(); ++m) {
      const char* key = kComparedMetrics[m].report_key.data();
      // Reports written before the ratio existed have its loads-only sibling.
      if (kComparedMetrics[m].report_key == "l1_sector_lookup_hit_ratio" && overall.is_object() &&
          !overall.contains(key) && overall.contains("l1_sector_read_hit_ratio")) {
        fail(join(place, key),
             "missing: the report was written by a memcarlo that did not count the L1 lookups of "
             "stores yet; simulate the trace again");
      }
      kernel.metrics[m] = distribution(member(overall, place, key), join(place, key));
    }
  }
};

bool identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::string demangled(std::string_view name) {
  if (!name.starts_with("_Z")) {
    return std::string(name);
  }
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(std::string(name).c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : std::string(name);
}

/// One space only between two identifier characters ("unsigned int"); none around punctuation,
/// so "float const *" and "float const*" compare equal.
std::string normalize_whitespace(std::string_view text) {
  std::string out;
  bool pending_space = false;
  for (const char c : text) {
    if (c == ' ' || c == '\t' || c == '\n') {
      pending_space = true;
      continue;
    }
    if (pending_space && !out.empty() && identifier_char(out.back()) && identifier_char(c)) {
      out.push_back(' ');
    }
    pending_space = false;
    out.push_back(c);
  }
  return out;
}

std::string strip_template_arguments(std::string_view name) {
  std::string out;
  int depth = 0;
  int parens = 0;
  for (const char c : name) {
    if (c == '(' && depth == 0) {
      ++parens;
    } else if (c == ')' && depth == 0 && parens > 0) {
      --parens;
    } else if (c == '<' && parens == 0) {
      ++depth;
      continue;
    } else if (c == '>' && parens == 0 && depth > 0) {
      --depth;
      continue;
    }
    if (depth == 0) {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

ReportPredictions parse_report_predictions(std::string_view json_text, const std::string& path) {
  json report;
  try {
    report = json::parse(json_text);
  } catch (const json::exception& e) {  // parse_error; out_of_range: a number beyond a double
    std::string message = e.what();
    const auto bracket = message.find("] ");
    throw CompareInputError(path + ": not a JSON report: " +
                            (bracket == std::string::npos ? message : message.substr(bracket + 2)));
  }
  const ReportReader reader(path);
  ReportPredictions out;
  out.path = path;
  const json& version = reader.member(report, "", "schema_version");
  if (!version.is_number_integer() || version.get<std::int64_t>() != kReadableReportSchema) {
    reader.fail("schema_version", "is " + version.dump() + "; this memcarlo reads report schema " +
                                      std::to_string(kReadableReportSchema));
  }
  const json& inputs = reader.member(report, "", "inputs");
  const json& hierarchy = reader.member(inputs, "inputs", "hierarchy");
  out.hierarchy =
      reader.text(reader.member(hierarchy, "inputs.hierarchy", "name"), "inputs.hierarchy.name");
  out.trials = reader.count(reader.member(inputs, "inputs", "trials"), "inputs.trials");

  if (report.contains("kernels") && !report["kernels"].is_null()) {
    const json& kernels = report["kernels"];
    if (!kernels.is_array()) {
      reader.fail("kernels", "expected an array of per-kernel results");
    }
    out.per_kernel = true;
    for (std::size_t k = 0; k < kernels.size(); ++k) {
      const std::string place = "kernels[" + std::to_string(k) + "]";
      PredictedKernel kernel;
      kernel.name = reader.text(reader.member(kernels[k], place, "kernel"), place + ".kernel");
      const json& launches = reader.member(kernels[k], place, "launches");
      if (!launches.is_array()) {
        reader.fail(place + ".launches", "expected an array of launch indices");
      }
      for (std::size_t l = 0; l < launches.size(); ++l) {
        kernel.launches.push_back(static_cast<std::uint32_t>(
            reader.count(launches[l], place + ".launches[" + std::to_string(l) + "]")));
      }
      reader.read_metrics(reader.member(kernels[k], place, "overall"), place + ".overall", kernel);
      out.kernels.push_back(std::move(kernel));
    }
    return out;
  }

  // No per-kernel section: the top-level figures describe one kernel only if every launch ran it.
  const json& launches = reader.member(inputs, "inputs", "launches");
  if (!launches.is_array() || launches.empty()) {
    reader.fail("inputs.launches", "expected a non-empty array of launches");
  }
  PredictedKernel kernel;
  std::vector<std::string> names;
  for (std::size_t l = 0; l < launches.size(); ++l) {
    const std::string place = "inputs.launches[" + std::to_string(l) + "]";
    const std::string name =
        reader.text(reader.member(launches[l], place, "kernel"), place + ".kernel");
    kernel.launches.push_back(static_cast<std::uint32_t>(
        reader.count(reader.member(launches[l], place, "index"), place + ".index")));
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      names.push_back(name);
    }
  }
  if (names.size() > 1) {
    std::string list;
    for (const std::string& name : names) {
      list += (list.empty() ? "" : ", ") + name;
    }
    throw CompareInputError(
        path + ": the report covers launches of " + std::to_string(names.size()) + " kernels (" +
        list +
        ") but has no per-kernel \"kernels\" section, so its overall figures cannot be "
        "attributed to one kernel; simulate one kernel's launches (memcarlo simulate --launch I) "
        "and compare that report");
  }
  kernel.name = names.front();
  reader.read_metrics(reader.member(report, "", "overall"), "overall", kernel);
  out.kernels.push_back(std::move(kernel));
  return out;
}

ReportPredictions read_report_predictions(const std::string& path) {
  return parse_report_predictions(read_report_file<CompareInputError>(path), path);
}

std::string kernel_signature_name(std::string_view name) {
  std::string text = normalize_whitespace(trim(demangled(trim(name))));
  // The parameter list: the parenthesised group that closes the name.
  if (!text.empty() && text.back() == ')') {
    int depth = 0;
    for (std::size_t i = text.size(); i-- > 0;) {
      depth += text[i] == ')' ? 1 : text[i] == '(' ? -1 : 0;
      if (depth == 0) {
        if (i > 0) {
          text.resize(i);
        }
        break;
      }
    }
  }
  // The return type: whatever precedes the last space outside brackets ("void ns::k<int>").
  int depth = 0;
  std::size_t name_start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    depth += (c == '<' || c == '(') ? 1 : (c == '>' || c == ')') ? -1 : 0;
    if (c == ' ' && depth == 0) {
      name_start = i + 1;
    }
  }
  return text.substr(name_start);
}

std::string kernel_base_name(std::string_view name) {
  const std::string signature = kernel_signature_name(name);
  const std::string untemplated = strip_template_arguments(signature);
  const auto scope = untemplated.rfind("::");
  const std::string base = scope == std::string::npos ? untemplated : untemplated.substr(scope + 2);
  return base.empty() ? signature : base;
}

NcuComparison compare_with_ncu(const ReportPredictions& report, const NcuMeasurements& ncu) {
  NcuComparison out;
  out.report_path = report.path;
  out.ncu_path = ncu.path;
  out.layout = ncu.layout;
  out.hierarchy = report.hierarchy;
  out.trials = report.trials;
  out.per_kernel_report = report.per_kernel;

  const auto key = [](MatchRule rule, std::string_view name) {
    switch (rule) {
      case MatchRule::kExact:
        return std::string(trim(name));
      case MatchRule::kSignature:
        return kernel_signature_name(name);
      case MatchRule::kBaseName:
        return kernel_base_name(name);
    }
    return std::string(name);
  };
  constexpr std::array kRules{MatchRule::kExact, MatchRule::kSignature, MatchRule::kBaseName};
  std::vector<std::array<std::string, kRules.size()>> report_keys(report.kernels.size());
  for (std::size_t r = 0; r < report.kernels.size(); ++r) {
    for (std::size_t rule = 0; rule < kRules.size(); ++rule) {
      report_keys[r][rule] = key(kRules[rule], report.kernels[r].name);
    }
  }

  std::vector<std::vector<std::size_t>> matched(report.kernels.size());
  std::vector<MatchRule> loosest(report.kernels.size(), MatchRule::kExact);
  for (std::size_t n = 0; n < ncu.kernels.size(); ++n) {
    std::vector<std::size_t> candidates;
    MatchRule used = MatchRule::kExact;
    for (std::size_t rule = 0; rule < kRules.size() && candidates.empty(); ++rule) {
      const std::string ncu_key = key(kRules[rule], ncu.kernels[n].name);
      for (std::size_t r = 0; r < report.kernels.size(); ++r) {
        if (!ncu_key.empty() && report_keys[r][rule] == ncu_key) {
          candidates.push_back(r);
        }
      }
      used = kRules[rule];
    }
    if (candidates.size() == 1) {
      matched[candidates[0]].push_back(n);
      loosest[candidates[0]] = std::max(loosest[candidates[0]], used);
      continue;
    }
    UnmatchedNcuKernel unmatched{ncu.kernels[n].name, ncu.kernels[n].launches, {}};
    for (const std::size_t r : candidates) {
      unmatched.ambiguous_between.push_back(report.kernels[r].name);
    }
    out.unmatched_ncu.push_back(std::move(unmatched));
  }

  for (std::size_t r = 0; r < report.kernels.size(); ++r) {
    const PredictedKernel& predicted = report.kernels[r];
    if (matched[r].empty()) {
      out.unmatched_report.push_back(predicted.name);
      continue;
    }
    KernelComparison kernel;
    kernel.report_kernel = predicted.name;
    kernel.report_launches = predicted.launches;
    kernel.match = loosest[r];
    for (const std::size_t n : matched[r]) {
      kernel.ncu_kernels.push_back(ncu.kernels[n].name);
      kernel.ncu_launches += ncu.kernels[n].launches;
    }
    for (std::size_t m = 0; m < kComparedMetrics.size(); ++m) {
      MetricComparison metric;
      metric.metric = m;
      metric.predicted = predicted.metrics[m];
      double sum = 0;
      for (const std::size_t n : matched[r]) {
        for (const double value : ncu.kernels[n].percent[m]) {
          sum += value;
          ++metric.measured_launches;
        }
      }
      if (metric.measured_launches > 0) {
        metric.measured = sum / metric.measured_launches / 100.0;  // Nsight percent -> ratio
      }
      double hit_only_sum = 0;
      std::uint32_t hit_only_launches = 0;
      for (const std::size_t n : matched[r]) {
        for (const double value : ncu.kernels[n].hit_only_percent[m]) {
          hit_only_sum += value;
          ++hit_only_launches;
        }
      }
      if (hit_only_launches > 0) {
        metric.measured_hit_only = hit_only_sum / hit_only_launches / 100.0;
      }
      if (!metric.measured) {
        metric.verdict = Verdict::kNoMeasurement;
      } else if (!metric.predicted) {
        metric.verdict = Verdict::kNoPrediction;
      } else {
        metric.absolute_error = std::fabs(*metric.measured - metric.predicted->mean);
        // A tolerance of 1e-12 keeps a measurement equal to a band edge inside despite rounding.
        const auto& band = metric.predicted->spread_2sigma;
        metric.verdict = *metric.measured >= band[0] - 1e-12 && *metric.measured <= band[1] + 1e-12
                             ? Verdict::kInside
                             : Verdict::kOutside;
      }
      kernel.metrics.push_back(std::move(metric));
    }
    out.kernels.push_back(std::move(kernel));
  }
  return out;
}

std::string_view to_string(NcuCsvLayout layout) {
  switch (layout) {
    case NcuCsvLayout::kDetails:
      return "details";
    case NcuCsvLayout::kRaw:
      return "raw";
    case NcuCsvLayout::kAccelsim:
      return "accelsim";
  }
  return "?";
}

std::string_view to_string(MatchRule rule) {
  switch (rule) {
    case MatchRule::kExact:
      return "exact";
    case MatchRule::kSignature:
      return "signature";
    case MatchRule::kBaseName:
      return "base_name";
  }
  return "?";
}

std::string_view to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::kInside:
      return "inside";
    case Verdict::kOutside:
      return "outside";
    case Verdict::kNoMeasurement:
      return "no_measurement";
    case Verdict::kNoPrediction:
      return "no_prediction";
  }
  return "?";
}

}  // namespace memcarlo::reports
