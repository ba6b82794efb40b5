// JSON report writer (schema version 1, documented in README.md "Report schema").
#include <nlohmann/json.hpp>

#include "memcarlo/reports/report.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/sim/latency_bins.hpp"
#include "memcarlo/sim/trial.hpp"
#include "memcarlo/tracebuf/locality_descriptor.hpp"
#include "memcarlo/tracebuf/model.hpp"
#include "report_json_parts.hpp"

namespace memcarlo::reports {

using nlohmann::json;
using nlohmann::ordered_json;

ordered_json distribution(const std::optional<analysis::Distribution>& d) {
  if (!d) {
    return nullptr;
  }
  ordered_json out;
  out["mean"] = d->mean;
  out["stddev"] = d->stddev;
  out["ci95"] = d->ci95 ? ordered_json::array({(*d->ci95)[0], (*d->ci95)[1]}) : ordered_json();
  out["spread_2sigma"] = ordered_json::array({d->spread_2sigma[0], d->spread_2sigma[1]});
  out["min"] = d->min;
  out["max"] = d->max;
  out["trials"] = d->count;
  out["histogram"] = {{"edges", d->histogram.edges}, {"counts", d->histogram.counts}};
  return out;
}

ordered_json latency_histogram(const analysis::LatencyHistogram& histogram) {
  namespace latency = sim::latency;
  const auto [first, last] = histogram.occupied_bins();
  const double accesses = static_cast<double>(histogram.accesses());
  ordered_json edges = ordered_json::array();
  ordered_json counts = ordered_json::array();
  for (std::size_t bin = first; bin < last; ++bin) {
    edges.push_back(latency::lower_edge(bin));
    counts.push_back(histogram.count(bin));
  }
  if (last > first) {
    edges.push_back(latency::upper_edge(last - 1));
  }
  ordered_json by_level;
  ordered_json shares;
  for (std::size_t l = 0; l < latency::kLevels; ++l) {
    const auto level = static_cast<latency::Level>(l);
    ordered_json level_counts = ordered_json::array();
    for (std::size_t bin = first; bin < last; ++bin) {
      level_counts.push_back(histogram.count(level, bin));
    }
    const std::string name(latency::kLevelNames[l]);
    by_level[name] = std::move(level_counts);
    shares[name] = accesses > 0 ? static_cast<double>(histogram.accesses(level)) / accesses : 0.0;
  }
  ordered_json out;
  out["unit"] = "cycles";
  out["access"] = "L1 transaction";
  out["edges"] = std::move(edges);
  out["counts"] = std::move(counts);
  out["by_level"] = std::move(by_level);
  out["level_shares"] = std::move(shares);
  out["accesses"] = histogram.accesses();
  out["trials"] = histogram.trials;
  return out;
}

ordered_json aggregate(const analysis::SimulationSummary& summary,
                       const analysis::MetricDistributions& metrics, ordered_json out) {
  for (const analysis::Metric* metric :
       summary.reported_metrics(analysis::MetricScope::kAggregate)) {
    out[std::string(metric->name)] = distribution(metrics[*metric]);
  }
  return out;
}

ordered_json load_json(const analysis::LoadSummary& load, const sim::CompiledTrace& trace,
                       const std::vector<const analysis::Metric*>& load_metrics) {
  const tracebuf::LoadInfo& info = trace.load_info[load.id];
  ordered_json entry;
  entry["id"] = load.id;
  entry["function"] = info.function;
  entry["kernels"] = info.kernels;
  entry["file"] = info.file;
  entry["line"] = info.line;
  entry["column"] = info.column;
  entry["expression"] = info.expression;
  entry["kind"] = std::string(tracebuf::to_string(info.kind));
  entry["base"] = info.base;
  entry["element_size"] = info.element_size;
  entry["requests"] = load.counts.requests;
  entry["transactions"] = load.counts.transactions;
  entry["transactions_per_request"] =
      load.counts.requests == 0 ? 0.0
                                : static_cast<double>(load.counts.transactions) /
                                      static_cast<double>(load.counts.requests);
  for (const analysis::Metric* metric : load_metrics) {
    entry[std::string(metric->name)] = distribution(load.metrics[*metric]);
  }
  if (load.latency.accesses() > 0) {
    entry["latency_histogram"] = latency_histogram(load.latency);
  }
  return entry;
}

std::string report_json(const ReportInputs& inputs, const analysis::SimulationSummary& summary,
                        const sim::CompiledTrace& trace, const ReportPerformance& performance,
                        int indent) {
  ordered_json report;
  report["schema_version"] = kSchemaVersion;
  report["producer"] = std::string("memcarlo ") + MEMCARLO_VERSION;

  ordered_json in;
  in["trace"] = inputs.trace_path;
  in["trace_sha256"] = inputs.trace_sha256;
  in["hierarchy"] = {{"name", inputs.hierarchy->name},
                     {"parameters", json::parse(sim::hierarchy_to_json(*inputs.hierarchy))}};
  in["seed"] = inputs.seed;
  in["trials"] = summary.trials;
  if (inputs.stop_rule) {
    in["stop_rule"] = {{"until_ci", inputs.stop_rule->until_ci},
                       {"max_trials", inputs.stop_rule->max_trials},
                       {"converged", inputs.stop_rule->converged}};
  } else {
    in["stop_rule"] = nullptr;
  }
  if (inputs.emulation) {
    ordered_json partial = ordered_json::array();
    for (const Emulation::PartialLaunch& launch : inputs.emulation->partial_launches) {
      partial.push_back({{"index", launch.index},
                         {"kernel", launch.kernel},
                         {"blocks_run", launch.blocks_run},
                         {"blocks", launch.blocks}});
    }
    in["emulation"] = {{"stopped_after_trace", inputs.emulation->stopped_after_trace},
                       {"program_checks_ran", !inputs.emulation->stopped_after_trace},
                       {"partial_launches", std::move(partial)}};
  }
  ordered_json launches = ordered_json::array();
  const sim::LaunchTrace* previous = nullptr;
  for (const sim::LaunchTrace& launch : trace.launches) {
    const sim::LaunchOccupancy& occupancy = launch.occupancy;
    // The Locality Descriptors the launch ran with (sim/src/ldesc/descriptors.hpp), in priority
    // order: which descriptors each launch got is an input of the run.
    ordered_json descriptors = ordered_json::array();
    for (const tracebuf::LocalityDescriptor& d : launch.descriptors) {
      descriptors.push_back({{"name", d.name},
                             {"address", d.address},
                             {"size", d.size},
                             {"type", tracebuf::to_string(d.type)},
                             {"priority", d.priority}});
    }
    launches.push_back(
        {{"index", launch.index},
         {"kernel", launch.kernel},
         {"snapshot_blocks", launch.blocks.size()},
         {"warps_per_block", launch.warps_per_block},
         {"resident_blocks_per_sm", launch.resident_blocks_per_sm},
         {"shared_bytes_per_block", occupancy.shared_per_block},
         {"shared_carveout_bytes",
          occupancy.adaptive ? ordered_json(occupancy.carveout) : ordered_json(nullptr)},
         {"l1_size_bytes", occupancy.l1_bytes},
         {"l2_at_start", sim::keeps_l2(*inputs.hierarchy, previous, launch) ? "kept" : "cold"},
         {"transactions", launch.transactions},
         {"descriptors", std::move(descriptors)}});
    previous = &launch;
  }
  in["launches"] = launches;
  report["inputs"] = in;

  report["overall"] = aggregate(summary, summary.overall);

  ordered_json loads = ordered_json::array();
  const auto load_metrics = summary.reported_metrics(analysis::MetricScope::kLoad);
  for (const analysis::LoadSummary& load : summary.loads) {
    ordered_json entry = load_json(load, trace, load_metrics);
    loads.push_back(std::move(entry));
  }
  report["loads"] = loads;

  ordered_json allocations = ordered_json::array();
  for (const analysis::AllocationSummary& allocation : summary.allocations) {
    ordered_json named;
    named["name"] = allocation.name;
    allocations.push_back(aggregate(summary, allocation.metrics, std::move(named)));
  }
  report["allocations"] = allocations;

  ordered_json kernels = ordered_json::array();
  for (const analysis::KernelSummary& kernel : summary.kernels) {
    kernels.push_back({{"kernel", kernel.name},
                       {"launches", kernel.launches},
                       {"overall", aggregate(summary, kernel.metrics)}});
  }
  report["kernels"] = kernels;

  ordered_json convergence;
  for (const auto& [name, series] : summary.convergence) {
    convergence[name] = series;
  }
  report["convergence"] = {{"description", "standard deviation after n = 1, 2, ... trials"},
                           {"stddev", convergence}};

  const double trials = static_cast<double>(summary.trials);
  report["performance"] = {
      {"transactions_per_trial", performance.transactions_per_trial},
      {"wall_seconds", performance.wall_seconds},
      {"compile_seconds", performance.compile_seconds},
      {"threads", performance.threads},
      {"transactions_per_second",
       performance.wall_seconds > 0
           ? static_cast<double>(performance.transactions_per_trial) * trials /
                 performance.wall_seconds
           : 0.0},
      {"trial_state_bytes_per_thread", performance.trial_state_bytes},
      {"compiled_trace_bytes", performance.compiled_trace_bytes}};
  return report.dump(indent);
}

}  // namespace memcarlo::reports
