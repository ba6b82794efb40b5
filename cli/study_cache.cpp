// The build and trace cache of `memcarlo study` (study_cache.hpp).
#include "study_cache.hpp"

#include <fstream>
#include <set>
#include <sstream>

#include "commands.hpp"
#include "memcarlo/tracebuf/locality_descriptor.hpp"
#include "memcarlo/tracebuf/sha256.hpp"
#include "run_support.hpp"

namespace memcarlo::cli::study {
namespace {

std::string sha256_of(const std::string& text) {
  return tracebuf::Sha256::hex(std::as_bytes(std::span(text.data(), text.size())));
}

/// A file a Makefile build reads (sources, headers, makefiles), which its build key hashes; the
/// outputs the build writes beside them (objects, the executable, results) are not.
bool build_input(const fs::path& path) {
  static const std::set<std::string, std::less<>> kExtensions = {
      ".cu", ".cuh", ".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".mk", ".config"};
  const std::string name = path.filename().string();
  return kExtensions.contains(path.extension().string()) || name.starts_with("Makefile") ||
         name.starts_with("makefile");
}

}  // namespace

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The last lines of a log, for a failure's reason.
std::string log_tail(const fs::path& log, std::size_t lines) {
  std::vector<std::string> kept;
  std::istringstream in(read_file(log));
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) {
      // A long line keeps its start and its end, which often says what to do (the host
      // runtime's "(... turns this check off)").
      kept.push_back(
          line.size() > 240 ? line.substr(0, 150) + " ... " + line.substr(line.size() - 85) : line);
    }
  }
  std::string out;
  for (std::size_t i = kept.size() > lines ? kept.size() - lines : 0; i < kept.size(); ++i) {
    out += (out.empty() ? "" : " | ") + kept[i];
  }
  return out.empty() ? "" : "; its log ends: " + out;
}

std::string ended(const ProcessResult& result) {
  if (!result.started) {
    return result.error;
  }
  return result.signal != 0 ? "was killed by signal " + std::to_string(result.signal)
                            : "exited with status " + std::to_string(result.exit_code);
}

/// {suite}, {dir}, {study} and {work} in a study's arguments and commands.
std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

std::string expand(std::string text, const std::vector<std::pair<std::string, std::string>>& vars) {
  for (const auto& [name, value] : vars) {
    text = replace_all(std::move(text), "{" + name + "}", value);
  }
  return text;
}

StudyCache::StudyCache(fs::path root, fs::path cache, const StudySpec& spec, Progress progress)
    : root_(std::move(root)),
      cache_(std::move(cache)),
      spec_(spec),
      cc_((fs::path(executable_directory()) / "memcarlo-cc").string()),
      progress_(std::move(progress)) {}

fs::path StudyCache::program_dir(const StudyProgramSpec& program) const {
  return (root_ / program.path).lexically_normal();
}

/// What the build depends on: memcarlo's version, the build's description, and the contents of
/// the sources (of every file of the folder for a Makefile build).
std::string StudyCache::build_key(const StudyProgramSpec& program) const {
  const fs::path dir = program_dir(program);
  json key = {{"memcarlo", MEMCARLO_VERSION},
              {"dir", dir.string()},
              {"sources", program.sources},
              {"include", program.include},
              {"defines", program.defines},
              {"flags", program.flags},
              {"make", program.make},
              {"make_target", program.make_target},
              {"make_variables", program.make_variables},
              {"make_arguments", program.make_arguments},
              {"executable", program.executable}};
  json contents = json::object();
  if (program.make) {
    std::error_code error;
    for (fs::recursive_directory_iterator it(dir, error), end; !error && it != end;
         it.increment(error)) {
      if (it->is_regular_file() && build_input(it->path())) {
        contents[fs::relative(it->path(), dir).string()] = sha256_of(read_file(it->path()));
      }
    }
  } else {
    for (const std::string& source : program.sources) {
      contents[source] = sha256_of(read_file(dir / source));
    }
  }
  key["contents"] = contents;
  return sha256_of(key.dump()).substr(0, 24);
}

std::string StudyCache::trace_key(const StudyProgramSpec& program, const std::string& build) const {
  json key = {{"build", build},
              {"args", program.args},
              {"inputs", program.inputs},
              {"kernels", program.kernels},
              {"launch", program.launch},
              {"hierarchy", spec_.trace_hierarchy},
              {"snapshot_factor", spec_.snapshot_factor},
              {"suite_root", root_.string()}};
  if (!program.bounds_check) {
    key["bounds_check"] = false;  // only when off: the traces cached before it keep their keys
  }
  if (!program.run_in.empty()) {
    key["run_in"] = program.run_in;  // likewise
  }
  return sha256_of(key.dump()).substr(0, 24);
}

std::vector<std::pair<std::string, std::string>> StudyCache::variables(
    const StudyProgramSpec& program, const fs::path& work) const {
  return {{"suite", root_.string()},
          {"dir", program_dir(program).string()},
          {"study", spec_.folder},
          {"work", work.string()}};
}

