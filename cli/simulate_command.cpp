// `memcarlo simulate TRACE --hierarchy P`: the Monte Carlo replay of a trace, a JSON report and a
// terminal table. Also `memcarlo hierarchy` to list presets and every configurable key.
#include <CLI/CLI.hpp>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <tbb/task_arena.h>
#include <unistd.h>

#include "commands.hpp"
#include "output_path.hpp"
#include "merge.hpp"
#include "ranks.hpp"
#include "shard_file.hpp"
#include "simulate_feedback.hpp"
#include "simulate_support.hpp"
#include "memcarlo/analysis/summary.hpp"
#include "memcarlo/reports/report.hpp"
#include "memcarlo/reports/trace_device.hpp"
#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/sim/monte_carlo.hpp"
#include "memcarlo/tracebuf/locality_descriptor.hpp"
#include "memcarlo/tracebuf/reader.hpp"
#include "memcarlo/tracebuf/sha256.hpp"

namespace memcarlo::cli {
namespace {

/// A check for a number that must be finite and above zero (CLI::PositiveNumber lets NaN through
/// and prints the largest double as its bound).
CLI::Validator positive_finite() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(value) || value <= 0) {
          return "expected a positive number such as 0.01; got " + text;
        }
        return {};
      },
      "POSITIVE");
}

sim::HierarchyConfig load_config(const std::string& hierarchy,
                                 const std::vector<std::string>& overrides) {
  try {
    std::vector<std::string> defaulted;
    sim::HierarchyConfig config = sim::load_hierarchy(hierarchy, overrides, &defaulted);
    if (!defaulted.empty() && ranks::leader()) {
      std::string list;
      for (const std::string& key : defaulted) {
        list += (list.empty() ? "" : ", ") + key;
      }
      std::cerr << "memcarlo: note: " << hierarchy << " leaves out keys added since the first "
                << "release; they take their defaults: " << list << "\n";
    }
    return config;
  } catch (const sim::ConfigError& e) {
    throw UserError(e.what(), 2);
  }
}

}  // namespace

namespace {

/// The table's row order and width: --width, else the terminal's columns when stdout is one, else
/// reports::kDefaultTableWidth.
reports::TableOptions table_options(const SimulateOptions& options) {
  reports::TableOptions table;
  const auto sort = reports::table_sort_from_string(options.sort);
  if (!sort) {
    throw UserError("--sort " + options.sort +
                        ": expected one of cost, id, location, l1, l2, latency",
                    2);
  }
  table.sort = *sort;
  table.width = options.width > 0 ? options.width
                                  : terminal_columns(STDOUT_FILENO).value_or(
                                        reports::kDefaultTableWidth);
  return table;
}

}  // namespace

void run_simulate(const SimulateOptions& options) {
  run_simulate(options, ShardSpec{}, nullptr);
}

namespace {

/// What a shard file records of a simulate run; every shard of the run has the same, and merge
/// rebuilds the run from it.
nlohmann::ordered_json simulate_run_json(const SimulateOptions& options,
                                         const sim::HierarchyConfig& config,
                                         const std::string& trace_sha256) {
  return {{"command", "simulate"},
          {"trace", options.trace},
          {"trace_sha256", trace_sha256},
          {"hierarchy", nlohmann::ordered_json::parse(sim::hierarchy_to_json(config))},
          {"hierarchy_name", options.hierarchy},
          {"overrides", options.overrides},
          {"seed", options.seed},
          {"trials", options.trials},
          {"bins", options.bins},
          {"launches", options.launches},
          {"allow_truncated", options.allow_truncated}};
}

}  // namespace

