// Reading two reports, matching their loads and kernels, and testing each metric's change.
#include "memcarlo/reports/report_diff.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>

#include "checked_json.hpp"
#include "memcarlo/analysis/metrics.hpp"

namespace memcarlo::reports {
namespace {

using nlohmann::json;

using Metrics = std::vector<std::pair<std::string, std::optional<analysis::SampleMoments>>>;

struct ParsedLoad {
  LoadIdentity identity;
  Metrics metrics;
};

struct ParsedReport {
  DiffSide side;
  Metrics overall;
  std::vector<std::pair<std::string, Metrics>> kernels;
  std::vector<ParsedLoad> loads;
};

/// Reads one report, naming the file and the key of the first thing that is not as expected.
class Reader : public CheckedJson<DiffInputError> {
 public:
  using CheckedJson::CheckedJson;

  std::uint32_t count32(const json& value, const std::string& place) const {
    const std::uint64_t n = count(value, place);
    if (n > UINT32_MAX) {
      fail(place, "expected a 32-bit integer, found " + value.dump());
    }
    return static_cast<std::uint32_t>(n);
  }

  std::optional<analysis::SampleMoments> moments(const json& value,
                                                 const std::string& place) const {
    if (value.is_null()) {
      return std::nullopt;
    }
    analysis::SampleMoments m;
    m.mean = number(member(value, place, "mean"), join(place, "mean"));
    m.stddev = number(member(value, place, "stddev"), join(place, "stddev"));
    m.count = count(member(value, place, "trials"), join(place, "trials"));
    if (m.stddev < 0) {
      fail(join(place, "stddev"),
           "expected a standard deviation (>= 0), found " + std::to_string(m.stddev));
    }
    return m;
  }

  /// The metrics of the table in `scope` (a load's, or an aggregate's: `overall`, each
  /// `kernels[].overall`), in table order. A metric the report lacks is absent on its side: the
  /// report was written before the table had the line (l1_sector_lookup_hit_ratio, added to
  /// schema 1 later than the rest, or any line added since), or, for a counter group's metric,
  /// by a run that did not enable the group; the latter is left out of the list.
  Metrics metrics(const json& object, const std::string& place,
                  analysis::MetricScope scope) const {
    Metrics out;
    for (const analysis::Metric& metric : analysis::metric_table()) {
      if (!analysis::in_scope(metric.scope, scope)) {
        continue;
      }
      const std::string key(metric.name);
      if (object.is_object() && !object.contains(key)) {
        if (metric.group == nullptr) {
          out.emplace_back(key, std::nullopt);
        }
        continue;
      }
      out.emplace_back(key, moments(member(object, place, key), join(place, key)));
    }
    return out;
  }

  ParsedReport report(std::string_view json_text) const {
    json document;
    try {
      document = json::parse(json_text);
    } catch (const json::exception& e) {  // parse_error; out_of_range: a number beyond a double
      std::string message = e.what();
      const auto bracket = message.find("] ");
      fail("", "not a JSON report: " +
                   (bracket == std::string::npos ? message : message.substr(bracket + 2)));
    }
    const json& version = member(document, "", "schema_version");
    if (!version.is_number_integer() || version.get<std::int64_t>() != kReadableReportSchema) {
      fail("schema_version", "is " + version.dump() + "; this memcarlo reads report schema " +
                                 std::to_string(kReadableReportSchema));
    }
    ParsedReport out;
    out.side.path = path();
    if (document.contains("producer")) {
      out.side.producer = text(document["producer"], "producer");
    }
    read_inputs(member(document, "", "inputs"), out.side);
    out.overall =
        metrics(member(document, "", "overall"), "overall", analysis::MetricScope::kAggregate);
    if (document.contains("kernels")) {
      const json& kernels = document["kernels"];
      if (!kernels.is_array()) {
        fail("kernels", "expected an array, found " + kernels.dump());
      }
      for (std::size_t k = 0; k < kernels.size(); ++k) {
        const std::string place = "kernels[" + std::to_string(k) + "]";
        out.kernels.emplace_back(
            text(member(kernels[k], place, "kernel"), join(place, "kernel")),
            metrics(member(kernels[k], place, "overall"), join(place, "overall"),
                    analysis::MetricScope::kAggregate));
      }
    }
    const json& loads = member(document, "", "loads");
    if (!loads.is_array()) {
      fail("loads", "expected an array, found " + loads.dump());
    }
    for (std::size_t i = 0; i < loads.size(); ++i) {
      out.loads.push_back(load(loads[i], "loads[" + std::to_string(i) + "]"));
    }
    return out;
  }

