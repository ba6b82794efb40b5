// `memcarlo report FILE.json --html [-o FILE.html]`: the self-contained HTML page of a simulate or
// sweep report; also the --html output of simulate, sweep and profile (write_html_report).
#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "output_path.hpp"
#include "memcarlo/reports/html_report.hpp"
#include "simulate_support.hpp"

namespace memcarlo::cli {
namespace {

struct ReportOptions {
  std::string input;
  bool html = false;
  std::string output;
};

void write_page(const std::string& page, const std::string& path) {
  if (path == "-") {
    std::cout << page;
    return;
  }
  std::ofstream out(path, std::ios::binary);
  out << page;
  if (!out) {
    throw UserError(write_failure(path, "HTML report"), 1);
  }
}

void run_report(const ReportOptions& options) {
  if (!options.html) {
    throw UserError("memcarlo report: choose an output format: --html (the only one so far)", 1);
  }
  std::string output = options.output;
  if (output.empty()) {
    output = std::filesystem::path(options.input).replace_extension(".html").string();
  }
  std::string page;
  try {
    page = reports::html_report_from_file(options.input);
  } catch (const reports::HtmlReportError& e) {
    throw UserError(e.what(), 2);
  }
  write_page(page, output);
}

}  // namespace

void write_html_report(const std::string& report_json, const std::string& source,
                       const std::string& path) {
  try {
    write_page(reports::html_report(nlohmann::json::parse(report_json), source), path);
  } catch (const reports::HtmlReportError& e) {
    throw std::logic_error(std::string("the report just written has no HTML page: ") + e.what());
  }
}

void add_report_command(CLI::App& app) {
  auto options = std::make_shared<ReportOptions>();
  auto* report = app.add_subcommand(
      "report",
      "Turn a simulate, sweep or study report (JSON) into a self-contained HTML page with sortable "
      "tables and plots (opens offline; Chart.js is built in)");
  report
      ->add_option("FILE", options->input,
                   "The report: simulate's report.json, sweep.json or study.json")
      ->required();
  report->add_flag("--html", options->html, "Write the HTML page (the only format so far)");
  report->add_option("--output,-o", options->output,
                     "The page ('-' for stdout; default: FILE with the extension .html)");
  report->callback([options] { run_report(*options); });
}

}  // namespace memcarlo::cli
