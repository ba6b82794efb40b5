// The build and trace cache of `memcarlo study` (study_command.cpp): each program built once
// with memcarlo-cc and traced once, in folders of the cache named by a hash of what they depend on
// (build-KEY, trace-KEY), which later studies reuse; and the helpers the study command shares
// with it.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "process.hpp"
#include "study_spec.hpp"

namespace memcarlo::cli::study {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

/// A stage that failed: its name and why.
struct StageFailure {
  std::string stage;
  std::string reason;
};

// Helpers of the study command and its cache.

double seconds_since(Clock::time_point start);

std::string read_file(const fs::path& path);

/// The last lines of a log, for a failure's reason.
std::string log_tail(const fs::path& log, std::size_t lines = 2);

std::string ended(const ProcessResult& result);

/// {suite}, {dir}, {study} and {work} in a study's arguments and commands.
std::string replace_all(std::string text, const std::string& from, const std::string& to);

std::string expand(std::string text, const std::vector<std::pair<std::string, std::string>>& vars);

/// The builds (build-KEY/) and traces (trace-KEY/) of a study's programs, each made in a
/// `.partial` folder and renamed when complete, so that a killed study leaves none half made.
class StudyCache {
 public:
  /// Shows a program's stage (build, inputs, trace) on the study's progress line.
  using Progress = std::function<void(const std::string& program, const std::string& stage)>;

  /// `root`: the suite root the programs' paths are under; `cache`: the cache's folder.
  StudyCache(fs::path root, fs::path cache, const StudySpec& spec, Progress progress);

  [[nodiscard]] const fs::path& folder() const { return cache_; }

  [[nodiscard]] fs::path program_dir(const StudyProgramSpec& program) const;

  /// What the build depends on: memcarlo's version, the build's description, and the contents of
  /// the sources (of every file of the folder for a Makefile build).
  std::string build_key(const StudyProgramSpec& program) const;

  /// What the trace depends on: the build, the program's arguments, inputs and launches, and
  /// the study's tracing settings.
  std::string trace_key(const StudyProgramSpec& program, const std::string& build) const;

  /// The values of {suite}, {dir}, {study} and {work} in the program's commands.

  std::vector<std::pair<std::string, std::string>> variables(const StudyProgramSpec& program,
                                                             const fs::path& work) const;

  /// The program's executable in the build cache, built when missing.
  std::optional<StageFailure> build(const StudyProgramSpec& program, const std::string& key,
                                    fs::path& executable, json& performance);

  /// The program's trace in the trace cache, made when missing (inputs, then the traced run).
  std::optional<StageFailure> trace(const StudyProgramSpec& program, const std::string& key,
                                    const fs::path& executable, fs::path& folder,
                                    json& performance);

  /// What the program's Locality Descriptors depend on: the proposer's on the trace (its key),
  /// or the contents of the program's own file.
  std::string descriptors_key(const StudyProgramSpec& program, const std::string& trace) const;

  /// The program's Locality Descriptors in the cache (descriptors-KEY/descriptors.json): its
  /// own file, checked and copied (so that a changed file is a new path, which the sweeps'
  /// resume tells apart), or `memcarlo descriptors` run on its trace (`trace_folder`) when
  /// missing; `about` gets the file, where it came from and how many descriptors it holds.
  std::optional<StageFailure> descriptors(const StudyProgramSpec& program,
                                          const std::string& trace_key,
                                          const fs::path& trace_folder, json& about,
                                          json& performance);

 private:
  void progress(const std::string& program, const std::string& stage) const {
    progress_(program, stage);
  }

  fs::path root_;
  fs::path cache_;
  const StudySpec& spec_;
  std::string cc_;
  Progress progress_;
};

}  // namespace memcarlo::cli::study
