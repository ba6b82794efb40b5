// Terminal table of a report: overall figures, then one row per static access, sorted by cost by
// default and fitted into a width without ever hiding a load's file, line and column.
#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "memcarlo/reports/report.hpp"
#include "memcarlo/tracebuf/model.hpp"
#include "text_columns.hpp"

namespace memcarlo::reports {
namespace {

using text::columns;
using text::cut_left;
using text::cut_right;
using text::padded;

std::string format(const char* pattern, double a, double b) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, a, b);
  return buffer;
}

/// "0.612 ±0.004" (mean and 95% half-width) or "-" when undefined.
std::string cell(const std::optional<analysis::Distribution>& d, bool ratio) {
  if (!d) {
    return "-";
  }
  const double half = d->ci95 ? ((*d->ci95)[1] - (*d->ci95)[0]) / 2 : 0.0;
  return ratio ? format("%.3f ±%.3f", d->mean, half) : format("%.0f ±%.0f", d->mean, half);
}

// ---- Rows
// ----------------------------------------------------------------------------------------

struct Row {
  const analysis::LoadSummary* load = nullptr;
  const tracebuf::LoadInfo* info = nullptr;
  std::string kernel;
  std::string location;          // path:line:column as the trace records the path
  std::size_t location_min = 0;  // columns that keep "…/file:line:column" (or all of a bare file)
  std::optional<double> cycles;  // requests × mean X
  std::optional<double> share;   // of its kernel's cycles
};

/// The kernels the load executed in (in the replayed launches), from the trace's counter slots.
std::string kernel_label(const sim::CompiledTrace& trace, std::uint32_t load) {
  std::set<std::uint16_t> kernels;
  for (const sim::CounterSlot& slot : trace.slots) {
    if (slot.load == load) {
      kernels.insert(slot.kernel);
    }
  }
  std::string label;
  for (const std::uint16_t k : kernels) {
    label += (label.empty() ? "" : ",") + trace.kernel_names.at(k);
  }
  return label.empty() ? "?" : label;
}

std::vector<Row> make_rows(const analysis::SimulationSummary& summary,
                           const sim::CompiledTrace& trace) {
  std::vector<Row> rows;
  for (const analysis::LoadSummary& load : summary.loads) {
    Row row;
    row.load = &load;
    row.info = &trace.load_info[load.id];
    row.kernel = kernel_label(trace, load.id);
    const std::string file = row.info->file.empty() ? "?" : row.info->file;
    const std::string position =
        ":" + std::to_string(row.info->line) + ":" + std::to_string(row.info->column);
    row.location = file + position;
    const auto slash = file.find_last_of('/');
    row.location_min = slash == std::string::npos
                           ? columns(row.location)
                           : columns(file.substr(slash)) + columns(position) + 1;  // "…/name:l:c"
    if (const auto& latency = load.metrics["latency_cycles"]) {
      row.cycles = static_cast<double>(load.counts.requests) * latency->mean;
    }
    rows.push_back(std::move(row));
  }
  // Shares within each kernel label (a device function reached from two kernels is its own group).
  for (Row& row : rows) {
    if (!row.cycles) {
      continue;
    }
    double total = 0;
    for (const Row& other : rows) {
      if (other.kernel == row.kernel && other.cycles) {
        total += *other.cycles;
      }
    }
    if (total > 0) {
      row.share = *row.cycles / total;
    }
  }
  return rows;
}

/// The load metric a --sort key orders by, or nullptr (cost, id and location are not metrics).
const analysis::Metric* sort_metric(TableSort sort) {
  const auto load_metric = [](std::string_view name) {
    return analysis::find_metric(name, analysis::MetricScope::kLoad);
  };
  switch (sort) {
    case TableSort::kL1:
      return load_metric("l1_hit_ratio");
    case TableSort::kL2:
      return load_metric("l2_hit_ratio");
    case TableSort::kLatency:
      return load_metric("latency_cycles");
    case TableSort::kCost:
    case TableSort::kId:
    case TableSort::kLocation:
      break;
  }
  return nullptr;
}

