// `memcarlo study STUDY.json`: every program of a study built once (memcarlo-cc), traced once
// (both cached under the output folder by a hash of what they depend on), checked, and simulated
// under every point of the study as one sweep (common random numbers, paired differences from
// the baseline); then study.json, study.csv and study.html over all programs. A program that
// fails is a row with its stage and reason; the study goes on.
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.hpp"
#include "memcarlo/reports/html_report.hpp"
#include "memcarlo/reports/study_report.hpp"
#include "memcarlo/tracebuf/errors.hpp"
#include "output_path.hpp"
#include "process.hpp"
#include "ranks.hpp"
#include "run_support.hpp"
#include "shard_file.hpp"
#include "simulate_feedback.hpp"
#include "study_cache.hpp"
#include "study_spec.hpp"
#include "sweep_run.hpp"

namespace memcarlo::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;
using study::ended;
using study::expand;
using study::log_tail;
using study::read_file;
using study::replace_all;
using study::seconds_since;
using study::StageFailure;

struct StudyOptions {
  std::string study;
  std::string suite_root = ".";
  std::string output = "study";
  std::string cache;  // empty: OUTPUT/cache
  bool resume = false;
  unsigned threads = 0;
  std::string shard;
  bool quiet = false;
};

void write_atomically(const fs::path& path, const std::string& text) {
  const fs::path partial = path.string() + ".partial";
  {
    std::ofstream out(partial);
    out << text;
    if (!out) {
      throw UserError(write_failure(partial.string(), "study file"), 1);
    }
  }
  fs::rename(partial, path);
}

class StudyRun {
 public:
  StudyRun(const StudyOptions& options, StudySpec spec)
      : options_(options),
        spec_(std::move(spec)),
        root_(fs::absolute(options.suite_root).lexically_normal()),
        out_(fs::absolute(options.output).lexically_normal()),
        cache_(
            root_,
            options.cache.empty() ? out_ / "cache" : fs::absolute(options.cache).lexically_normal(),
            spec_,
            [this](const std::string& name, const std::string& stage) { progress(name, stage); }) {}

  /// Runs the programs of `shard` (all without one); true when all of them ran.
  bool run_programs(const ShardSpec& shard) {
    const auto started = Clock::now();
    std::vector<std::size_t> mine;
    for (std::size_t i = 0; i < spec_.programs.size(); ++i) {
      if (!shard.active() || i % shard.count == shard.index) {
        mine.push_back(i);
      }
    }
    bool all_ran = true;
    for (std::size_t k = 0; k < mine.size(); ++k) {
      position_ = {k, mine.size(), started};
      all_ran = run_program(spec_.programs[mine[k]]) && all_ran;
    }
    clear_progress();
    return all_ran;
  }

  /// Reads every program's outcome from the output folder and writes study.json, .csv, .html.
  /// True when every program ran.
  bool write_reports(double wall_seconds) {
    std::vector<reports::StudyProgram> programs;
    std::vector<json> descriptors;  // per program: the descriptor file its points ran with
    json totals = {{"build_seconds", 0.0}, {"trace_seconds", 0.0}, {"simulate_seconds", 0.0}};
    if (spec_.wants_descriptors()) {
      totals["descriptors_seconds"] = 0.0;
    }
    for (const StudyProgramSpec& spec : spec_.programs) {
      reports::StudyProgram program;
      program.name = spec.name;
      program.path = spec.path;
      program.note = spec.note;
      if (!spec.bounds_check) {
        program.note += std::string(program.note.empty() ? "" : "; ") +
                        "traced with the host runtime's bounds check off (bounds_check: false)";
      }
      const fs::path dir = out_ / "programs" / spec.name;
      descriptors.emplace_back();
      json status;
      try {
        status = json::parse(read_file(dir / "status.json"));
      } catch (const json::exception&) {
        status = nullptr;
      }
      if (!status.is_object() || status.value("fingerprint", json()) != fingerprint(spec)) {
        program.failed_stage = "missing";
        program.reason = "no result in " + dir.string() +
                         " for this study (a shard that did not run, or a killed study: rerun "
                         "with --resume)";
      } else {
        program.performance = status["performance"];
        for (auto total = totals.begin(); total != totals.end(); ++total) {
          *total = total->get<double>() + program.performance.value(total.key(), 0.0);
        }
        descriptors.back() = status.value("descriptors", json());
        if (status["status"] != "ok") {
          program.failed_stage = status.value("stage", "unknown");
          program.reason = status.value("reason", "");
        } else {
          try {
            program.sweep = json::parse(read_file(dir / "sweep.json"));
          } catch (const json::exception& e) {
            program.failed_stage = "simulate";
            program.reason = (dir / "sweep.json").string() + ": not JSON (" + e.what() + ")";
          }
        }
      }
      programs.push_back(std::move(program));
    }
    totals["wall_seconds"] = wall_seconds;
    totals["threads"] = options_.threads;
    reports::StudyInputs inputs = spec_.inputs;
    inputs.suite_root = root_.string();
    nlohmann::ordered_json study = reports::study_json(inputs, programs, totals);
    add_descriptors(study, descriptors);
    const std::string text = study.dump(2);
    write_output(out_ / "study.json", text + "\n", "study report");
    std::ostringstream csv;
    reports::write_study_csv(csv, study);
    write_output(out_ / "study.csv", csv.str(), "study CSV");
    try {
      write_output(out_ / "study.html",
                   reports::html_report(json::parse(text), (out_ / "study.json").string()),
                   "study page");
    } catch (const reports::HtmlReportError& e) {
      throw UserError(std::string("internal: the study page: ") + e.what(), 1);
    }
    print_summary(study);
    return study["failures"].empty();
  }

