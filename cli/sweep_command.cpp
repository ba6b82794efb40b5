// `memcarlo sweep TRACE -H BASE --vary KEY=V1,V2 ...`: what-if runs of one trace over a list of
// hierarchy settings, each a full Monte Carlo run with the same seed (common random numbers), and
// each point's paired difference from the first (the baseline).
#include <CLI/CLI.hpp>

#include <tbb/task_arena.h>
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "commands.hpp"
#include "memcarlo/analysis/paired_difference.hpp"
#include "memcarlo/analysis/run_series.hpp"
#include "memcarlo/analysis/summary.hpp"
#include "memcarlo/reports/sweep_report.hpp"
#include "memcarlo/reports/trace_device.hpp"
#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/sim/monte_carlo.hpp"
#include "memcarlo/tracebuf/locality_descriptor.hpp"
#include "memcarlo/tracebuf/reader.hpp"
#include "memcarlo/tracebuf/sha256.hpp"
#include "merge.hpp"
#include "output_path.hpp"
#include "ranks.hpp"
#include "shard_file.hpp"
#include "simulate_feedback.hpp"
#include "simulate_support.hpp"
#include "sweep_points.hpp"
#include "sweep_run.hpp"
#include "sweep_store.hpp"

namespace memcarlo::cli {
namespace {

/// The keys the trace compile reads none of: replacement, latencies, MSHRs, the store and L2
/// policies that act during replay, the CTA scheduler, the prefetcher, the interconnect and the
/// inter-module links (and every parameter those policies own). compile_trace reads the L1 and
/// L2 geometry (line, sector, sets, slices), the SM limits and the L1 carveouts (occupancy), the
/// DRAM description, numa.modules and the placement policy with its parameters
/// (placement::make); every other key stays in the cache key, so a key added later is
/// compile-relevant until someone proves otherwise.
bool compile_ignores(const std::string& key) {
  static const std::set<std::string, std::less<>> kIgnored = {
      "l1.replacement", "l2.replacement", "l1.latency", "l2.latency", "l1.mshrs", "l1.store_policy",
      "l2.inclusive", "l2.write_activation", "l2.between_launches",
      // the inter-module links act during replay only (numa.modules is read: placements)
      "numa.link_latency", "numa.link_bandwidth_gbs", "numa.topology"};
  constexpr std::string_view kIgnoredPrefixes[] = {"schedule.", "prefetch.", "interconnect."};
  for (const std::string_view prefix : kIgnoredPrefixes) {
    if (key.starts_with(prefix)) {
      return true;
    }
  }
  return kIgnored.contains(key);
}

std::string compile_key(const sim::HierarchyConfig& config) {
  nlohmann::json flat = nlohmann::json::parse(sim::hierarchy_to_json(config));
  nlohmann::json kept = nlohmann::json::object();
  for (const auto& [key, value] : flat.items()) {
    if (!compile_ignores(key)) {
      kept[key] = value;
    }
  }
  kept["access_sites"] = sim::needs_access_sites(config);  // prefetch.policy is ignored above
  return kept.dump();
}

/// The point's hierarchy: the preset or file of its `base` setting (the sweep's -H without one),
/// then the sweep's --set overrides, then its other settings as --set overrides.
sim::HierarchyConfig point_hierarchy(const SimulateOptions& simulation, const Parameters& point) {
  std::string base = simulation.hierarchy;
  std::vector<std::string> overrides = simulation.overrides;
  for (const auto& [key, value] : point) {
    if (key == kBaseKey) {
      base = value;
    } else {
      overrides.push_back(key + "=" + value);
    }
  }
  return sim::load_hierarchy(base, overrides);
}

/// Each compared metric's paired difference from the baseline, overall and per load: every
/// metric of the table that either run reports (a counter group's only where either enabled it).
void add_differences(reports::SweepPoint& point, const analysis::RunSeries& baseline,
                     const analysis::RunSeries& series) {
  const auto compared = [&](const analysis::Metric* metric) {
    const auto enabled = [&](const analysis::RunSeries& run) {
      return std::find(run.counter_groups.begin(), run.counter_groups.end(), metric->group) !=
             run.counter_groups.end();
    };
    return metric->group == nullptr || enabled(baseline) || enabled(series);
  };
  const auto difference = [](const analysis::MetricSeries& a, const analysis::MetricSeries& b,
                             const analysis::Metric* metric) {
    const auto in_a = a.find(std::string(metric->name));
    const auto in_b = b.find(std::string(metric->name));
    return in_a == a.end() || in_b == b.end()
               ? std::nullopt
               : analysis::paired_difference(in_a->second, in_b->second);
  };
  for (const analysis::Metric* metric :
       analysis::difference_metrics(analysis::MetricScope::kAggregate)) {
    if (!compared(metric)) {
      continue;
    }
    point.overall_difference.push_back(
        {metric, difference(baseline.overall, series.overall, metric)});
  }
  static const analysis::MetricSeries kNone;
  for (const auto& [id, metrics] : series.loads) {
    reports::SweepLoadDifference load{id, {}};
    const auto base = baseline.loads.find(id);
    for (const analysis::Metric* metric :
         analysis::difference_metrics(analysis::MetricScope::kLoad)) {
      if (!compared(metric)) {
        continue;
      }
      load.metrics.push_back(
          {metric,
           difference(base == baseline.loads.end() ? kNone : base->second, metrics, metric)});
    }
    point.load_differences.push_back(std::move(load));
  }
}

/// What a shard file records of a sweep; every shard of the sweep has the same, and merge
/// rebuilds the sweep from it.
nlohmann::ordered_json sweep_run_json(const SimulateOptions& simulation,
                                      const sim::HierarchyConfig& base,
                                      const std::string& trace_sha256, const std::string& mode,
                                      const std::vector<Parameters>& points) {
  return {{"command", "sweep"},
          {"trace", simulation.trace},
          {"trace_sha256", trace_sha256},
          {"hierarchy", nlohmann::ordered_json::parse(sim::hierarchy_to_json(base))},
          {"hierarchy_name", simulation.hierarchy},
          {"overrides", simulation.overrides},
          {"seed", simulation.seed},
          {"trials", simulation.trials},
          {"bins", simulation.bins},
          {"launches", simulation.launches},
          {"allow_truncated", simulation.allow_truncated},
          {"mode", mode},
          {"points", points}};
}

}  // namespace

void run_sweep(const SweepOptions& given, const ShardSpec& shard, const MergedShards* merged) {
  const auto started = std::chrono::steady_clock::now();
  SweepOptions options = given;
  // Only rank 0 of an MPI job prints and writes; the others run their trials quietly.
  options.simulation.quiet = options.simulation.quiet || !ranks::leader();
  const SimulateOptions& simulation = options.simulation;
  if (shard.active() && simulation.until_ci > 0) {
    throw UserError(
        "--until-ci cannot be used with --shard: the stop rule needs every trial of "
        "a round, and a shard holds only its own; give a fixed --trials N",
        2);
  }
  if (ranks::leader() && !shard.active()) {  // before the points' trials that fill them
    check_writable(simulation.output, "sweep report");
    check_writable(simulation.html, "HTML report");
    check_writable(options.csv, "CSV");
  }
  if (shard.active() && options.resume) {
    throw UserError("--resume cannot be used with --shard: rerun the shards that did not finish",
                    2);
  }
  std::vector<Parameters> points;
  std::string mode;
  if (merged != nullptr) {
    points = merged->run.at("points").get<std::vector<Parameters>>();
    mode = merged->run.at("mode").get<std::string>();
  } else {
    if (options.points_file.empty() == options.vary.empty()) {
      throw UserError("sweep: give either --vary KEY=V1,V2,... (repeatable) or --points FILE.json",
                      2);
    }
    points = options.points_file.empty() ? vary_points(options.vary, options.zip)
                                         : file_points(options.points_file);
    mode = !options.points_file.empty() ? "points" : (options.zip ? "zip" : "cartesian");
  }
  // Every point's hierarchy first, so that a bad key or value stops the sweep before it runs.
  sim::HierarchyConfig base;
  std::vector<sim::HierarchyConfig> configs;
  try {
    base = sim::load_hierarchy(simulation.hierarchy, simulation.overrides);
  } catch (const sim::ConfigError& e) {
    throw UserError(e.what(), 2);
  }
  for (std::size_t p = 0; p < points.size(); ++p) {
    try {
      configs.push_back(point_hierarchy(simulation, points[p]));
    } catch (const sim::ConfigError& e) {
      throw UserError(describe(p, points[p]) + ": " + e.what(), 2);
    }
  }

  const auto reader = tracebuf::TraceReader::open(simulation.trace,
                                                  {.allow_truncated = simulation.allow_truncated});
  if (!reader.complete() && !simulation.quiet) {
    std::cerr << "memcarlo: warning: " << simulation.trace << " is truncated at byte "
              << reader.truncated_at() << " (" << reader.truncation_reason()
              << "); simulating its readable prefix\n";
  }
  // The snapshot's device against every hierarchy the points run on (-H and each `base`), once
  // per hierarchy.
  std::set<std::string> checked_bases;
  const auto recorded = reports::read_recorded_device(reader.meta().device_json);
  for (std::size_t p = 0; p <= points.size() && !simulation.quiet; ++p) {
    std::string name = simulation.hierarchy;
    for (const auto& [key, value] : p == 0 ? Parameters{} : points[p - 1]) {
      name = key == kBaseKey ? value : name;
    }
    if (!checked_bases.insert(name).second) {
      continue;
    }
    if (const auto mismatch =
            reports::snapshot_mismatch(recorded, p == 0 ? base : configs[p - 1], name)) {
      std::cerr << "memcarlo: warning: " << simulation.trace << ": " << *mismatch << "\n";
    }
  }
  tracebuf::check_invariants(reader);
  std::string thread_note;
  const unsigned threads = usable_threads(simulation.threads, available_threads(), thread_note);
  if (!thread_note.empty() && !simulation.quiet) {
    std::cerr << "memcarlo: note: " << thread_note << "\n";
  }
  tbb::task_arena arena(static_cast<int>(threads));

  reports::SweepPerformance performance;
  performance.threads = threads;
  std::map<std::string, std::shared_ptr<const sim::CompiledTrace>> compiled_by_geometry;
  std::vector<reports::SweepPoint> results;
  analysis::RunSeries baseline;
  const std::string trace_sha256 = tracebuf::Sha256::hex(reader.bytes());
  if (merged != nullptr) {
    check_merged_inputs(*merged, simulation.trace, trace_sha256, base);
  }
  ShardFile shard_file;
  const std::filesystem::path resume_dir = simulation.output + ".points";
  if (options.resume && ranks::leader()) {
    std::error_code error;
    std::filesystem::create_directories(resume_dir, error);
    if (error) {
      throw UserError("--resume: cannot create " + resume_dir.string() + ": " + error.message(), 1);
    }
  }
  std::size_t resumed = 0;
  for (std::size_t p = 0; p < points.size(); ++p) {
    const sim::HierarchyConfig& config = configs[p];
    std::shared_ptr<const sim::CompiledTrace>& compiled = compiled_by_geometry[compile_key(config)];
    if (!compiled) {
      const auto compile_started = std::chrono::steady_clock::now();
      auto fresh = std::make_shared<sim::CompiledTrace>();
      try {
        arena.execute([&] {
          *fresh = sim::compile_trace(reader, config, {.launches = simulation.launches});
        });
      } catch (const std::invalid_argument& e) {
        throw UserError(simulation.trace + ": " + describe(p, points[p]) + ": " + e.what(), 2);
      } catch (const tracebuf::DescriptorError& e) {  // ldesc.descriptors: the file itself
        throw UserError(describe(p, points[p]) + ": " + e.what(), 2);
      }
      if (fresh->transactions.empty()) {
        throw UserError(
            simulation.trace + ": the selected launches hold no memory records to simulate", 2);
      }
      compiled = std::move(fresh);
      ++performance.compiles;
      performance.compile_seconds +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - compile_started).count();
    }
    const nlohmann::json fingerprint = {
        {"trace_sha256", trace_sha256},
        {"hierarchy", nlohmann::json::parse(sim::hierarchy_to_json(config))},
        {"seed", simulation.seed},
        {"trials", simulation.trials},
        {"until_ci", simulation.until_ci},
        {"max_trials", simulation.until_ci > 0 ? simulation.max_trials : 0},
        {"launches", simulation.launches},
        {"truncated_at", reader.complete() ? 0 : reader.truncated_at()}};
    const std::filesystem::path stored_path = resume_dir / ("point-" + std::to_string(p) + ".json");
    std::optional<StoredPoint> stored;
    if (options.resume) {
      stored = load_point(stored_path, fingerprint);
      resumed += stored ? 1 : 0;
    }
    if (!stored) {
      sim::MonteCarloRun run;
      sim::MonteCarloOptions mc;
      mc.seed = simulation.seed;  // common random numbers: trial t of every point uses (seed, t)
      mc.threads = threads;
      mc.trials = simulation.trials;
      if (simulation.until_ci > 0) {
        mc.max_trials = simulation.max_trials;
        mc.converged = [&](const std::vector<sim::TrialResult>& trials) {
          return analysis::intervals_within(
              analysis::summarize_run(trials, *compiled, config, simulation.bins),
              simulation.until_ci);
        };
      }
      if (shard.active()) {
        mc.share = {shard.index, shard.count};
      } else {
        ranks::distribute(mc);
      }
      // A progress bar of the whole sweep on a terminal; nothing in a pipe, with --quiet, for a
      // shard or under mpirun (every rank must cut the trials into the same rounds). The driver
      // cuts them into rounds without changing a result or the stopping point.
      std::unique_ptr<ProgressDriver> progress;
      if (!simulation.quiet && merged == nullptr && !shard.active() && ranks::count() == 1 &&
          progress_wanted()) {
        ProgressPlan plan;
        plan.trials = simulation.trials;
        plan.until_ci = simulation.until_ci;
        plan.max_trials = simulation.max_trials;
        plan.bins = simulation.bins;
        plan.threads = threads;
        plan.sweep =
            SweepPosition{static_cast<std::uint32_t>(p), static_cast<std::uint32_t>(points.size()),
                          parameters_text(points[p]), 0};
        plan.sweep_start = started;
        progress = std::make_unique<ProgressDriver>(plan, *compiled, config, mc, std::cerr);
      }
      if (merged != nullptr) {
        run.trials = merged->points.at(p);
        run.wall_seconds = merged->wall_seconds.at(p);
      } else {
        run = sim::run_monte_carlo(*compiled, config, mc);
      }
      if (progress) {
        progress->finish();
      }
      if (shard.active()) {
        shard_file.points.push_back(shard_trials(run.trials, shard));
        shard_file.wall_seconds.push_back(run.wall_seconds);
        continue;
      }
      if (!ranks::leader()) {
        continue;  // rank 0 alone summarises, stores and reports
      }
      stored = StoredPoint{analysis::run_series(run.trials, *compiled, config), run.converged,
                           run.wall_seconds};
      if (options.resume && ranks::leader()) {
        store_point(stored_path, fingerprint, *stored);
      }
    }
    reports::SweepPoint point;
    point.parameters = points[p];
    point.summary = analysis::summarize_series(stored->series, *compiled, simulation.bins);
    point.trace = compiled;
    point.converged = stored->converged;
    point.wall_seconds = stored->wall_seconds;
    if (p == 0) {
      baseline = stored->series;
    }
    add_differences(point, baseline, stored->series);
    results.push_back(std::move(point));
  }
  if (shard.active()) {
    shard_file.shard = shard;
    shard_file.run = sweep_run_json(simulation, base, trace_sha256, mode, points);
    shard_file.threads = threads;
    write_shard(simulation.output, shard_file);
    if (!simulation.quiet) {
      std::cout << "shard " << shard.text() << " of " << points.size() << " points: trials t % "
                << shard.count << " == " << shard.index
                << " of each; shard file: " << simulation.output
                << " (combine the shards with memcarlo merge)\n";
    }
    return;
  }
  if (!ranks::leader()) {
    return;
  }
  if (merged != nullptr) {
    performance.threads = merged->threads;
  }
  performance.resumed = resumed;
  performance.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  reports::SweepInputs inputs;
  inputs.trace_path = simulation.trace;
  inputs.trace_sha256 = trace_sha256;
  inputs.base = &base;
  inputs.base_name = simulation.hierarchy;
  inputs.base_overrides = simulation.overrides;
  inputs.seed = simulation.seed;
  inputs.trials = simulation.trials;
  if (simulation.until_ci > 0) {
    inputs.stop_rule = reports::StopRule{simulation.until_ci, simulation.max_trials, false};
  }
  inputs.launches = simulation.launches;
  if (!reader.complete()) {
    inputs.truncated_at = reader.truncated_at();
  }
  inputs.mode = mode;
  std::set<std::string> seen;
  for (const Parameters& point : points) {
    for (const auto& parameter : point) {
      if (seen.insert(parameter.first).second) {
        inputs.varied_keys.push_back(parameter.first);
      }
    }
  }
  const std::string json = reports::sweep_json(inputs, results, performance);
  if (simulation.output != "-") {
    std::ofstream out(simulation.output);
    out << json << "\n";
    if (!out) {
      throw UserError(write_failure(simulation.output, "sweep report"), 1);
    }
  } else {
    std::cout << json << "\n";
  }
  if (!simulation.html.empty()) {
    write_html_report(json, simulation.output == "-" ? simulation.trace : simulation.output,
                      simulation.html);
  }
  if (!options.csv.empty()) {
    std::ofstream out(options.csv);
    reports::write_sweep_csv(out, results);
    if (!out) {
      throw UserError(write_failure(options.csv, "CSV"), 1);
    }
  }
  if (!simulation.quiet && simulation.output != "-") {
    reports::print_sweep_table(std::cout, results);
    std::cout << "\n"
              << results.size() << " points, " << performance.compiles
              << (performance.compiles == 1 ? " compile" : " compiles");
    if (options.resume) {
      std::cout << ", " << resumed << " resumed from " << resume_dir.string();
    }
    std::cout << ", " << performance.wall_seconds << " s on " << threads
              << " threads; report: " << simulation.output
              << (simulation.html.empty() ? "" : ", page: " + simulation.html) << "\n";
  }
}

