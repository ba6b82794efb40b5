// The simulation report: its JSON form (the product's contract, schema documented in the README)
// and the terminal table. Printers only; every number comes from analysis::SimulationSummary.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "memcarlo/analysis/summary.hpp"
#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/config.hpp"

namespace memcarlo::reports {

inline constexpr int kSchemaVersion = 1;

struct StopRule {
  double until_ci = 0;
  std::uint32_t max_trials = 0;
  bool converged = false;
};

struct ReportInputs {
  std::string trace_path;
  std::string trace_sha256;
  const sim::HierarchyConfig* hierarchy = nullptr;
  std::uint64_t seed = 0;
  std::optional<StopRule> stop_rule;
};

struct ReportPerformance {
  std::uint64_t transactions_per_trial = 0;
  double wall_seconds = 0;       // the Monte Carlo trials
  double compile_seconds = 0;    // reading, checking and coalescing the trace
  unsigned threads = 0;
  std::uint64_t trial_state_bytes = 0;
  std::uint64_t compiled_trace_bytes = 0;
};

/// The report as JSON text (pretty-printed with `indent` spaces; -1 for one line).
std::string report_json(const ReportInputs& inputs, const analysis::SimulationSummary& summary,
                        const sim::CompiledTrace& trace, const ReportPerformance& performance,
                        int indent = 2);

/// The per-load table and overall figures for a terminal.
void print_table(std::ostream& out, const analysis::SimulationSummary& summary,
                 const sim::CompiledTrace& trace, const sim::HierarchyConfig& hierarchy);

}  // namespace memcarlo::reports