/// Sort key: rows with the quantity first, ordered by it (descending where larger is worse: cost
/// and cycles; ascending for ratios, lowest hit ratio first).
std::optional<double> sort_value(const Row& row, TableSort sort) {
  if (sort == TableSort::kCost) {
    return row.cycles ? std::optional(-*row.cycles) : std::nullopt;
  }
  const analysis::Metric* metric = sort_metric(sort);
  if (metric == nullptr) {
    return std::nullopt;
  }
  const std::optional<analysis::Distribution>& d = row.load->metrics[*metric];
  if (!d) {
    return std::nullopt;
  }
  return metric->unit == analysis::MetricUnit::kCycles ? -d->mean : d->mean;
}

/// Each kernel label's cycles over its loads (the total its rows' shares are of).
std::map<std::string, double> kernel_cycles(const std::vector<Row>& rows) {
  std::map<std::string, double> totals;
  for (const Row& row : rows) {
    totals[row.kernel] += row.cycles.value_or(0.0);
  }
  return totals;
}

/// Whether the rows come from more than one kernel label.
bool several_kernels(const std::vector<Row>& rows) {
  return std::any_of(rows.begin(), rows.end(),
                     [&rows](const Row& row) { return row.kernel != rows.front().kernel; });
}

void sort_rows(std::vector<Row>& rows, TableSort sort) {
  // By cost, the rows stay with their kernel (costliest kernel first), since the cost column is
  // a share of the kernel's cycles: a kernel's 100 % never sits under another's 4 %.
  const std::map<std::string, double> totals = kernel_cycles(rows);
  std::stable_sort(rows.begin(), rows.end(), [sort, &totals](const Row& a, const Row& b) {
    if (sort == TableSort::kCost && a.kernel != b.kernel && a.cycles && b.cycles) {
      const double ta = totals.at(a.kernel);
      const double tb = totals.at(b.kernel);
      return ta != tb ? ta > tb : a.kernel < b.kernel;
    }
    if (sort == TableSort::kId) {
      return a.load->id < b.load->id;
    }
    if (sort == TableSort::kLocation) {
      return std::tie(a.info->file, a.info->line, a.info->column, a.load->id) <
             std::tie(b.info->file, b.info->line, b.info->column, b.load->id);
    }
    const auto va = sort_value(a, sort);
    const auto vb = sort_value(b, sort);
    if (va.has_value() != vb.has_value()) {
      return va.has_value();
    }
    if (va && *va != *vb) {
      return *va < *vb;
    }
    return a.load->id < b.load->id;
  });
}

// ---- Layout
// --------------------------------------------------------------------------------------

// The columns: these, then one per headline load metric of the metric table.
enum Column : std::size_t {
  kIdColumn,
  kCostColumn,
  kKernelColumn,
  kLocationColumn,
  kExpressionColumn,
  kKindColumn,
  kRequestsColumn,
  kPerRequestColumn,
  kFixedColumnCount
};

constexpr std::array<std::string_view, kFixedColumnCount> kFixedHeaders = {
    "id", "cost", "kernel", "location", "expression", "kind", "requests", "tx/req"};
constexpr std::array<bool, kFixedColumnCount> kFixedRightAligned = {true,  true,  false, false,
                                                                    false, false, true,  true};
constexpr std::size_t kGap = 2;                 // spaces between columns
constexpr std::size_t kOverallLabelWidth = 20;  // the overall figures' labels, padded

using RowCells = std::vector<std::string>;

