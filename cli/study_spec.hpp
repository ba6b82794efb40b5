// A study file (`memcarlo study STUDY.json`, docs/studies.md): programs of benchmark suites, how
// to build, feed, run and check each, and the points (a preset and --set overrides each) that
// every program is simulated under. Reading it checks every field and names the file and the
// place of a mistake (UserError, exit code 2).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "memcarlo/reports/study_report.hpp"

namespace memcarlo::cli {

struct StudyProgramSpec {
  std::string name;
  std::string path;  // the program's folder under the suite root ("." by default)
  // Built by memcarlo-cc from these sources (relative to the folder) ...
  std::vector<std::string> sources;
  std::vector<std::string> include;
  std::vector<std::string> defines;
  std::vector<std::string> flags;
  // ... or by the folder's Makefile with memcarlo-cc as the compiler variable(s).
  bool make = false;
  std::string make_target;
  std::vector<std::string> make_variables;  // variables set to "memcarlo-cc --backend host"
  std::vector<std::string> make_arguments;  // more make arguments (VAR=value)
  std::string executable;                   // the program the Makefile builds
  std::vector<std::string> args;
  std::string inputs;  // shell command that makes the inputs, in the work folder
  // The folder under the work folder in which the traced run runs ("" : the work folder itself),
  // for a program that opens its input at a fixed relative path (srad_v1's
  // ../../../data/srad/image.pgm: run in a/b/c, the inputs command writes data/srad/image.pgm).
  std::string run_in;
  std::string kernels;
  std::string launch;
  std::vector<std::string> output_contains;  // success check on the output
  std::string check_command;                 // success check: a shell command, status 0
  // Locality Descriptors for the points that ask for them: this file (the study's {study}
  // expanded, a relative path taken from the study's folder) instead of the proposer's.
  std::string descriptors;
  std::string descriptors_text;  // as the study file writes it (for the report)
  std::string note;
  // The host runtime's bounds check while tracing (`memcarlo run --no-bounds-check` when false):
  // off only for a program known to read past an allocation harmlessly, said in its note.
  bool bounds_check = true;
};

struct StudySpec {
  reports::StudyInputs inputs;  // name, description, metrics, points, baseline, trials, seed
  std::vector<StudyProgramSpec> programs;
  // Per point (study order): the point runs with the program's Locality Descriptors
  // ("descriptors": "propose": `memcarlo descriptors` on the program's trace, or the program's
  // own "descriptors" file), passed as ldesc.descriptors.
  std::vector<bool> point_descriptors;
  std::string trace_hierarchy;  // sizes the snapshot (default: the baseline's preset)
  unsigned snapshot_factor = 4;
  std::string file;
  std::string folder;  // the study file's folder ({study} in commands)

  /// Whether any point asks for descriptors (then each program gets its file once).
  [[nodiscard]] bool wants_descriptors() const {
    for (const bool wanted : point_descriptors) {
      if (wanted) {
        return true;
      }
    }
    return false;
  }
};

/// Reads and checks `path`.
StudySpec read_study(const std::string& path);

}  // namespace memcarlo::cli