void run_simulate(const SimulateOptions& given, const ShardSpec& shard,
                  const MergedShards* merged) {
  // Only rank 0 of an MPI job prints and writes; the others run their trials quietly.
  SimulateOptions options = given;
  options.quiet = options.quiet || !ranks::leader();
  if (shard.active() && options.until_ci > 0) {
    throw UserError(
        "--until-ci cannot be used with --shard: the stop rule needs every trial of "
        "a round, and a shard holds only its own; give a fixed --trials N",
        2);
  }
  if (ranks::leader() && !shard.active()) {  // before the compile and the trials that fill them
    check_writable(options.output, "report");
    check_writable(options.html, "HTML report");
  }
  const auto started = std::chrono::steady_clock::now();
  const reports::TableOptions table = table_options(options);
  const sim::HierarchyConfig config = load_config(options.hierarchy, options.overrides);
  const auto reader =
      tracebuf::TraceReader::open(options.trace, {.allow_truncated = options.allow_truncated});
  if (!reader.complete() && !options.quiet) {
    std::cerr << "memcarlo: warning: " << options.trace << " is truncated at byte "
              << reader.truncated_at() << " (" << reader.truncation_reason()
              << "); simulating its readable prefix\n";
  }
  if (const auto mismatch = reports::snapshot_mismatch(
          reports::read_recorded_device(reader.meta().device_json), config, options.hierarchy);
      mismatch && !options.quiet) {
    std::cerr << "memcarlo: warning: " << options.trace << ": " << *mismatch << "\n";
  }
  tracebuf::check_invariants(reader);
  std::string thread_note;
  const unsigned threads = usable_threads(options.threads, available_threads(), thread_note);
  sim::CompiledTrace compiled;
  try {
    // The compile is parallel too: on the threads the trials get, not more.
    tbb::task_arena arena(static_cast<int>(threads));
    arena.execute(
        [&] { compiled = sim::compile_trace(reader, config, {.launches = options.launches}); });
  } catch (const std::invalid_argument& e) {
    throw UserError(options.trace + ": " + e.what(), 2);
  } catch (const tracebuf::DescriptorError& e) {  // ldesc.descriptors: the file itself
    throw UserError(e.what(), 2);
  }
  if (compiled.transactions.empty()) {
    throw UserError(options.trace + ": the selected launches hold no memory records to simulate",
                    2);
  }
  const std::string digest = tracebuf::Sha256::hex(reader.bytes());
  const double compile_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (merged != nullptr) {
    check_merged_inputs(*merged, options.trace, digest, config);
  }

  if (!thread_note.empty() && !options.quiet) {
    std::cerr << "memcarlo: note: " << thread_note << "\n";
  }
  RunEstimate estimate;
  estimate.compiled_trace_bytes = compiled.bytes();
  estimate.trial_state_bytes = estimate_trial_state_bytes(compiled, config);
  estimate.threads = threads;
  estimate.transactions = compiled.transactions.size();
  estimate.until_ci = options.until_ci > 0;
  estimate.trials = estimate.until_ci ? std::min(options.trials, options.max_trials) : options.trials;
  estimate.max_trials = options.max_trials;
  if (const std::string notice = resource_notice(estimate, physical_memory_bytes());
      !notice.empty() && !options.quiet && merged == nullptr) {
    std::cerr << "memcarlo: note: " << notice << "\n";
  }

  sim::MonteCarloOptions mc;
  mc.seed = options.seed;
  mc.threads = threads;
  mc.trials = options.trials;
  if (options.until_ci > 0) {
    mc.max_trials = options.max_trials;
    mc.converged = [&](const std::vector<sim::TrialResult>& trials) {
      return analysis::intervals_within(
          analysis::summarize_run(trials, compiled, config, options.bins), options.until_ci);
    };
  }
  if (shard.active()) {
    mc.share = {shard.index, shard.count};
  } else {
    ranks::distribute(mc);
  }
  sim::MonteCarloRun run;
  if (merged != nullptr) {
    run.trials = merged->points.at(0);
    run.wall_seconds = merged->wall_seconds.at(0);
    run.threads = merged->threads;
  } else {
    std::unique_ptr<ProgressDriver> progress;
    if (!options.quiet && progress_wanted() && !shard.active() && ranks::count() == 1) {
      ProgressPlan plan;
      plan.trials = options.trials;
      plan.until_ci = options.until_ci;
      plan.max_trials = options.max_trials;
      plan.bins = options.bins;
      plan.threads = threads;
      progress = std::make_unique<ProgressDriver>(plan, compiled, config, mc, std::cerr);
    }
    run = sim::run_monte_carlo(compiled, config, mc);
    if (progress) {
      progress->finish();
    }
  }
  if (shard.active()) {
    ShardFile file;
    file.shard = shard;
    file.run = simulate_run_json(options, config, digest);
    file.points.push_back(shard_trials(run.trials, shard));
    file.wall_seconds.push_back(run.wall_seconds);
    file.threads = run.threads;
    write_shard(options.output, file);
    if (!options.quiet) {
      std::cout << "shard " << shard.text() << ": " << file.points[0].size() << " of "
                << run.trials.size() << " trials in " << run.wall_seconds << " s on " << run.threads
                << " threads; shard file: " << options.output
                << " (combine the shards with memcarlo merge)\n";
    }
    return;
  }
  if (!ranks::leader()) {
    return;
  }
  SimulateReportInputs report;
  report.trace_sha256 = digest;
  report.config = &config;
  report.compiled = &compiled;
  report.compile_seconds = compile_seconds;
  report.table = table;
  write_simulate_report(options, report, run);
}