 private:
  struct Position {
    std::size_t index = 0;
    std::size_t count = 0;
    Clock::time_point started;
  };

  /// The Locality Descriptors of the report: "descriptors": "propose" on the points that ask,
  /// and per program the file they ran with ("file", "from": proposed or program, "count",
  /// "points": point -> the file, or null for a point that runs without).
  void add_descriptors(nlohmann::ordered_json& study, const std::vector<json>& descriptors) const {
    if (!spec_.wants_descriptors()) {
      return;
    }
    for (std::size_t p = 0; p < spec_.inputs.points.size(); ++p) {
      if (spec_.point_descriptors[p]) {
        study["points"][p]["descriptors"] = "propose";
      }
    }
    for (std::size_t i = 0; i < descriptors.size(); ++i) {
      if (!descriptors[i].is_object()) {
        continue;
      }
      nlohmann::ordered_json about = descriptors[i];
      nlohmann::ordered_json points = nlohmann::ordered_json::object();
      for (std::size_t p = 0; p < spec_.inputs.points.size(); ++p) {
        points[spec_.inputs.points[p].name] =
            spec_.point_descriptors[p] ? nlohmann::ordered_json(about["file"]) : nullptr;
      }
      about["points"] = std::move(points);
      study["programs"][i]["descriptors"] = std::move(about);
    }
  }

  void write_output(const fs::path& path, const std::string& text, const std::string& what) {
    std::ofstream out(path);
    out << text;
    if (!out) {
      throw UserError(write_failure(path.string(), what), 1);
    }
  }

  /// The progress line on a terminal: program i of N, its stage, the time the study has left
  /// (the mean time of the programs done so far, times the programs left).
  void progress(const std::string& name, const std::string& stage) {
    if (options_.quiet || !progress_wanted()) {
      return;
    }
    const double elapsed = seconds_since(position_.started);
    std::string left;
    if (position_.index > 0) {
      const double per_program = elapsed / static_cast<double>(position_.index);
      const auto seconds =
          static_cast<long>(per_program * static_cast<double>(position_.count - position_.index));
      left = ", about " + std::to_string(seconds / 60) + " min " + std::to_string(seconds % 60) +
             " s left";
    }
    std::cerr << "\r\033[Kmemcarlo study: program " << position_.index + 1 << " of "
              << position_.count << " (" << name << "): " << stage << left << std::flush;
    progress_shown_ = true;
  }

  void clear_progress() {
    if (progress_shown_) {
      std::cerr << "\r\033[K" << std::flush;
      progress_shown_ = false;
    }
  }

  /// What a program's stored outcome was made from: its trace, the points, trials and seed.
  json fingerprint(const StudyProgramSpec& program) const {
    json points = json::array();
    for (std::size_t p = 0; p < spec_.inputs.points.size(); ++p) {
      const auto& point = spec_.inputs.points[p];
      points.push_back({point.name, point.preset, point.set});
      if (spec_.point_descriptors[p]) {  // only then: other studies keep their fingerprints
        points.back().push_back("descriptors");
      }
    }
    const std::string trace = cache_.trace_key(program, cache_.build_key(program));
    json print = {{"trace", trace},
                  {"points", points},
                  {"baseline", spec_.inputs.baseline},
                  {"trials", spec_.inputs.trials},
                  {"seed", spec_.inputs.seed}};
    if (spec_.wants_descriptors()) {
      print["descriptors"] = cache_.descriptors_key(program, trace);
    }
    return print;
  }

