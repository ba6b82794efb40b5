// `memcarlo profile FILE.cu [-- args]`: everything in one command — build with memcarlo-cc for the
// host backend, run with tracing, simulate, print the per-load table and write report.json and
// report.html beside it.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "output_path.hpp"
#include "process.hpp"
#include "run_support.hpp"
#include "simulate_support.hpp"

namespace memcarlo::cli {
namespace {
namespace fs = std::filesystem;

struct ProfileOptions {
  std::string source;
  std::vector<std::string> cc_flags;
  std::string work_dir;
  RunOptions run;
  SimulateOptions simulate;
  std::vector<std::string> arguments;
  bool run_to_end = false;
};

void run_profile(ProfileOptions options) {
  if (!fs::exists(options.source)) {
    throw UserError(options.source + ": no such file", 2);
  }
  // The outputs are checked before the build, the run and the simulation that fill them.
  if (options.simulate.html.empty()) {  // the page beside the report, named after it
    options.simulate.html = page_beside(options.simulate.output);
  }
  check_writable(options.simulate.output, "report");
  check_writable(options.simulate.html, "HTML report");
  const bool keep = !options.work_dir.empty();
  fs::path work = options.work_dir;
  if (!keep) {
    char pattern[] = "/tmp/memcarlo-profile-XXXXXX";
    if (::mkdtemp(pattern) == nullptr) {
      throw UserError("cannot create a temporary directory", 1);
    }
    work = pattern;
  }
  fs::create_directories(work);
  struct Cleanup {
    fs::path dir;
    bool keep;
    ~Cleanup() {
      if (!keep) {
        std::error_code ignored;
        fs::remove_all(dir, ignored);
      }
    }
  } cleanup{work, keep};
  // A temporary work directory that a message points into is kept (and said so).
  const auto keep_for_message = [&cleanup](const std::string& message) {
    if (cleanup.keep) {
      return message;
    }
    cleanup.keep = true;
    return message + " (the program and its trace are kept in " + cleanup.dir.string() +
           "; remove it when done)";
  };

  const std::string program = (work / fs::path(options.source).stem()).string();
  std::vector<std::string> build = {(fs::path(executable_directory()) / "memcarlo-cc").string(),
                                    "--backend",
                                    "host",
                                    options.source,
                                    "-o",
                                    program};
  build.insert(build.end(), options.cc_flags.begin(), options.cc_flags.end());
  std::cerr << "memcarlo profile: building " << options.source << " for the host backend\n";
  const ProcessResult built = run_process(build);
  if (!built.started || built.shell_status() != 0) {
    throw UserError("building " + options.source +
                        " failed: " + (built.started ? quote_command(build) : built.error),
                    2);
  }

  options.run.trace = program + ".mct";
  options.run.stop_after_trace = !options.run_to_end;
  options.run.hierarchy = options.simulate.hierarchy;
  options.run.overrides = options.simulate.overrides;
  options.run.program = {program};
  options.run.program.insert(options.run.program.end(), options.arguments.begin(),
                             options.arguments.end());
  std::cerr << "memcarlo profile: running " << quote_command(options.run.program) << "\n";
  const TraceOutcome outcome = run_traced(options.run);
  if (!outcome.message.empty()) {
    std::cerr << "memcarlo profile: " << outcome.message << "\n";
  }
  if (!outcome.problem.empty()) {
    throw UserError(keep_for_message(outcome.problem), 2);
  }
  options.simulate.trace = options.run.trace;
  reports::Emulation emulation;
  if (outcome.stopped) {
    emulation.stopped_after_trace = true;
    const StoppedLaunch& stopped = *outcome.stopped;
    if (stopped.blocks_run < stopped.blocks) {
      emulation.partial_launches.push_back(
          {stopped.launch, stopped.kernel, stopped.blocks_run, stopped.blocks});
    }
  }
  options.simulate.emulation = emulation;
  std::cerr << "memcarlo profile: simulating " << outcome.launches << " launches, "
            << outcome.records << " warp records\n";
  try {
    run_simulate(options.simulate);
  } catch (const UserError& e) {
    const std::string message = e.what();
    if (message.find("does not fit on one SM of hierarchy") == std::string::npos) {
      throw;
    }
    // simulate's advice names memcarlo run and simulate; here the whole profile reruns.
    throw UserError(keep_for_message(message + ". To profile it, give memcarlo profile such a "
                                               "hierarchy: memcarlo profile -H PRESET " +
                                     options.source),
                    e.exit_code());
  }
  if (outcome.stopped && !options.simulate.quiet && options.simulate.output != "-") {
    std::cout << "note: " << stopped_note(outcome) << "\n";
  }
  if (outcome.status() != 0) {
    throw ExitStatus(outcome.status());
  }
}

}  // namespace

void add_profile_command(CLI::App& app) {
  auto options = std::make_shared<ProfileOptions>();
  auto* profile = app.add_subcommand(
      "profile",
      "Profile a CUDA program in one command: build it with memcarlo-cc for the host backend (no "
      "GPU needed), run it with tracing, simulate the trace, print the per-load table and write "
      "report.json and the page beside it, named after it (-o DIR/NAME.json writes "
      "DIR/NAME.html; --html FILE to put the page elsewhere)");
  profile->add_option("FILE", options->source, "The .cu file (the whole program)")->required();
  profile
      ->add_option("--cc-flag", options->cc_flags,
                   "An extra memcarlo-cc / nvcc argument, e.g. --cc-flag=-Iinclude "
                   "(repeatable)")
      ->allow_extra_args(false);
  profile->add_option("--work-dir", options->work_dir,
                      "Keep the program, its trace and the build here (default: a temporary "
                      "directory, removed)");
  profile->add_option("--kernel,-k", options->run.kernel,
                      "Trace only these kernels (comma-separated names)");
  profile->add_option("--launch", options->run.launch,
                      "Which launch of each traced kernel (0-based), or 'all' (default: the first that "
                     "makes a global-memory access, looking past up to 8 empty ones)");
  profile
      ->add_option("--snapshot-factor", options->run.snapshot_factor,
                   "Snapshot = SMs x resident blocks per SM x this")
      ->check(CLI::Range(1u, 1u << 20))
      ->capture_default_str();
  profile->add_flag("--run-to-end", options->run_to_end,
                    "Run the program to its end (its later launches and its own checks too); by "
                    "default it stops once its traced launches are written, the last of them "
                    "running only its snapshot's blocks (docs/host-runtime.md)");
  add_simulation_options(*profile, options->simulate);
  add_table_options(*profile, options->simulate);
  profile->add_option("ARGS", options->arguments, "Arguments of the program, after --");
  profile->callback([options] { run_profile(*options); });
}

}  // namespace memcarlo::cli