void write_simulate_report(const SimulateOptions& options, const SimulateReportInputs& report,
                           const sim::MonteCarloRun& run) {
  const sim::CompiledTrace& compiled = *report.compiled;
  const sim::HierarchyConfig& config = *report.config;
  const analysis::SimulationSummary summary =
      analysis::summarize_run(run.trials, compiled, config, options.bins);

  reports::ReportInputs inputs;
  inputs.trace_path = options.trace;
  inputs.trace_sha256 = report.trace_sha256;
  inputs.hierarchy = &config;
  inputs.seed = options.seed;
  if (options.until_ci > 0) {
    inputs.stop_rule = reports::StopRule{options.until_ci, options.max_trials, run.converged};
  }
  inputs.emulation = options.emulation;
  reports::ReportPerformance performance;
  performance.transactions_per_trial = compiled.transactions.size();
  performance.wall_seconds = run.wall_seconds;
  performance.compile_seconds = report.compile_seconds;
  performance.threads = run.threads;
  performance.trial_state_bytes = run.workspace_bytes;
  performance.compiled_trace_bytes = compiled.bytes();
  const std::string json = reports::report_json(inputs, summary, compiled, performance);
  if (options.output != "-") {
    std::ofstream out(options.output);
    out << json << "\n";
    if (!out) {
      throw UserError(write_failure(options.output, "report"), 1);
    }
  } else {
    std::cout << json << "\n";
  }
  if (!options.html.empty()) {
    write_html_report(json, options.output == "-" ? options.trace : options.output, options.html);
  }
  if (!options.quiet && options.output != "-") {
    reports::print_table(std::cout, summary, compiled, config, report.table);
    std::cout << "\n" << run.trials.size() << " trials of " << compiled.transactions.size()
              << " transactions in " << run.wall_seconds << " s on " << run.threads
              << " threads";
    if (ranks::count() > 1) {
      std::cout << " in each of " << ranks::count() << " MPI ranks";
    }
    if (options.until_ci > 0) {
      std::cout << (run.converged ? " (every 95% interval within " : " (NOT converged to ")
                << options.until_ci << ")";
    }
    std::cout << "; report: " << options.output
              << (options.html.empty() ? "" : ", page: " + options.html) << "\n";
  }
}

std::vector<sim::TrialResult> shard_trials(const std::vector<sim::TrialResult>& trials,
                                           const ShardSpec& shard) {
  std::vector<sim::TrialResult> mine;
  for (std::size_t t = shard.index; t < trials.size(); t += shard.count) {
    mine.push_back(trials[t]);
  }
  return mine;
}

void check_merged_inputs(const MergedShards& merged, const std::string& trace,
                         const std::string& trace_sha256, const sim::HierarchyConfig& config) {
  if (merged.run.at("trace_sha256") != trace_sha256) {
    throw UserError("merge: " + trace + " has SHA-256 " + trace_sha256 +
                        " but the shards were run on a trace with SHA-256 " +
                        merged.run.at("trace_sha256").get<std::string>() +
                        " (give the shards' trace with --trace FILE)",
                    2);
  }
  if (merged.run.at("hierarchy") != nlohmann::ordered_json::parse(sim::hierarchy_to_json(config))) {
    throw UserError("merge: the hierarchy " + merged.run.at("hierarchy_name").get<std::string>() +
                        " no longer gives the parameters the shards were run with (was its "
                        "file edited?)",
                    2);
  }
}

void merge_simulate(const MergedShards& merged, const MergeOptions& merge) {
  SimulateOptions options;
  options.trace = merge.trace.empty() ? merged.run.at("trace").get<std::string>() : merge.trace;
  options.hierarchy = merged.run.at("hierarchy_name").get<std::string>();
  options.overrides = merged.run.at("overrides").get<std::vector<std::string>>();
  options.seed = merged.run.at("seed").get<std::uint64_t>();
  options.trials = merged.run.at("trials").get<std::uint32_t>();
  options.bins = merged.run.at("bins").get<unsigned>();
  options.launches = merged.run.at("launches").get<std::vector<std::uint32_t>>();
  options.allow_truncated = merged.run.at("allow_truncated").get<bool>();
  options.threads = merge.threads;
  options.quiet = merge.quiet;
  options.output = merge.output.empty() ? "report.json" : merge.output;
  run_simulate(options, ShardSpec{}, &merged);
}