  std::optional<StageFailure> check(const StudyProgramSpec& program, const fs::path& folder) {
    const fs::path log = folder / "run.log";
    const std::string output = read_file(log);
    for (const std::string& wanted : program.output_contains) {
      if (output.find(wanted) == std::string::npos) {
        return StageFailure{"check", "the output does not contain \"" + wanted +
                                         "\" (log: " + log.string() + ")" + log_tail(log)};
      }
    }
    if (!program.check_command.empty()) {
      const fs::path check_log = folder / "check.log";
      fs::remove(check_log);
      const ProcessResult checked =
          run_process({"/bin/sh", "-c",
                       expand(program.check_command, cache_.variables(program, folder / "work"))},
                      {}, {(folder / "work").string(), check_log.string()});
      if (!checked.started || checked.shell_status() != 0) {
        return StageFailure{"check", "the check command " + ended(checked) + " (log: " +
                                         check_log.string() + ")" + log_tail(check_log)};
      }
    }
    return std::nullopt;
  }

  /// `descriptors`: the file of the points that ask for descriptors (empty when none asks).
  std::optional<StageFailure> simulate(const StudyProgramSpec& program, const fs::path& trace,
                                       const fs::path& descriptors, const fs::path& dir,
                                       json& performance) {
    progress(program.name, "simulate");
    const auto started = Clock::now();
    json points = json::array();
    const auto& study_points = spec_.inputs.points;
    for (std::size_t s = 0; s < study_points.size(); ++s) {
      // sweep order: the baseline, then the others in study order
      std::size_t p = 0;
      while (reports::sweep_index(p, spec_.inputs.baseline) != s) {
        ++p;
      }
      json point = {{"base", study_points[p].preset}};
      for (const auto& [key, value] : study_points[p].set) {
        point[key] = value;
      }
      if (spec_.point_descriptors[p]) {
        point["ldesc.descriptors"] = descriptors.string();
      }
      points.push_back(point);
    }
    write_atomically(dir / "points.json", points.dump(2) + "\n");
    SweepOptions sweep;
    sweep.points_file = (dir / "points.json").string();
    sweep.resume = options_.resume;
    sweep.simulation.trace = trace.string();
    sweep.simulation.hierarchy = study_points[spec_.inputs.baseline].preset;
    sweep.simulation.trials = spec_.inputs.trials;
    sweep.simulation.seed = spec_.inputs.seed;
    sweep.simulation.threads = options_.threads;
    sweep.simulation.output = (dir / "sweep.json").string();
    sweep.simulation.quiet = true;
    try {
      run_sweep(sweep, ShardSpec{}, nullptr);
    } catch (const UserError& e) {
      performance["simulate_seconds"] = seconds_since(started);
      return StageFailure{"simulate", e.what()};
    } catch (const tracebuf::TraceError& e) {
      performance["simulate_seconds"] = seconds_since(started);
      return StageFailure{"simulate", e.what()};
    } catch (const std::exception& e) {
      performance["simulate_seconds"] = seconds_since(started);
      return StageFailure{"simulate", std::string("internal error: ") + e.what()};
    }
    performance["simulate_seconds"] = seconds_since(started);
    return std::nullopt;
  }

