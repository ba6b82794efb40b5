// The simulation report: its JSON form (the product's contract, schema documented in the README)
// and the terminal table. Printers only; every number comes from analysis::SimulationSummary.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

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

/// How the program behind the trace ran, when memcarlo profile ran it (inputs.emulation).
struct Emulation {
  /// Stopped once its traced launches were written (profile without --run-to-end): no later
  /// launch ran, and neither did the program's own checks.
  bool stopped_after_trace = false;
  struct PartialLaunch {
    std::uint32_t index = 0;  // the trace's launch index
    std::string kernel;
    std::uint64_t blocks_run = 0;
    std::uint64_t blocks = 0;
  };
  std::vector<PartialLaunch> partial_launches;  // traced launches that ran only some blocks
};

struct ReportInputs {
  std::string trace_path;
  std::string trace_sha256;
  const sim::HierarchyConfig* hierarchy = nullptr;
  std::uint64_t seed = 0;
  std::optional<StopRule> stop_rule;
  std::optional<Emulation> emulation;  // absent from the report when not known
};

struct ReportPerformance {
  std::uint64_t transactions_per_trial = 0;
  double wall_seconds = 0;     // the Monte Carlo trials
  double compile_seconds = 0;  // reading, checking and coalescing the trace
  unsigned threads = 0;
  std::uint64_t trial_state_bytes = 0;
  std::uint64_t compiled_trace_bytes = 0;
};

/// The report as JSON text (pretty-printed with `indent` spaces; -1 for one line).
std::string report_json(const ReportInputs& inputs, const analysis::SimulationSummary& summary,
                        const sim::CompiledTrace& trace, const ReportPerformance& performance,
                        int indent = 2);

/// Row orders of the table. Each puts the loads that deserve a look first: the most memory
/// cycles, the lowest hit ratios, the longest latencies; the source order for id and location.
/// Rows without the quantity (a store's latency) come last; ties keep id order.
enum class TableSort { kCost, kId, kLocation, kL1, kL2, kLatency };

/// "cost", "id", "location", "l1", "l2", "latency".
std::string_view to_string(TableSort sort);
std::optional<TableSort> table_sort_from_string(std::string_view text);

/// Width of the table when stdout is not a terminal and --width is not given.
inline constexpr std::size_t kDefaultTableWidth = 160;

struct TableOptions {
  TableSort sort = TableSort::kCost;
  /// Columns the table should fit in. The location shrinks first (from the left: the end of the
  /// path, the line and the column stay), then the kernel and the expression (from the right);
  /// the file name, line and column are never cut, so a narrow width can be exceeded.
  std::size_t width = kDefaultTableWidth;
};

/// The prefetch metrics the per-load tables show as a column group when the run had a prefetcher
/// (the summary reports the prefetch group's metrics only then): this table's and the HTML page's
/// (html_report.cpp marks them in the page's metric table).
bool in_prefetch_columns(const analysis::Metric& metric);

/// The per-load table and overall figures for a terminal. One row per static access: its
/// kernel(s), location, expression, kind, requests, transactions per request, L1 and L2 hit
/// ratios and latency X (mean ± 95% half-width), and its cost: requests × mean X, the cycles
/// its warps wait for it, as a share of the total over the loads of its kernel. Stores have no
/// latency (they do not make the warp wait), hence no cost; they count for nothing in the total.
void print_table(std::ostream& out, const analysis::SimulationSummary& summary,
                 const sim::CompiledTrace& trace, const sim::HierarchyConfig& hierarchy,
                 const TableOptions& options = {});

}  // namespace memcarlo::reports