/// The headline load metrics of the run, then the prefetch column group: the table's metric
/// columns.
std::vector<const analysis::Metric*> metric_columns(const analysis::SimulationSummary& summary) {
  std::vector<const analysis::Metric*> out;
  const auto reported = summary.reported_metrics(analysis::MetricScope::kLoad);
  for (const analysis::Metric* metric : reported) {
    if (metric->headline) {
      out.push_back(metric);
    }
  }
  for (const analysis::Metric* metric : reported) {
    if (!metric->headline && in_prefetch_columns(*metric)) {
      out.push_back(metric);
    }
  }
  return out;
}

RowCells header_cells(const std::vector<const analysis::Metric*>& metrics) {
  RowCells cells(kFixedHeaders.begin(), kFixedHeaders.end());
  for (const analysis::Metric* metric : metrics) {
    cells.emplace_back(metric->label);
  }
  return cells;
}

RowCells row_cells(const Row& row, const std::vector<const analysis::Metric*>& metrics) {
  const analysis::LoadSummary& load = *row.load;
  const double per_request = load.counts.requests == 0
                                 ? 0.0
                                 : static_cast<double>(load.counts.transactions) /
                                       static_cast<double>(load.counts.requests);
  char number[32];
  std::snprintf(number, sizeof number, "%.2f", per_request);
  std::string cost = "-";
  if (row.share) {
    char share[16];
    std::snprintf(share, sizeof share, "%.1f%%", 100 * *row.share);
    cost = share;
  }
  RowCells cells = {std::to_string(load.id),
                 cost,
                 row.kernel,
                 row.location,
                 row.info->expression,
                 std::string(tracebuf::to_string(row.info->kind)),
                 std::to_string(load.counts.requests),
                 number};
  for (const analysis::Metric* metric : metrics) {
    cells.push_back(cell(load.metrics[*metric], metric->unit == analysis::MetricUnit::kRatio));
  }
  return cells;
}

/// Column widths: every column at its natural width, then the location, the kernel and the
/// expression shrunk, in this order, down to their minimums until the table fits in `width`.
std::vector<std::size_t> column_widths(const RowCells& header, const std::vector<RowCells>& cells,
                                       const std::vector<Row>& rows, std::size_t width) {
  std::vector<std::size_t> widths(header.size());
  for (std::size_t c = 0; c < widths.size(); ++c) {
    widths[c] = columns(header[c]);
    for (const RowCells& row : cells) {
      widths[c] = std::max(widths[c], columns(row[c]));
    }
  }
  widths[kIdColumn] = std::max<std::size_t>(widths[kIdColumn], 4);
  std::size_t location_min = columns(header[kLocationColumn]);
  for (const Row& row : rows) {
    location_min = std::max(location_min, row.location_min);
  }
  const std::array<std::pair<Column, std::size_t>, 3> shrinkable = {{
      {kLocationColumn, location_min},
      {kKernelColumn, std::min<std::size_t>(widths[kKernelColumn], 12)},
      {kExpressionColumn, std::min<std::size_t>(widths[kExpressionColumn], 16)},
  }};
  std::size_t total = kGap * (widths.size() - 1);
  for (const std::size_t w : widths) {
    total += w;
  }
  for (const auto& [column, minimum] : shrinkable) {
    if (total <= width) {
      break;
    }
    const std::size_t spare = widths[column] > minimum ? widths[column] - minimum : 0;
    const std::size_t cut = std::min(spare, total - width);
    widths[column] -= cut;
    total -= cut;
  }
  return widths;
}

std::string render(const RowCells& cells, const std::vector<std::size_t>& widths) {
  std::string line;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    std::string text = cells[c];
    if (c == kLocationColumn) {
      text = cut_left(text, widths[c]);
    } else if (c == kKernelColumn || c == kExpressionColumn) {
      text = cut_right(text, widths[c]);
    }
    const bool right_aligned = c < kFixedColumnCount && kFixedRightAligned[c];
    line += (c == 0 ? "" : std::string(kGap, ' ')) + padded(text, widths[c], right_aligned);
  }
  line.erase(line.find_last_not_of(' ') + 1);
  return line + "\n";
}

}  // namespace