void add_sweep_command(CLI::App& app) {
  auto options = std::make_shared<SweepOptions>();
  options->simulation.output = "sweep.json";
  auto* sweep = app.add_subcommand(
      "sweep",
      "What-if runs: simulate a trace under several hierarchy settings (common random numbers) "
      "and report each point's paired difference from the first, for every metric of the "
      "report (trial t of every point draws from the random streams (seed, t): common random "
      "numbers; the table shows the metrics the varied keys act on)");
  sweep->add_option("TRACE", options->simulation.trace, "Trace file (.mct)")->required();
  add_simulation_options(*sweep, options->simulation);
  sweep->add_option("--vary", options->vary,
                    "KEY=V1,V2,...: the values of a hierarchy key (repeatable; the points are the "
                    "Cartesian product of the lists, or with --zip their i-th values together). "
                    "KEY `base` varies the preset or hierarchy file itself (base=fermi-c2050,v100: "
                    "each point starts from it instead of -H, then the --set overrides and its "
                    "other keys)");
  sweep->add_flag("--zip", options->zip, "Pair the --vary lists (all of one length)");
  sweep->add_option("--points", options->points_file,
                    "JSON file with an explicit list of points: [{\"KEY\": VALUE, ...}, ...] "
                    "(\"base\": a preset or hierarchy file, as in --vary)");
  sweep->add_option("--csv", options->csv,
                    "Also write one CSV row per point x scope (overall, each load) x metric");
  sweep->add_option("--launch", options->simulation.launches,
                    "Replay only these launch indices (repeatable; default all)");
  sweep->add_flag("--allow-truncated", options->simulation.allow_truncated,
                  "Simulate the readable prefix of a truncated trace");
  sweep->add_flag("--resume", options->resume,
                  "Keep each finished point in OUTPUT.points/ (written atomically) and reuse the "
                  "points stored there that were run with the same trace, settings, seed and "
                  "trials");
  auto shard = std::make_shared<std::string>();
  sweep->add_option("--shard", *shard,
                    "I/N: run only the trials t with t % N == I (0 <= I < N) of every point, for "
                    "a fixed --trials, and write them to a shard file (-o, default "
                    "sweep.shard-I-of-N.json) for `memcarlo merge`");
  auto descriptors = std::make_shared<std::string>();
  sweep->add_option("--descriptors", *descriptors,
                    "Locality Descriptors (JSON, docs/locality-descriptors.md), each for the "
                    "launches of the kernel it names, in every point, instead of those the trace "
                    "records; as for simulate it also sets schedule.cta=ldesc and "
                    "placement.policy=ldesc before your --set, which wins (as do --vary, "
                    "--points and a hierarchy file naming them): --set "
                    "ldesc.descriptors=FILE, with FILE checked first");
  sweep->callback([options, shard, sweep, descriptors] {
    const ShardSpec spec = shard->empty() ? ShardSpec{} : parse_shard(*shard);
    SweepOptions run = *options;
    if (!descriptors->empty()) {
      const std::vector<std::string> implied =
          descriptors_overrides(*descriptors, run.simulation.hierarchy);
      run.simulation.overrides.insert(run.simulation.overrides.begin(), implied.begin(),
                                      implied.end());
    }
    if (spec.active() && sweep->get_option("--output")->count() == 0) {
      run.simulation.output = default_shard_path(run.simulation.output, spec);
    }
    run_sweep(run, spec, nullptr);
  });
}

void merge_sweep(const MergedShards& merged, const MergeOptions& merge) {
  SweepOptions options;
  SimulateOptions& simulation = options.simulation;
  simulation.trace = merge.trace.empty() ? merged.run.at("trace").get<std::string>() : merge.trace;
  simulation.hierarchy = merged.run.at("hierarchy_name").get<std::string>();
  simulation.overrides = merged.run.at("overrides").get<std::vector<std::string>>();
  simulation.seed = merged.run.at("seed").get<std::uint64_t>();
  simulation.trials = merged.run.at("trials").get<std::uint32_t>();
  simulation.bins = merged.run.at("bins").get<unsigned>();
  simulation.launches = merged.run.at("launches").get<std::vector<std::uint32_t>>();
  simulation.allow_truncated = merged.run.at("allow_truncated").get<bool>();
  simulation.threads = merge.threads;
  simulation.quiet = merge.quiet;
  simulation.output = merge.output.empty() ? "sweep.json" : merge.output;
  options.csv = merge.csv;
  run_sweep(options, ShardSpec{}, &merged);
}

}  // namespace memcarlo::cli
