// The what-if sweep report (`memcarlo sweep`): its JSON form (schema "memcarlo-sweep", documented
// in README.md "What-if sweeps"), its CSV form and the terminal table. Printers only; the numbers
// come from analysis::SimulationSummary and analysis::paired_difference.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "memcarlo/analysis/paired_difference.hpp"
#include "memcarlo/analysis/summary.hpp"
#include "memcarlo/reports/report.hpp"
#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/config.hpp"

namespace memcarlo::reports {

inline constexpr int kSweepSchemaVersion = 1;

/// One metric's paired difference from the baseline (nullopt: no trial defines it on both sides).
struct SweepMetricDifference {
  const analysis::Metric* metric = nullptr;
  std::optional<analysis::PairedDifference> difference;
};

struct SweepLoadDifference {
  std::uint32_t id = 0;
  std::vector<SweepMetricDifference> metrics;
};

struct SweepPoint {
  /// The point's settings, key and value as given (applied like --set KEY=VALUE).
  std::vector<std::pair<std::string, std::string>> parameters;
  analysis::SimulationSummary summary;
  std::shared_ptr<const sim::CompiledTrace> trace;  // shared by points of one geometry
  bool converged = false;                           // with --until-ci
  double wall_seconds = 0;                          // its trials
  std::vector<SweepMetricDifference> overall_difference;
  std::vector<SweepLoadDifference> load_differences;
};

struct SweepInputs {
  std::string trace_path;
  std::string trace_sha256;
  const sim::HierarchyConfig* base = nullptr;  // the base hierarchy after --set
  std::string base_name;                       // -H as given
  std::vector<std::string> base_overrides;     // --set
  std::uint64_t seed = 0;
  std::uint32_t trials = 0;  // --trials (the first round with --until-ci)
  std::optional<StopRule> stop_rule;
  std::string mode;  // "cartesian", "zip" or "points"
  std::vector<std::string> varied_keys;
  std::vector<std::uint32_t> launches;  // --launch: the replayed launch indices; empty: all
  /// With --allow-truncated on a truncated trace: the byte where its readable prefix ends.
  std::optional<std::uint64_t> truncated_at;
};

struct SweepPerformance {
  std::uint64_t compiles = 0;  // trace compiles: one per distinct geometry
  std::uint64_t resumed = 0;   // points read back from the --resume directory, not run
  double compile_seconds = 0;
  double wall_seconds = 0;  // the whole sweep
  unsigned threads = 0;
};

/// The sweep report as JSON text (pretty-printed with `indent` spaces; -1 for one line).
std::string sweep_json(const SweepInputs& inputs, const std::vector<SweepPoint>& points,
                       const SweepPerformance& performance, int indent = 2);

/// One row per point x scope (overall, each load) x compared metric: the point's distribution
/// and its difference from the baseline.
void write_sweep_csv(std::ostream& out, const std::vector<SweepPoint>& points);

/// What a family of sweep keys acts on: the overall metrics (names of the metric table's
/// aggregate lines; "" fills the rest) that the tables of a sweep show for a varied key that
/// starts with `prefix`.
struct SweepActsOn {
  std::string_view prefix;
  std::array<std::string_view, 3> metrics;
};

/// The families, first match wins; the terminal table (sweep_table_metrics) and the HTML page
/// (html_report.cpp writes them into the page) both choose by them.
std::span<const SweepActsOn> sweep_acts_on();

/// What `base` and a key of no family act on: the L1 and L2 read hit ratios and Tm.
std::span<const std::string_view> sweep_other_key_metrics();

/// The overall metrics the terminal table shows: those the varied keys act on (prefetch.*: L1
/// read hit ratio, prefetch coverage and accuracy; placement.* and numa.*: access efficiency,
/// crossing latency, link bytes; schedule.* and ldesc.*: L1 read hit ratio and the first two NUMA
/// metrics; l1.*, l2.*, dram.*: their hit ratios and Tm; `base` and others: L1 and L2 read hit
/// ratios and Tm) that some point reports, those three when none is, then the latency X.
std::vector<const analysis::Metric*> sweep_table_metrics(const std::vector<SweepPoint>& points);

/// One row per point: its parameters and the sweep_table_metrics, mean ± 95% half-width, each
/// with its paired difference from the baseline.
void print_sweep_table(std::ostream& out, const std::vector<SweepPoint>& points);

}  // namespace memcarlo::reports
