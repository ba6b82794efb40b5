// `memcarlo compare REPORT --ncu CSV [--json]`: Nsight Compute measurements next to a report's
// predicted sector hit rates, per kernel, with the verdict against the 2σ prediction band.
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "memcarlo/reports/ncu_compare.hpp"

namespace memcarlo::cli {
namespace {

struct CompareOptions {
  std::string report;
  std::string ncu_csv;
  bool json = false;
};

void run_compare(const CompareOptions& options) {
  reports::NcuComparison comparison;
  try {
    comparison = reports::compare_with_ncu(reports::read_report_predictions(options.report),
                                           reports::read_ncu_csv(options.ncu_csv));
  } catch (const reports::CompareInputError& e) {
    throw UserError(e.what(), 2);
  }
  if (options.json) {
    std::cout << reports::comparison_json(comparison) << "\n";
  } else {
    reports::print_comparison(std::cout, comparison);
  }
}

}  // namespace

void add_compare_command(CLI::App& app) {
  auto options = std::make_shared<CompareOptions>();
  auto* compare = app.add_subcommand(
      "compare",
      "Put Nsight Compute measurements next to a report's predictions: per kernel, the L1 and L2 "
      "sector hit rates measured, predicted (mean, 95% interval of the mean, 2σ band) and whether "
      "each measurement lies inside the 2σ band. Exit code 0 whatever the agreement, 2 for "
      "unreadable inputs");
  compare->add_option("REPORT", options->report, "Report written by memcarlo simulate (JSON)")
      ->required();
  compare
      ->add_option("--ncu", options->ncu_csv,
                   "CSV from `ncu --csv --metrics l1tex__t_sector_hit_rate.pct,"
                   "lts__t_sector_op_read_hit_rate.pct,lts__t_sector_op_write_hit_rate.pct APP` "
                   "(details or raw page)")
      ->required();
  compare->add_flag("--json", options->json,
                    "Print the comparison as a JSON document (schema_version 1, ratios)");
  compare->callback([options] { run_compare(*options); });
}

}  // namespace memcarlo::cli