  /// Builds, traces, checks and simulates one program; writes its status.json. True when it ran.
  bool run_program(const StudyProgramSpec& program) {
    const fs::path dir = out_ / "programs" / program.name;
    const json print = fingerprint(program);
    if (options_.resume) {
      try {
        const json status = json::parse(read_file(dir / "status.json"));
        if (status.value("fingerprint", json()) == print && status["status"] == "ok") {
          report_line(program, status, true);
          return true;
        }
      } catch (const json::exception&) {  // none, or a torn one: run it again
      }
    } else {
      fs::remove_all(dir);
    }
    fs::create_directories(dir);
    fs::remove(dir / "status.json");
    json performance = {{"build_seconds", 0.0}, {"trace_seconds", 0.0}, {"simulate_seconds", 0.0}};
    std::optional<StageFailure> failure;
    fs::path executable;
    fs::path folder;
    json descriptors;  // the file the points that ask for descriptors run with
    const std::string build_hash = cache_.build_key(program);
    const std::string trace_hash = cache_.trace_key(program, build_hash);
    try {
      failure = cache_.build(program, build_hash, executable, performance);
      if (!failure) {
        failure = cache_.trace(program, trace_hash, executable, folder, performance);
      }
      if (!failure) {
        failure = check(program, folder);
      }
      if (!failure && spec_.wants_descriptors()) {
        failure = cache_.descriptors(program, trace_hash, folder, descriptors, performance);
      }
      if (!failure) {
        failure = simulate(program, folder / "trace.mct",
                           descriptors.is_object() ? descriptors["file"].get<std::string>() : "",
                           dir, performance);
      }
    } catch (const fs::filesystem_error& e) {
      failure = StageFailure{"files", e.what()};
    }
    json status = {{"fingerprint", print},
                   {"status", failure ? "failed" : "ok"},
                   {"performance", performance}};
    if (descriptors.contains("count")) {  // made (or found), whatever became of the sweep
      // Relative to the output folder when under it (the default cache), else as it is.
      const fs::path file = descriptors["file"].get<std::string>();
      const fs::path relative = file.lexically_relative(out_);
      if (!relative.empty() && *relative.begin() != "..") {
        descriptors["file"] = relative.string();
      }
      status["descriptors"] = descriptors;
    }
    if (failure) {
      // Paths under the output folder relative to it, so that a study's report reads the same
      // wherever its folder is (and its shards ran).
      status["stage"] = failure->stage;
      status["reason"] = relative_to_output(failure->reason);
    }
    write_atomically(dir / "status.json", status.dump(2) + "\n");
    report_line(program, status);
    return !failure;
  }

  /// Paths under the output folder relative to it, so that a study's report reads the same
  /// wherever its folder is (and its shards ran).
  std::string relative_to_output(const std::string& text) const {
    return replace_all(replace_all(text, cache_.folder().string() + "/", "cache/"),
                       out_.string() + "/", "");
  }

  void report_line(const StudyProgramSpec& program, const json& status, bool resumed = false) {
    if (options_.quiet) {
      return;
    }
    clear_progress();
    std::cerr << "memcarlo study: [" << position_.index + 1 << "/" << position_.count << "] "
              << program.name << ": ";
    if (status["status"] == "ok") {
      const json& p = status["performance"];
      const auto stage = [&](const char* name, const char* cached) {
        std::ostringstream text;
        text.precision(3);
        if (p.value(cached, false)) {
          text << name << " cached";
        } else {
          text << name << " " << p.value(std::string(name) + "_seconds", 0.0) << " s";
        }
        return text.str();
      };
      std::ostringstream simulate;
      simulate.precision(3);
      simulate << p.value("simulate_seconds", 0.0);
      std::cerr << "ok (" << (resumed ? "kept from the earlier run: " : "")
                << stage("build", "build_cached") << ", " << stage("trace", "trace_cached")
                << (p.contains("descriptors_cached")
                        ? ", " + stage("descriptors", "descriptors_cached")
                        : std::string())
                << ", simulate " << simulate.str() << " s)\n";
    } else {
      std::cerr << "failed at " << status.value("stage", "?") << ": " << status.value("reason", "")
                << "\n";
    }
  }

  void print_summary(const nlohmann::ordered_json& study) {
    if (options_.quiet) {
      return;
    }
    std::cout << "study " << spec_.inputs.name << ": " << spec_.programs.size() << " programs x "
              << spec_.inputs.points.size() << " points; average over the programs that ran\n";
    for (const auto& metric : study["metrics"]) {
      const std::string name = metric["name"];
      std::cout << "  " << name << " (" << metric["average"].get<std::string>() << " mean):\n";
      for (const auto& point : study["points"]) {
        const auto& entry = study["average"][point["name"].get<std::string>()][name];
        char line[256];
        if (entry["mean"].is_number()) {
          std::snprintf(line, sizeof line, "    %-20s %.4g",
                        point["name"].get<std::string>().c_str(), entry["mean"].get<double>());
        } else {
          std::snprintf(line, sizeof line, "    %-20s -", point["name"].get<std::string>().c_str());
        }
        std::cout << line;
        if (entry["ci95"].is_array()) {
          std::snprintf(line, sizeof line, " [%.4g, %.4g]", entry["ci95"][0].get<double>(),
                        entry["ci95"][1].get<double>());
          std::cout << line;
        }
        std::cout << "\n";
      }
    }
    for (const auto& failure : study["failures"]) {
      std::cout << "failed: " << failure["program"].get<std::string>() << " at "
                << failure["stage"].get<std::string>() << ": "
                << failure["reason"].get<std::string>() << "\n";
    }
    std::cout << "report: " << (out_ / "study.json").string() << ", "
              << (out_ / "study.csv").string() << ", page: " << (out_ / "study.html").string()
              << "\n";
  }