/// The program's executable in the build cache, built when missing.
std::optional<StageFailure> StudyCache::build(const StudyProgramSpec& program,
                                              const std::string& key, fs::path& executable,
                                              json& performance) {
  const fs::path done = cache_ / ("build-" + key);
  // Named after the first source: programs that share a build share the executable.
  const fs::path exe_in = program.make ? fs::path(program.executable).filename()
                                       : fs::path(program.sources.front()).stem();
  executable = done / exe_in;
  if (fs::exists(done / "built") && fs::exists(executable)) {
    performance["build_cached"] = true;
    return std::nullopt;
  }
  performance["build_cached"] = false;
  progress(program.name, "build");
  const auto started = Clock::now();
  const fs::path partial = done.string() + ".partial";
  fs::remove_all(partial);
  fs::create_directories(partial);
  const fs::path log = partial / "build.log";
  const fs::path dir = program_dir(program);
  if (!fs::is_directory(dir)) {
    return StageFailure{"build",
                        dir.string() + ": no such folder under the suite root " + root_.string()};
  }
  std::vector<std::string> command;
  ProcessIo io{dir.string(), log.string()};
  std::vector<std::pair<std::string, std::string>> environment;
  if (program.make) {
    // In the program's folder (suites' Makefiles include files by relative paths), always
    // (-B: an executable that nvcc built there is not ours), with memcarlo-cc in nvcc's place
    // twice over: the compiler variables, and an `nvcc` first on PATH for Makefiles that name
    // nvcc itself.
    const fs::path shim = partial / "bin";
    fs::create_directories(shim);
    std::ofstream(shim / "nvcc") << "#!/bin/sh\nexec '" << cc_ << "' --backend host \"$@\"\n";
    fs::permissions(shim / "nvcc", fs::perms::owner_all | fs::perms::group_read |
                                       fs::perms::group_exec | fs::perms::others_read |
                                       fs::perms::others_exec);
    const char* path = std::getenv("PATH");
    environment.emplace_back("PATH", shim.string() + ":" + (path != nullptr ? path : ""));
    command = {"make", "-B"};
    if (!program.make_target.empty()) {
      command.push_back(program.make_target);
    }
    for (const std::string& variable : program.make_variables) {
      command.push_back(variable + "=" + cc_ + " --backend host");
    }
    command.insert(command.end(), program.make_arguments.begin(), program.make_arguments.end());
  } else {
    command = {cc_, "--backend", "host"};
    for (const std::string& source : program.sources) {
      command.push_back((dir / source).string());
    }
    for (const std::string& include : program.include) {
      command.push_back("-I" + (dir / include).string());
    }
    for (const std::string& define : program.defines) {
      command.push_back("-D" + define);
    }
    command.insert(command.end(), program.flags.begin(), program.flags.end());
    command.push_back("-o");
    command.push_back((partial / exe_in).string());
  }
  { std::ofstream(log) << "$ " << quote_command(command) << "\n"; }
  const ProcessResult result = run_process(command, environment, io);
  if (program.make && result.started && result.shell_status() == 0 &&
      fs::exists(dir / program.executable)) {
    fs::copy_file(dir / program.executable, partial / exe_in, fs::copy_options::overwrite_existing);
  }
  performance["build_seconds"] = seconds_since(started);
  if (!result.started || result.shell_status() != 0) {
    return StageFailure{
        "build", command[0] + " " + ended(result) + " (log: " + log.string() + ")" + log_tail(log)};
  }
  if (!fs::exists(partial / exe_in)) {
    return StageFailure{"build", "the build made no " + (partial / exe_in).string()};
  }
  std::ofstream(partial / "built") << "\n";
  fs::remove_all(done);
  fs::rename(partial, done);
  return std::nullopt;
}

/// The program's trace in the trace cache, made when missing (inputs, then the traced run).
std::optional<StageFailure> StudyCache::trace(const StudyProgramSpec& program,
                                              const std::string& key, const fs::path& executable,
                                              fs::path& folder, json& performance) {
  folder = cache_ / ("trace-" + key);
  if (fs::exists(folder / "traced")) {
    performance["trace_cached"] = true;
    return std::nullopt;
  }
  performance["trace_cached"] = false;
  const auto started = Clock::now();
  const fs::path partial = folder.string() + ".partial";
  fs::remove_all(partial);
  fs::create_directories(partial / "work");
  const auto vars = variables(program, partial / "work");
  if (!program.inputs.empty()) {
    progress(program.name, "inputs");
    const fs::path log = partial / "inputs.log";
    const ProcessResult made = run_process({"/bin/sh", "-c", expand(program.inputs, vars)}, {},
                                           {(partial / "work").string(), log.string()});
    if (!made.started || made.shell_status() != 0) {
      performance["trace_seconds"] = seconds_since(started);
      return StageFailure{"inputs", "the inputs command " + ended(made) + " (log: " + log.string() +
                                        ")" + log_tail(log)};
    }
  }
  progress(program.name, "trace");
  RunOptions run;
  run.trace = (partial / "trace.mct").string();
  run.kernel = program.kernels;
  run.launch = program.launch;
  run.snapshot_factor = spec_.snapshot_factor;
  run.hierarchy = spec_.trace_hierarchy;
  run.bounds_check = program.bounds_check;
  run.bounds_check_hint = "\"bounds_check\": false in the program's study entry";
  run.program = {executable.string()};
  for (const std::string& arg : program.args) {
    run.program.push_back(expand(arg, vars));
  }
  const fs::path run_in = partial / "work" / program.run_in;
  fs::create_directories(run_in);
  run.io = {run_in.string(), (partial / "run.log").string()};
  TraceOutcome outcome;
  try {
    outcome = run_traced(run);
  } catch (const UserError& e) {
    performance["trace_seconds"] = seconds_since(started);
    return StageFailure{"run", e.what()};
  }
  performance["trace_seconds"] = seconds_since(started);
  const std::string log = (partial / "run.log").string();
  if (!outcome.message.empty()) {
    return StageFailure{"run", outcome.message + " (log: " + log + ")" + log_tail(log)};
  }
  if (!outcome.problem.empty()) {
    return StageFailure{"run", outcome.problem + " (log: " + log + ")"};
  }
  std::ofstream(partial / "traced")
      << json{{"records", outcome.records}, {"launches", outcome.launches}}.dump() << "\n";
  fs::remove_all(folder);
  fs::rename(partial, folder);
  return std::nullopt;
}