std::string_view to_string(TableSort sort) {
  switch (sort) {
    case TableSort::kCost:
      return "cost";
    case TableSort::kId:
      return "id";
    case TableSort::kLocation:
      return "location";
    case TableSort::kL1:
      return "l1";
    case TableSort::kL2:
      return "l2";
    case TableSort::kLatency:
      return "latency";
  }
  return "cost";
}

std::optional<TableSort> table_sort_from_string(std::string_view text) {
  for (const TableSort sort : {TableSort::kCost, TableSort::kId, TableSort::kLocation,
                               TableSort::kL1, TableSort::kL2, TableSort::kLatency}) {
    if (to_string(sort) == text) {
      return sort;
    }
  }
  return std::nullopt;
}

namespace {

/// Whether a Locality Descriptor mechanism is on (ldesc.cache, or an ldesc policy): the
/// overall lines then show the L1 in-flight hit ratio, as the paper reports it (Figure 16).
bool uses_ldesc(const sim::HierarchyConfig& hierarchy) {
  const auto& params = hierarchy.params.values();
  const auto cache = params.find("ldesc.cache");
  return (cache != params.end() && cache->second == "true") ||
         hierarchy.prefetch.policy == "ldesc" || hierarchy.schedule.cta == "ldesc" ||
         hierarchy.placement.policy == "ldesc";
}

}  // namespace

bool in_prefetch_columns(const analysis::Metric& metric) {
  constexpr std::array<std::string_view, 5> kPrefetchColumns = {
      "prefetch_coverage", "prefetch_timely_coverage", "prefetch_accuracy", "prefetch_late_ratio",
      "prefetch_useless_ratio"};
  return metric.group == &sim::kPrefetchGroup &&
         std::find(kPrefetchColumns.begin(), kPrefetchColumns.end(), metric.name) !=
             kPrefetchColumns.end();
}

void print_table(std::ostream& out, const analysis::SimulationSummary& summary,
                 const sim::CompiledTrace& trace, const sim::HierarchyConfig& hierarchy,
                 const TableOptions& options) {
  out << "hierarchy " << hierarchy.name << ", " << summary.trials
      << " trials (mean ±95% interval half-width)\n";
  const bool inflight = uses_ldesc(hierarchy);
  for (const analysis::Metric* metric :
       summary.reported_metrics(analysis::MetricScope::kAggregate)) {
    if (metric->headline || in_prefetch_columns(*metric) ||
        (inflight && metric->name == "l1_inflight_ratio")) {
      const bool ratio = metric->unit == analysis::MetricUnit::kRatio;
      // A label as long as the width (the in-flight one) still gets a space after it.
      const std::size_t width = std::max(kOverallLabelWidth, metric->label.size() + 1);
      out << "  " << padded(std::string(metric->label), width, false)
          << cell(summary.overall[*metric], ratio) << (ratio ? "" : " cycles") << "\n";
    }
  }
  out << "\n";
  std::vector<Row> rows = make_rows(summary, trace);
  sort_rows(rows, options.sort);
  const auto metrics = metric_columns(summary);
  const RowCells header = header_cells(metrics);
  std::vector<RowCells> cells;
  cells.reserve(rows.size());
  for (const Row& row : rows) {
    cells.push_back(row_cells(row, metrics));
  }
  const auto widths = column_widths(header, cells, rows, options.width);
  out << render(header, widths);
  for (const RowCells& row : cells) {
    out << render(row, widths);
  }
  out << "cost = requests × mean latency, as a share of its kernel's total over its loads "
         "(stores: no latency, no cost); sorted by "
      << to_string(options.sort)
      << (options.sort == TableSort::kCost && several_kernels(rows)
              ? " within each kernel, the costliest kernel (most cycles) first"
              : "")
      << " (--sort)\n";
}

}  // namespace memcarlo::reports