  StudyOptions options_;
  StudySpec spec_;
  fs::path root_;
  fs::path out_;
  study::StudyCache cache_;  // after spec_, root_ and out_, which it is made from
  Position position_;
  bool progress_shown_ = false;
};

void run_study(const StudyOptions& options) {
  const auto started = Clock::now();
  if (ranks::count() > 1) {
    throw UserError(
        "memcarlo study does not run under mpirun: start one process per share of the programs "
        "with --shard I/N (each can use all its threads), then memcarlo study --resume for the "
        "report",
        2);
  }
  const ShardSpec shard = options.shard.empty() ? ShardSpec{} : parse_shard(options.shard);
  StudySpec spec = read_study(options.study);
  if (!fs::is_directory(options.suite_root)) {
    throw UserError("--suite-root " + options.suite_root + ": no such folder", 2);
  }
  std::error_code error;
  fs::create_directories(options.output, error);
  if (error) {
    throw UserError("cannot create the output folder " + options.output + ": " + error.message(),
                    1);
  }
  const fs::path out(options.output);
  if (!shard.active()) {
    check_writable((out / "study.json").string(), "study report");
    check_writable((out / "study.csv").string(), "study CSV");
    check_writable((out / "study.html").string(), "study page");
  }
  StudyRun run(options, std::move(spec));
  const bool ran = run.run_programs(shard);
  if (shard.active()) {
    if (!options.quiet) {
      std::cout << "shard " << shard.text() << " done; the report: memcarlo study " << options.study
                << " -o " << options.output
                << " --resume (after every shard, with the shards' programs/ folders together)\n";
    }
    if (!ran) {
      throw ExitStatus(1);
    }
    return;
  }
  if (!run.write_reports(seconds_since(started))) {
    throw ExitStatus(1);
  }
}

}  // namespace

void add_study_command(CLI::App& app) {
  auto options = std::make_shared<StudyOptions>();
  auto* study = app.add_subcommand(
      "study",
      "Run a study over benchmark programs (docs/studies.md): build each program of STUDY.json "
      "with memcarlo-cc and trace it once (both kept under the output folder, keyed by a hash of "
      "the sources, flags, arguments and memcarlo's version, and reused), check its output, "
      "simulate it under every point of the study (common random numbers: paired differences "
      "from the baseline point; a point that says \"descriptors\": \"propose\" runs with the "
      "program's Locality Descriptors, proposed once from its trace by memcarlo descriptors and "
      "cached, or the program's own \"descriptors\" file), and write study.json, study.csv and "
      "study.html (per program "
      "and point the metrics with 95% intervals, the average over programs with its interval). "
      "A program that fails is reported with its stage and reason; the exit status is 1 when "
      "any failed");
  study->add_option("STUDY", options->study, "The study file (.json)")->required();
  study->add_option("--suite-root", options->suite_root,
                    "The folder the programs' paths are under (default: the current folder)");
  study
      ->add_option("--output,-o", options->output,
                   "Output folder: study.json, study.csv, study.html, programs/NAME/ (each "
                   "program's sweep report and status) and cache/ (builds and traces)")
      ->capture_default_str();
  study->add_option("--cache", options->cache,
                    "Folder of the builds and traces (default: OUTPUT/cache); studies of the same "
                    "programs can share one");
  study->add_flag("--resume", options->resume,
                  "Keep the programs (and the sweeps' points) that already finished with the "
                  "same trace, points, trials and seed; without it they are simulated again "
                  "(builds and traces come from the cache either way)");
  study->add_option("--threads,-j", options->threads,
                    "Threads of the simulation (default: all cores)");
  study->add_option("--shard", options->shard,
                    "I/N: run only the programs i with i % N == I, into the output folder's "
                    "programs/; after every shard, memcarlo study --resume writes the report");
  study->add_flag("--quiet,-q", options->quiet, "No progress, per-program lines or summary");
  study->callback([options] { run_study(*options); });
}

}  // namespace memcarlo::cli
