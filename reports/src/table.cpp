// Terminal table of a report: overall figures, then one row per static load.
#include <algorithm>
#include <cstdio>

#include "memcarlo/reports/report.hpp"
#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::reports {
namespace {

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

std::string clip(std::string text, std::size_t width) {
  if (text.size() > width) {
    text.resize(width - 1);
    text.push_back('~');
  }
  return text;
}

}  // namespace

void print_table(std::ostream& out, const analysis::SimulationSummary& summary,
                 const sim::CompiledTrace& trace, const sim::HierarchyConfig& hierarchy) {
  const auto& o = summary.overall;
  out << "hierarchy " << hierarchy.name << ", " << summary.trials
      << " trials (mean ±95% interval half-width)\n"
      << "  L1 read hit ratio   " << cell(o.l1_read_hit_ratio, true) << "\n"
      << "  L2 read hit ratio   " << cell(o.l2_read_hit_ratio, true) << "\n"
      << "  L2 write hit ratio  " << cell(o.l2_write_hit_ratio, true) << "\n"
      << "  DRAM latency        " << cell(o.dram_latency_cycles, false) << " cycles\n\n";
  char line[512];
  std::snprintf(line, sizeof line, "%4s  %-24s %-22s %-6s %9s %6s  %-14s %-14s %-12s\n", "id",
                "location", "expression", "kind", "requests", "tx/req", "L1 hit", "L2 hit",
                "latency");
  out << line;
  for (const analysis::LoadSummary& load : summary.loads) {
    const tracebuf::LoadInfo& info = trace.load_info[load.id];
    std::string location = info.file.empty() ? "?" : info.file;
    const auto slash = location.find_last_of('/');
    if (slash != std::string::npos) {
      location = location.substr(slash + 1);
    }
    location += ":" + std::to_string(info.line) + ":" + std::to_string(info.column);
    const double per_request =
        load.counts.requests == 0
            ? 0.0
            : static_cast<double>(load.counts.transactions) / static_cast<double>(load.counts.requests);
    std::snprintf(line, sizeof line, "%4u  %-24s %-22s %-6s %9llu %6.2f  %-14s %-14s %-12s\n",
                  load.id, clip(location, 24).c_str(), clip(info.expression, 22).c_str(),
                  std::string(tracebuf::to_string(info.kind)).c_str(),
                  static_cast<unsigned long long>(load.counts.requests), per_request,
                  cell(load.metrics.l1_hit_ratio, true).c_str(),
                  cell(load.metrics.l2_hit_ratio, true).c_str(),
                  cell(load.metrics.latency_cycles, false).c_str());
    out << line;
  }
}

}  // namespace memcarlo::reports
