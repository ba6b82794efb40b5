// `memcarlo validate --case NAME=REPORT.json,NCU.csv ... [-o validation.json]`: the Nsight Compute
// comparisons of several programs in one table, with the mean absolute error per metric
// (scripts/validate-gpu.sh runs it over every bundled example).
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <memory>
#include <set>

#include "commands.hpp"
#include "memcarlo/reports/validation.hpp"

namespace memcarlo::cli {
namespace {

struct ValidateOptions {
  std::vector<std::string> cases;
  std::vector<std::string> traces;
  std::vector<std::string> failed;
  std::string device;
  std::string output;
  bool json = false;
};

/// "NAME=VALUE" of option `option`; exit code 2 naming the option when there is no '=' or no name.
std::pair<std::string, std::string> name_and_value(const std::string& option,
                                                   const std::string& text) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw UserError(option + " \"" + text +
                        "\": expected NAME=" + (option == "--traces" ? "agree|differ" : "REASON"),
                    2);
  }
  return {text.substr(0, equals), text.substr(equals + 1)};
}

std::vector<reports::ValidationCase> read_cases(const ValidateOptions& options) {
  std::vector<reports::ValidationCase> cases;
  std::set<std::string> names;
  for (const std::string& spec : options.cases) {
    try {
      cases.push_back(reports::parse_validation_case(spec));
    } catch (const reports::CompareInputError& e) {
      throw UserError(std::string("--case: ") + e.what(), 2);
    }
    if (!names.insert(cases.back().name).second) {
      throw UserError("--case: two cases are named " + cases.back().name, 2);
    }
  }
  for (const std::string& text : options.traces) {
    const auto [name, value] = name_and_value("--traces", text);
    if (value != "agree" && value != "differ") {
      throw UserError("--traces \"" + text + "\": expected agree or differ after '='", 2);
    }
    bool found = false;
    for (reports::ValidationCase& c : cases) {
      if (c.name == name) {
        c.traces_agree = value == "agree";
        found = true;
      }
    }
    if (!found) {
      std::string message = "--traces \"" + text + "\": no --case is named ";
      throw UserError(message.append(name), 2);
    }
  }
  return cases;
}

void run_validate(const ValidateOptions& options) {
  if (options.cases.empty() && options.failed.empty()) {
    throw UserError("give at least one --case NAME=REPORT.json,NCU.csv (or --failed NAME=REASON)",
                    1);
  }
  const std::vector<reports::ValidationCase> cases = read_cases(options);
  std::vector<reports::FailedCase> failed;
  for (const std::string& text : options.failed) {
    const auto [name, reason] = name_and_value("--failed", text);
    failed.push_back({name, reason});
  }
  reports::Validation validation;
  try {
    validation = reports::run_validation(options.device, cases, std::move(failed));
  } catch (const reports::CompareInputError& e) {
    throw UserError(e.what(), 2);
  }
  if (!options.output.empty()) {
    std::ofstream out(options.output);
    out << reports::validation_json(validation) << "\n";
    if (!out) {
      throw UserError("cannot write " + options.output, 1);
    }
  }
  if (options.json) {
    std::cout << reports::validation_json(validation) << "\n";
  } else {
    reports::print_validation(std::cout, validation);
  }
}

}  // namespace

void add_validate_command(CLI::App& app) {
  auto options = std::make_shared<ValidateOptions>();
  auto* validate = app.add_subcommand(
      "validate",
      "Fidelity over several programs: for each case (a report of memcarlo simulate and the "
      "Nsight Compute CSV of the same program on a GPU), each kernel and each compared sector hit "
      "rate, the measured value, the predicted mean, |error| and whether the measurement lies in "
      "the 2σ band (as memcarlo compare judges it); then the mean absolute error per metric over "
      "the judged rows. Prints the table; -o writes validation.json (keys in "
      "docs/ncu-compare.md). scripts/validate-gpu.sh runs it over the bundled examples. Exit "
      "code 0 whatever the agreement, 2 when an input cannot be read");
  validate
      ->add_option("--case", options->cases,
                   "NAME=REPORT.json,NCU.csv: a program's report and its `ncu --csv` output, "
                   "or the standard output of Accel-Sim run on the program's exported trace "
                   "(told apart by content; scripts/validate-accelsim.sh) (repeatable; NAME: "
                   "letters, digits, _ - .)")
      ->type_name("NAME=REPORT,CSV");
  validate
      ->add_option("--traces", options->traces,
                   "NAME=agree|differ: the result of `memcarlo trace compare` on that case's host "
                   "and GPU traces (repeatable)")
      ->type_name("NAME=RESULT");
  validate
      ->add_option("--failed", options->failed,
                   "NAME=REASON: a program that could not be measured or simulated, listed as "
                   "not validated (repeatable)")
      ->type_name("NAME=REASON");
  validate->add_option("--device", options->device, "The GPU's name, for the header");
  validate->add_option("--output,-o", options->output, "Write validation.json here");
  validate->add_flag("--json", options->json,
                     "Print validation.json on standard output instead of the table");
  validate->callback([options] { run_validate(*options); });
}

}  // namespace memcarlo::cli
