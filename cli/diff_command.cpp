// `memcarlo diff A.json B.json [--json] [-o FILE]`: two reports of one program side by side (before
// and after a code change, or two hierarchies), with each change and whether it is significant.
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "memcarlo/reports/report_diff.hpp"

namespace memcarlo::cli {
namespace {

struct DiffOptions {
  std::string a;
  std::string b;
  bool json = false;
  std::string output;
};

void run_diff(const DiffOptions& options) {
  reports::ReportDiff diff;
  try {
    diff = reports::read_and_diff_reports(options.a, options.b);
  } catch (const reports::DiffInputError& e) {
    throw UserError(e.what(), 2);
  }
  std::ostringstream text;
  if (options.json) {
    text << reports::diff_json(diff) << "\n";
  } else {
    reports::print_diff(text, diff);
  }
  if (options.output.empty() || options.output == "-") {
    std::cout << text.str();
    return;
  }
  std::ofstream out(options.output);
  out << text.str();
  if (!out) {
    throw UserError("cannot write the comparison to " + options.output, 1);
  }
}

}  // namespace

void add_diff_command(CLI::App& app) {
  auto options = std::make_shared<DiffOptions>();
  auto* diff = app.add_subcommand(
      "diff",
      "Compare two reports of the same program (before and after a code change, or under two "
      "hierarchies): the inputs that differ; per overall, per-kernel and per-load metric the two "
      "means, the change B - A with its 95% interval and Welch's t-test p-value on the trials of "
      "each report. Loads are matched by file, line, column, expression, kind and kernels (a load "
      "an edit moved is matched by file name, expression, kind and kernels when that is unique); "
      "the others are listed as only in A or only in B. Exit code 0 whatever the changes, 2 for "
      "an unreadable report");
  diff->add_option("A", options->a, "The first report (before)")->required();
  diff->add_option("B", options->b, "The second report (after)")->required();
  diff->add_flag("--json", options->json,
                 "Print the comparison as a JSON document (schema_version 1) with every metric");
  diff->add_option("--output,-o", options->output, "Write the comparison here instead of stdout");
  diff->callback([options] { run_diff(*options); });
}

}  // namespace memcarlo::cli