namespace {

/// The hierarchy as a file `simulate -H FILE` reads: every key, nested as the component tree
/// ("l1": {"size": ...}), so that the file gives back the same parameters.
std::string hierarchy_file_json(const sim::HierarchyConfig& config) {
  const auto flat = nlohmann::json::parse(sim::hierarchy_to_json(config));
  nlohmann::ordered_json tree = nlohmann::ordered_json::object();
  for (const auto& parameter : sim::hierarchy_parameters()) {
    nlohmann::ordered_json* node = &tree;
    std::string_view key = parameter.key;
    for (auto dot = key.find('.'); dot != std::string_view::npos; dot = key.find('.')) {
      node = &(*node)[std::string(key.substr(0, dot))];
      key.remove_prefix(dot + 1);
    }
    (*node)[std::string(key)] = flat.at(parameter.key);
  }
  return tree.dump(2);
}

void print_hierarchy(const std::string& name, const std::vector<std::string>& overrides,
                     bool as_json) {
  const sim::HierarchyConfig config = load_config(name, overrides);
  if (as_json) {
    std::cout << hierarchy_file_json(config) << "\n";
    return;
  }
  const auto values = nlohmann::json::parse(sim::hierarchy_to_json(config));
  for (const auto& parameter : sim::hierarchy_parameters()) {
    std::cout << parameter.key << " = " << values.at(parameter.key).dump() << "\n";
  }
  if (config.l1.enabled && config.l1.adaptive) {
    const std::uint64_t way_bytes = std::uint64_t{config.l1.line} * config.l1.sets();
    std::cout << "\nThe L1 is adaptive: each launch gets l1.unified_size ("
              << config.l1.unified_size / 1024
              << " KiB) minus the shared-memory carveout chosen for its resident blocks, from "
              << config.l1.unified_size / 1024 << " KiB (no shared memory) down to "
              << (config.l1.unified_size - config.l1.carveouts.back()) / 1024 << " KiB, in "
              << config.l1.sets() << " sets of up to " << config.l1.associativity << " ways of "
              << static_cast<double>(way_bytes) / 1024.0
              << " KiB. `--set l1.size=...` fixes it; the report gives each launch's carveout "
                 "and L1 size (inputs.launches).\n";
  }
}

void print_keys() {
  for (const auto& parameter : sim::hierarchy_parameters()) {
    std::cout << parameter.key << " (" << parameter.type;
    if (!parameter.choices.empty()) {
      std::cout << ":";
      for (const auto& choice : parameter.choices) {
        std::cout << " " << choice;
      }
    }
    std::cout << ")";
    if (parameter.optional) {
      std::cout << ", optional, default " << parameter.fallback;
    }
    std::cout << "\n    " << parameter.description << "\n";
  }
}

}  // namespace

void add_simulation_options(CLI::App& command, SimulateOptions& options) {
  auto* simulate = &command;
  simulate->add_option("--hierarchy,-H", options.hierarchy,
                       "Preset name (" + [] {
                         std::string names;
                         for (const auto& n : sim::preset_names()) {
                           names += (names.empty() ? "" : ", ") + n;
                         }
                         return names;
                       }() + ") or JSON hierarchy file")
      ->capture_default_str();
  simulate->add_option("--set", options.overrides,
                       "Override a hierarchy parameter, e.g. --set l1.size=48KiB (repeatable; "
                       "`memcarlo hierarchy keys` lists them)");
  simulate->add_option("--trials,-n", options.trials, "Number of trials (or the first round "
                                                       "with --until-ci)")
      ->check(CLI::Range(1u, 1000000u))
      ->capture_default_str();
  simulate->add_option("--seed,-s", options.seed, "Random seed")->capture_default_str();
  simulate
      ->add_option("--threads,-j", options.threads,
                   "Worker threads (0: all cores; more than the machine's hardware threads are "
                   "lowered to them)")
      ->capture_default_str();
  auto* until_ci =
      simulate
          ->add_option("--until-ci", options.until_ci,
                       "Stop when every 95% interval half-width is at most E (ratios; latencies "
                       "relative to their mean)")
          ->check(positive_finite());
  simulate->add_option("--max-trials", options.max_trials, "Trial limit with --until-ci")
      ->check(CLI::Range(1u, 1000000u))
      ->needs(until_ci)
      ->capture_default_str();
  simulate->add_option("--output,-o", options.output, "Report file ('-' for stdout)")
      ->capture_default_str();
  simulate->add_option("--html", options.html,
                       "Also write the report as a self-contained HTML page with plots to FILE "
                       "(as `memcarlo report --html` makes it)");
  simulate
      ->add_option("--bins", options.bins,
                   "Histogram bins, over the trials' [min, max] widened by 5 % on each side")
      ->check(CLI::Range(1u, 1000u))
      ->capture_default_str();
  simulate->add_flag("--quiet,-q", options.quiet,
                     "Print no table, progress, notes or warnings (errors only)");
}

