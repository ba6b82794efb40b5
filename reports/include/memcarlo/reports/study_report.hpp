// The study report (`memcarlo study`, schema "memcarlo-study", documented in README.md "Studies"):
// per program x point x metric the mean and its 95% interval with the paired difference from the
// baseline point (from each program's sweep report), and across programs the average with a 95%
// interval over programs; its CSV form. Printers and the across-programs statistics only.
#pragma once

#include <array>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace memcarlo::reports {

inline constexpr int kStudySchemaVersion = 1;

/// An average over programs with its 95% interval, and the method that gave it.
///
/// Arithmetic (ratios, differences of ratios, amounts): the mean of the programs' values with the
/// Student-t interval mean ± t_{0.975, n-1} · s / √n over the n programs (each program one
/// observation, as the papers average their per-benchmark bars).
/// Geometric (latencies and speed-ups: values whose ratios matter, Fleming and Wallace, "How not
/// to lie with statistics", CACM 1986): exp of the arithmetic average of ln(value), the interval
/// the exponentiated Student-t interval of the logarithms. Undefined when a value is not positive.
struct ProgramAverage {
  std::string method;
  std::size_t programs = 0;
  double mean = 0;
  std::optional<std::array<double, 2>> ci95;  // n >= 2
};

/// nullopt for no values.
std::optional<ProgramAverage> arithmetic_average(std::span<const double> values);
/// nullopt for no values or a value <= 0.
std::optional<ProgramAverage> geometric_average(std::span<const double> values);

struct StudyPointSpec {
  std::string name;
  std::string preset;
  std::vector<std::pair<std::string, std::string>> set;  // --set KEY=VALUE, in order
};

struct StudyInputs {
  std::string name;
  std::string file;
  std::string description;
  std::string suite_root;
  std::vector<std::string> metrics;  // overall metrics of the metric table
  std::vector<StudyPointSpec> points;
  std::size_t baseline = 0;  // index into points
  std::uint32_t trials = 0;
  std::uint64_t seed = 0;
};

/// One program's outcome: its sweep report over the points (the baseline first, then the others
/// in study order), or the stage that failed and why.
struct StudyProgram {
  std::string name;
  std::string path;
  std::string note;
  std::string failed_stage;  // empty: the program ran; else build, inputs, run, check, simulate
  std::string reason;
  nlohmann::json sweep;        // the sweep report (null when failed)
  nlohmann::json performance;  // seconds per stage and what came from the caches
};

/// The index of study point `point` in a program's sweep: the baseline is the sweep's point 0,
/// the others follow in study order.
std::size_t sweep_index(std::size_t point, std::size_t baseline);

/// The study report. `performance` goes in as given (the run itself; not part of the results).
nlohmann::ordered_json study_json(const StudyInputs& inputs,
                                  const std::vector<StudyProgram>& programs,
                                  const nlohmann::json& performance);

/// One row per program (and "average") x point x metric: mean, interval, change from the
/// baseline and its interval, the change's kind and the averaging method.
void write_study_csv(std::ostream& out, const nlohmann::ordered_json& study);

}  // namespace memcarlo::reports