 private:
  void read_inputs(const json& inputs, DiffSide& side) const {
    side.trace = text(member(inputs, "inputs", "trace"), "inputs.trace");
    side.trace_sha256 = text(member(inputs, "inputs", "trace_sha256"), "inputs.trace_sha256");
    const json& hierarchy = member(inputs, "inputs", "hierarchy");
    side.hierarchy = text(member(hierarchy, "inputs.hierarchy", "name"), "inputs.hierarchy.name");
    const json& parameters = member(hierarchy, "inputs.hierarchy", "parameters");
    if (!parameters.is_object()) {
      fail("inputs.hierarchy.parameters", "expected an object, found " + parameters.dump());
    }
    for (auto it = parameters.begin(); it != parameters.end(); ++it) {
      side.parameters.emplace_back(it.key(), it->dump());
    }
    side.seed = count(member(inputs, "inputs", "seed"), "inputs.seed");
    side.trials = count(member(inputs, "inputs", "trials"), "inputs.trials");
    side.stop_rule = inputs.contains("stop_rule") ? inputs["stop_rule"].dump() : "null";
  }

  ParsedLoad load(const json& value, const std::string& place) const {
    ParsedLoad out;
    LoadIdentity& id = out.identity;
    id.id = count32(member(value, place, "id"), join(place, "id"));
    id.file = text(member(value, place, "file"), join(place, "file"));
    id.line = count32(member(value, place, "line"), join(place, "line"));
    id.column = count32(member(value, place, "column"), join(place, "column"));
    id.expression = text(member(value, place, "expression"), join(place, "expression"));
    id.kind = text(member(value, place, "kind"), join(place, "kind"));
    const json& kernels = member(value, place, "kernels");
    if (!kernels.is_array()) {
      fail(join(place, "kernels"), "expected an array of kernel names, found " + kernels.dump());
    }
    for (std::size_t k = 0; k < kernels.size(); ++k) {
      id.kernels.push_back(text(kernels[k], join(place, "kernels[" + std::to_string(k) + "]")));
    }
    id.requests = count(member(value, place, "requests"), join(place, "requests"));
    id.transactions_per_request = number(member(value, place, "transactions_per_request"),
                                         join(place, "transactions_per_request"));
    out.metrics = metrics(value, place, analysis::MetricScope::kLoad);
    // The cycles the load's warps wait for it: requests x X, a constant times each trial's X.
    std::optional<analysis::SampleMoments> cycles;
    for (const auto& [key, m] : out.metrics) {
      if (key == std::string_view("latency_cycles") && m) {
        const auto r = static_cast<double>(id.requests);
        cycles = analysis::SampleMoments{m->mean * r, m->stddev * r, m->count};
      }
    }
    out.metrics.emplace_back("cycles", cycles);
    return out;
  }
};

/// The metrics of either side by name, A's in order, then those only B has (a counter group's
/// metrics when only B's run enabled the group); a metric one side lacks is empty there.
std::vector<MetricDiff> compare(const Metrics& a, const Metrics& b, double level) {
  const auto value_in = [](const Metrics& side, const std::string& name) {
    const auto it = std::find_if(side.begin(), side.end(),
                                 [&](const auto& metric) { return metric.first == name; });
    return it == side.end() ? std::nullopt : it->second;
  };
  std::vector<MetricDiff> out;
  for (const auto& [name, value] : a) {
    out.push_back({name, value, value_in(b, name), std::nullopt, std::nullopt});
  }
  for (const auto& [name, value] : b) {
    if (std::none_of(a.begin(), a.end(), [&](const auto& metric) { return metric.first == name; })) {
      out.push_back({name, std::nullopt, value, std::nullopt, std::nullopt});
    }
  }
  for (MetricDiff& d : out) {
    if (d.a && d.b) {
      d.change = analysis::welch_test(*d.a, *d.b, level);
      if (d.a->mean != 0) {
        d.relative_change = (d.b->mean - d.a->mean) / std::abs(d.a->mean);
      }
    }
  }
  return out;
}

std::vector<InputDifference> input_differences(const DiffSide& a, const DiffSide& b) {
  std::vector<InputDifference> out;
  const auto differ = [&](const std::string& input, const std::string& va, const std::string& vb) {
    if (va != vb) {
      out.push_back({input, va, vb});
    }
  };
  differ("producer", a.producer, b.producer);
  differ("trace_sha256", a.trace_sha256, b.trace_sha256);
  differ("hierarchy.name", a.hierarchy, b.hierarchy);
  // Every parameter either report sets, in A's order then B's extra ones; the name is above and
  // the description is free text.
  std::map<std::string, std::string> in_b(b.parameters.begin(), b.parameters.end());
  std::set<std::string> seen;
  for (const auto& [key, value] : a.parameters) {
    seen.insert(key);
    if (key == "name" || key == "description") {
      continue;
    }
    const auto it = in_b.find(key);
    differ("hierarchy.parameters." + key, value, it == in_b.end() ? "(absent)" : it->second);
  }
  for (const auto& [key, value] : b.parameters) {
    if (!seen.contains(key) && key != "name" && key != "description") {
      differ("hierarchy.parameters." + key, "(absent)", value);
    }
  }
  differ("seed", std::to_string(a.seed), std::to_string(b.seed));
  differ("trials", std::to_string(a.trials), std::to_string(b.trials));
  differ("stop_rule", a.stop_rule, b.stop_rule);
  return out;
}

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

using ExactKey = std::tuple<std::string, std::uint32_t, std::uint32_t, std::string, std::string,
                            std::vector<std::string>>;
using MovedKey = std::tuple<std::string, std::string, std::string, std::vector<std::string>>;

ExactKey exact_key(const LoadIdentity& l) {
  return {l.file, l.line, l.column, l.expression, l.kind, l.kernels};
}
MovedKey moved_key(const LoadIdentity& l) {
  return {base_name(l.file), l.expression, l.kind, l.kernels};
}

/// Pairs A's loads with B's: first by the exact key (repeated keys pair in report order), then
/// what is left by the moved key where it is unique on both sides.
void match_loads(const ParsedReport& a, const ParsedReport& b, ReportDiff& diff) {
  std::vector<std::optional<std::size_t>> partner(a.loads.size());
  std::vector<bool> taken(b.loads.size(), false);
  std::map<ExactKey, std::vector<std::size_t>> by_exact;
  for (std::size_t j = 0; j < b.loads.size(); ++j) {
    by_exact[exact_key(b.loads[j].identity)].push_back(j);
  }
  for (std::size_t i = 0; i < a.loads.size(); ++i) {
    auto it = by_exact.find(exact_key(a.loads[i].identity));
    if (it != by_exact.end()) {
      for (const std::size_t j : it->second) {
        if (!taken[j]) {
          partner[i] = j;
          taken[j] = true;
          break;
        }
      }
    }
  }
  std::map<MovedKey, std::vector<std::size_t>> left_a;
  std::map<MovedKey, std::vector<std::size_t>> left_b;
  for (std::size_t i = 0; i < a.loads.size(); ++i) {
    if (!partner[i]) {
      left_a[moved_key(a.loads[i].identity)].push_back(i);
    }
  }
  for (std::size_t j = 0; j < b.loads.size(); ++j) {
    if (!taken[j]) {
      left_b[moved_key(b.loads[j].identity)].push_back(j);
    }
  }
  std::vector<bool> moved(a.loads.size(), false);
  for (const auto& [key, in_a] : left_a) {
    const auto it = left_b.find(key);
    if (in_a.size() == 1 && it != left_b.end() && it->second.size() == 1) {
      partner[in_a.front()] = it->second.front();
      taken[it->second.front()] = true;
      moved[in_a.front()] = true;
    }
  }
  for (std::size_t i = 0; i < a.loads.size(); ++i) {
    if (!partner[i]) {
      diff.only_in_a.push_back(a.loads[i].identity);
      continue;
    }
    const ParsedLoad& pb = b.loads[*partner[i]];
    diff.loads.push_back({a.loads[i].identity, pb.identity,
                          moved[i] ? LoadMatch::kMoved : LoadMatch::kExact,
                          compare(a.loads[i].metrics, pb.metrics, diff.level)});
  }
  for (std::size_t j = 0; j < b.loads.size(); ++j) {
    if (!taken[j]) {
      diff.only_in_b.push_back(b.loads[j].identity);
    }
  }
}

void match_kernels(const ParsedReport& a, const ParsedReport& b, ReportDiff& diff) {
  std::set<std::string> in_a;
  for (const auto& [name, metrics] : a.kernels) {
    in_a.insert(name);
    const auto it = std::find_if(b.kernels.begin(), b.kernels.end(),
                                 [&](const auto& k) { return k.first == name; });
    if (it == b.kernels.end()) {
      diff.kernels_only_in_a.push_back(name);
    } else {
      diff.kernels.push_back({name, compare(metrics, it->second, diff.level)});
    }
  }
  for (const auto& [name, metrics] : b.kernels) {
    if (!in_a.contains(name)) {
      diff.kernels_only_in_b.push_back(name);
    }
  }
}

}  // namespace

ReportDiff diff_reports(std::string_view json_a, const std::string& path_a, std::string_view json_b,
                        const std::string& path_b) {
  const ParsedReport a = Reader(path_a).report(json_a);
  const ParsedReport b = Reader(path_b).report(json_b);
  ReportDiff diff;
  diff.a = a.side;
  diff.b = b.side;
  diff.input_differences = input_differences(a.side, b.side);
  diff.overall = compare(a.overall, b.overall, diff.level);
  match_kernels(a, b, diff);
  match_loads(a, b, diff);
  return diff;
}

ReportDiff read_and_diff_reports(const std::string& path_a, const std::string& path_b) {
  return diff_reports(read_report_file<DiffInputError>(path_a), path_a,
                      read_report_file<DiffInputError>(path_b), path_b);
}

std::string_view to_string(LoadMatch match) {
  return match == LoadMatch::kExact ? "exact" : "moved";
}

}  // namespace memcarlo::reports