void add_table_options(CLI::App& command, SimulateOptions& options) {
  auto* simulate = &command;
  simulate
      ->add_option("--sort", options.sort,
                   "Order of the table's rows: cost (requests x latency, largest first), id, "
                   "location, l1 / l2 (lowest hit ratio first), latency (longest first)")
      ->check(CLI::IsMember({"cost", "id", "location", "l1", "l2", "latency"}))
      ->capture_default_str();
  simulate->add_option("--width", options.width,
                       "Columns the table fits in (default: the terminal's, or " +
                           std::to_string(reports::kDefaultTableWidth) +
                           " when stdout is not a terminal); file:line:column is never cut")
      ->check(CLI::Range(std::size_t{20}, std::size_t{100000}));
}

void add_simulate_command(CLI::App& app) {
  auto options = std::make_shared<SimulateOptions>();
  auto* simulate = app.add_subcommand(
      "simulate",
      "Replay a trace many times with randomized warp and block orderings through a memory "
      "hierarchy model; write a JSON report and print per-load hit ratios and latencies");
  simulate->add_option("TRACE", options->trace, "Trace file (.mct)")->required();
  add_simulation_options(*simulate, *options);
  add_table_options(*simulate, *options);
  simulate->add_option("--launch", options->launches,
                       "Replay only these launch indices (repeatable; default all)");
  simulate->add_flag("--allow-truncated", options->allow_truncated,
                     "Simulate the readable prefix of a truncated trace");
  auto shard = std::make_shared<std::string>();
  simulate->add_option("--shard", *shard,
                       "I/N: run only the trials t with t % N == I (0 <= I < N) of a fixed "
                       "--trials and write them to a shard file (-o, default "
                       "report.shard-I-of-N.json) for `memcarlo merge`");
  auto descriptors = std::make_shared<std::string>();
  simulate->add_option(
      "--descriptors", *descriptors,
      "Locality Descriptors (JSON, docs/locality-descriptors.md), each for the launches of the "
      "kernel it names (a file without kernel names: only for a trace of one kernel), instead "
      "of those the trace records (`memcarlo descriptors TRACE` proposes them). Also turns on "
      "the mechanisms that use them: --set schedule.cta=ldesc --set placement.policy=ldesc "
      "(placement acts with numa.modules > 1) before your own --set, "
      "which wins, as does a hierarchy file that names either key; the L1 and prefetch "
      "mechanisms stay off unless you set ldesc.cache=true or prefetch.policy=ldesc. Same as "
      "those --set plus --set ldesc.descriptors=FILE, with FILE checked first. The report's "
      "inputs.launches list each launch's descriptors");
  simulate->callback([options, shard, simulate, descriptors] {
    const ShardSpec spec = shard->empty() ? ShardSpec{} : parse_shard(*shard);
    SimulateOptions run = *options;
    if (!descriptors->empty()) {
      const std::vector<std::string> implied = descriptors_overrides(*descriptors, run.hierarchy);
      run.overrides.insert(run.overrides.begin(), implied.begin(), implied.end());
    }
    if (spec.active() && simulate->get_option("--output")->count() == 0) {
      run.output = default_shard_path(run.output, spec);
    }
    run_simulate(run, spec, nullptr);
  });

  auto* hierarchy = app.add_subcommand("hierarchy", "Show hierarchy presets and parameters");
  hierarchy->require_subcommand(1);
  hierarchy->add_subcommand("list", "List the presets")->callback([] {
    for (const auto& name : sim::preset_names()) {
      std::cout << name << "\n";
    }
  });
  auto show_name = std::make_shared<std::string>();
  auto show_overrides = std::make_shared<std::vector<std::string>>();
  auto show_json = std::make_shared<bool>(false);
  auto* show = hierarchy->add_subcommand("show", "Print every parameter of a preset or file");
  show->add_option("NAME", *show_name, "Preset or JSON file")->required();
  show->add_option("--set", *show_overrides, "Override a parameter (key=value)");
  show->add_flag("--json", *show_json,
                 "Print a hierarchy file with every key (nested as l1: {size: ...}): edit it and "
                 "give it to simulate -H FILE");
  show->callback([show_name, show_overrides, show_json] {
    print_hierarchy(*show_name, *show_overrides, *show_json);
  });
  hierarchy->add_subcommand("keys", "Describe every parameter a hierarchy file may set")
      ->callback(print_keys);
}

}  // namespace memcarlo::cli