std::string StudyCache::descriptors_key(const StudyProgramSpec& program,
                                        const std::string& trace) const {
  if (!program.descriptors.empty()) {
    std::ifstream in(program.descriptors, std::ios::binary);
    const std::string contents = in ? read_file(program.descriptors) : std::string();
    return sha256_of(json{{"file", in ? sha256_of(contents) : "unreadable"}}.dump()).substr(0, 24);
  }
  // The proposer is this memcarlo's: a rebuilt one (its rules may have changed) proposes again;
  // the builds and traces, keyed by what made them, stay.
  static const std::string proposer =
      sha256_of(read_file(fs::path(executable_directory()) / "memcarlo"));
  return sha256_of(json{{"trace", trace}, {"proposer", proposer}}.dump()).substr(0, 24);
}

std::optional<StageFailure> StudyCache::descriptors(const StudyProgramSpec& program,
                                                    const std::string& trace_key,
                                                    const fs::path& trace_folder, json& about,
                                                    json& performance) {
  const bool own = !program.descriptors.empty();
  const fs::path done = cache_ / ("descriptors-" + descriptors_key(program, trace_key));
  const fs::path file = done / "descriptors.json";
  about = {{"file", file.string()}, {"from", own ? "program" : "proposed"}};
  if (own) {
    about["source"] = program.descriptors_text;
  }
  const auto count = [&](const std::string& text) {
    return tracebuf::parse_descriptor_file(text).size();
  };
  if (fs::exists(done / "made") && fs::exists(file)) {
    performance["descriptors_cached"] = true;
    try {
      about["count"] = count(read_file(file));
    } catch (const tracebuf::DescriptorError& e) {
      return StageFailure{"descriptors", file.string() + ": " + e.what()};
    }
    return std::nullopt;
  }
  performance["descriptors_cached"] = false;
  progress(program.name, "descriptors");
  const auto started = Clock::now();
  const fs::path partial = done.string() + ".partial";
  fs::remove_all(partial);
  fs::create_directories(partial);
  std::string text;
  if (own) {
    // The program's own file, checked now (a study's mistake is named here, not by a sweep).
    if (!std::ifstream(program.descriptors)) {
      performance["descriptors_seconds"] = seconds_since(started);
      return StageFailure{"descriptors", program.descriptors +
                                             ": cannot be read (the program's "
                                             "\"descriptors\" file)"};
    }
    text = read_file(program.descriptors);
  } else {
    // The proposer in a process of its own: its notes (why an array has no descriptor) go to
    // the log, and a failure is this program's alone.
    const fs::path log = partial / "descriptors.log";
    const std::vector<std::string> command = {
        (fs::path(executable_directory()) / "memcarlo").string(), "descriptors",
        (trace_folder / "trace.mct").string(), "-o", (partial / "descriptors.json").string()};
    { std::ofstream(log) << "$ " << quote_command(command) << "\n"; }
    const ProcessResult result = run_process(command, {}, {partial.string(), log.string()});
    if (!result.started || result.shell_status() != 0) {
      performance["descriptors_seconds"] = seconds_since(started);
      return StageFailure{"descriptors", "memcarlo descriptors " + ended(result) +
                                             " (log: " + log.string() + ")" + log_tail(log)};
    }
    text = read_file(partial / "descriptors.json");
  }
  try {
    about["count"] = count(text);
  } catch (const tracebuf::DescriptorError& e) {
    performance["descriptors_seconds"] = seconds_since(started);
    return StageFailure{"descriptors",
                        (own ? program.descriptors : file.string()) + ": " + e.what()};
  }
  if (own) {
    std::ofstream(partial / "descriptors.json", std::ios::binary) << text;
  }
  std::ofstream(partial / "made") << "\n";
  fs::remove_all(done);
  fs::rename(partial, done);
  performance["descriptors_seconds"] = seconds_since(started);
  return std::nullopt;
}

}  // namespace memcarlo::cli::study
