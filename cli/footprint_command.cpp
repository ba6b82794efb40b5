// `memcarlo footprint TRACE [--modules N] [--page 4KiB] [--schedule POLICY] [-o FILE.json]
// [--html FILE.html]`: the thread address footprint TAFE estimates for each block before the
// launch against the one the trace shows, per page x module (docs/footprints.md). Argument
// parsing, printing and the HTML page x module map.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.hpp"
#include "memcarlo/footprint/footprint.hpp"
#include "memcarlo/footprint/tracking.hpp"
#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/sim/schedule/cta_scheduler.hpp"
#include "memcarlo/tracebuf/metadata.hpp"

namespace memcarlo::cli {
namespace {

struct FootprintOptions {
  std::string trace;
  std::string hierarchy = "tafe-multigpu-8";
  std::vector<std::string> overrides;
  std::uint32_t modules = 0;  // 0: the hierarchy's numa.modules
  std::string page = "4KiB";
  std::string schedule;  // empty: the hierarchy's schedule.cta
  std::string output;
  std::string html;
  std::uint64_t seed = 1;
};

std::uint64_t parse_page(const std::string& text) {
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9')
    ++digits;
  const std::string unit = text.substr(digits);
  std::uint64_t scale = 0;
  if (unit.empty() || unit == "B")
    scale = 1;
  if (unit == "KiB")
    scale = 1024;
  if (unit == "MiB")
    scale = 1024 * 1024;
  if (digits == 0 || digits > 12 || scale == 0 || std::stoull(text.substr(0, digits)) == 0) {
    throw UserError("--page: expected a positive byte count such as 4096, 4KiB or 2MiB, got '" +
                    text + "'");
  }
  return std::stoull(text.substr(0, digits)) * scale;
}

/// The module each traced block runs on under the hierarchy's CTA scheduler: the scheduler's
/// plan, and within a queue the k-th block on the k-th (mod n) of the n SMs that take from it, as
/// the first round of the residency fills them (later rounds depend on timing).
std::vector<std::uint32_t> block_modules(const tracebuf::LaunchInfo& info,
                                         const footprint::LaunchFootprint& footprint,
                                         const sim::HierarchyConfig& config, std::uint64_t seed) {
  sim::LaunchTrace launch;
  launch.kernel = info.kernel;
  launch.index = info.index;
  launch.warps_per_block = info.warps_per_block();
  launch.resident_blocks_per_sm =
      std::max<std::uint32_t>(1, sim::resident_blocks_per_sm(info, config));
  for (const footprint::BlockFootprint& block : footprint.blocks) {
    launch.blocks.push_back({block.block_id, 0, launch.warps_per_block});
  }
  const std::unique_ptr<sim::schedule::CtaScheduler> scheduler = sim::schedule::make(config);
  sim::RandomStream random(seed, sim::Purpose::kCtaSchedule, info.index, 0);
  sim::schedule::CtaPlan plan;
  scheduler->plan({launch, config.sm.count, launch.resident_blocks_per_sm, config.numa.modules},
                  random, plan);
  sim::schedule::check_plan(plan, launch.blocks.size(), config.sm.count, config.schedule.cta);
  std::vector<std::uint32_t> out(launch.blocks.size(), 0);
  for (std::uint32_t q = 0; q < plan.queue_count(); ++q) {
    std::vector<std::uint32_t> sms;
    for (std::uint32_t sm = 0; sm < config.sm.count; ++sm) {
      if (plan.queue_of_sm[sm] == q)
        sms.push_back(sm);
    }
    for (std::uint32_t k = plan.queue_begin[q]; k < plan.queue_begin[q + 1]; ++k) {
      const std::uint32_t sm = sms[(k - plan.queue_begin[q]) % sms.size()];
      out[plan.order[k]] = sim::module_of_sm(sm, config.sm.count, config.numa.modules);
    }
  }
  return out;
}

/// TAFE §4.3's history buffer over each primary array of the launch, stored in index order (the
/// host's initialization loop; traces record no host stores).
nlohmann::json primary_tracking(const tracebuf::TraceReader& reader,
                                const footprint::LaunchFootprint& fp) {
  nlohmann::json out = nlohmann::json::array();
  std::vector<std::uint32_t> done;
  for (const footprint::RelationUse& use : fp.relations) {
    const footprint::RelationKind kind = use.relation.kind;
    if ((kind != footprint::RelationKind::kIndirect &&
         kind != footprint::RelationKind::kIndirectRange) ||
        std::find(done.begin(), done.end(), use.relation.primary) != done.end()) {
      continue;
    }
    done.push_back(use.relation.primary);
    const footprint::ExtentTable* ranges = nullptr;
    for (const footprint::ExtentTable& table : fp.index_ranges) {
      if (table.primary_load == use.relation.primary)
        ranges = &table;
    }
    const footprint::RelationUse* primary = nullptr;
    for (const footprint::RelationUse& candidate : fp.relations) {
      if (candidate.relation.load == use.relation.primary)
        primary = &candidate;
    }
    if (ranges == nullptr || primary == nullptr || primary->relation.element_size == 0)
      continue;
    std::uint64_t elements = 0;
    for (const tracebuf::Allocation& allocation : reader.allocations()) {
      if (allocation.name == primary->allocation && !primary->allocation.empty()) {
        elements = allocation.size / primary->relation.element_size;
      }
    }
    elements = std::min<std::uint64_t>(elements, std::uint64_t{1} << 26);
    std::vector<std::int64_t> stores(elements);
    for (std::uint64_t i = 0; i < elements; ++i)
      stores[i] = static_cast<std::int64_t>(i);
    const footprint::HistoryBufferStats stats =
        footprint::track_primary_stores(ranges->per_block, stores);
    out.push_back({{"primary_load", use.relation.primary},
                   {"array", primary->allocation},
                   {"stores", stats.stores},
                   {"hits", stats.hits},
                   {"untracked", stats.untracked},
                   {"ranges_computed", stats.ranges_computed},
                   {"hit_rate", stats.hit_rate()}});
  }
  return out;
}

nlohmann::json confusion_json(const footprint::Confusion& c) {
  return {{"true_positives", c.true_positives},
          {"false_positives", c.false_positives},
          {"false_negatives", c.false_negatives},
          {"true_negatives", c.true_negatives},
          {"cells", c.cells()},
          {"accuracy", c.accuracy()}};
}

void print_row(std::ostream& out, const std::string& name, const footprint::Confusion& c) {
  out << std::left << std::setw(24) << name << std::right << std::setw(10) << c.true_positives
      << std::setw(10) << c.false_positives << std::setw(10) << c.false_negatives << std::setw(12)
      << c.true_negatives << std::setw(10) << std::fixed << std::setprecision(4) << c.accuracy()
      << "\n";
}

std::string html_escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

/// The paper's page x module map (Fig. 11) as one self-contained HTML page: per launch and
/// allocation, one SVG row per module and one column per page, each cell coloured by what the
/// estimate and the trace say about it (class tp / fp / fn / tn, FP and FN marked), with the
/// counts beside it. Plain SVG, no script.
void write_footprint_html(const std::string& path, const nlohmann::json& report,
                          const std::vector<footprint::FootprintComparison>& comparisons) {
  constexpr std::uint64_t kMaxColumns = 2048;  // pages drawn per allocation (the counts cover all)
  std::ostringstream html;
  html << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
       << "<title>memcarlo footprint: " << html_escape(report["trace"].get<std::string>())
       << "</title>\n<style>\n"
       << "body{font-family:sans-serif;margin:1.5em;color:#222}h2{margin-top:1.6em}"
       << "table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right;border-bottom:"
       << "1px solid #ddd}th:first-child,td:first-child{text-align:left}"
       << ".tp{fill:#2e7d32}.fp{fill:#f9a825;stroke:#8d6e00;stroke-width:.6}"
       << ".fn{fill:#c62828;stroke:#5d0000;stroke-width:.6}.tn{fill:#eceff1}"
       << ".legend span{display:inline-block;width:1em;height:1em;margin:0 .3em 0 1em;"
       << "vertical-align:middle}svg{display:block;margin:.4em 0 1em}\n</style></head><body>\n"
       << "<h1>Thread address footprints</h1>\n<p>" << html_escape(report["trace"].get<std::string>())
       << ": " << report["modules"].get<std::uint32_t>() << " modules, "
       << report["page_bytes"].get<std::uint64_t>() << "-byte pages, schedule "
       << html_escape(report["schedule"].get<std::string>()) << ". Overall accuracy "
       << std::fixed << std::setprecision(4) << report["overall"]["accuracy"].get<double>()
       << " (" << report["overall"]["true_positives"].get<std::uint64_t>() << " true+, "
       << report["overall"]["false_positives"].get<std::uint64_t>() << " false+, "
       << report["overall"]["false_negatives"].get<std::uint64_t>() << " false-, "
       << report["overall"]["true_negatives"].get<std::uint64_t>() << " true- cells).</p>\n"
       << "<p class=\"legend\">Rows: modules; columns: pages. "
       << "<span style=\"background:#2e7d32\"></span>estimated and touched (true+)"
       << "<span style=\"background:#f9a825\"></span>estimated, not touched (false+)"
       << "<span style=\"background:#c62828\"></span>touched, not estimated (false-)"
       << "<span style=\"background:#eceff1\"></span>neither</p>\n";
  for (std::size_t l = 0; l < comparisons.size(); ++l) {
    const nlohmann::json& launch = report["launches"][l];
    html << "<h2>Launch " << launch["index"].get<std::uint32_t>() << ": "
         << html_escape(launch["kernel"].get<std::string>()) << " ("
         << launch["blocks"].get<std::size_t>() << " traced blocks)</h2>\n";
    for (const footprint::AllocationPages& pages : comparisons[l].allocations) {
      const footprint::Confusion& c = pages.confusion;
      html << "<h3>" << html_escape(pages.name) << "</h3>\n<table><tr><th>pages</th><th>true+"
           << "</th><th>false+</th><th>false-</th><th>true-</th><th>accuracy</th></tr><tr><td>"
           << pages.pages << "</td><td>" << c.true_positives << "</td><td>" << c.false_positives
           << "</td><td>" << c.false_negatives << "</td><td>" << c.true_negatives << "</td><td>"
           << std::setprecision(4) << c.accuracy() << "</td></tr></table>\n";
      const std::uint64_t columns = std::min(pages.pages, kMaxColumns);
      if (columns < pages.pages) {
        html << "<p>The first " << columns << " of " << pages.pages << " pages are drawn.</p>\n";
      }
      const unsigned cell = columns > 400 ? 2 : (columns > 100 ? 5 : 12);
      html << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << columns * cell + 40
           << "\" height=\"" << pages.modules * (cell + 1) + 2 << "\" role=\"img\">\n";
      for (std::uint32_t m = 0; m < pages.modules; ++m) {
        const unsigned y = m * (cell + 1);
        html << "<text x=\"0\" y=\"" << y + cell << "\" font-size=\"" << std::min(cell + 2, 11u)
             << "\">m" << m << "</text>";
        for (std::uint64_t p = 0; p < columns; ++p) {
          const bool estimated = ((pages.estimated[p] >> m) & 1) != 0;
          const bool actual = ((pages.actual[p] >> m) & 1) != 0;
          const char* kind = estimated ? (actual ? "tp" : "fp") : (actual ? "fn" : "tn");
          html << "<rect class=\"" << kind << "\" x=\"" << 40 + p * cell << "\" y=\"" << y
               << "\" width=\"" << cell << "\" height=\"" << cell << "\"><title>page "
               << pages.first_page + p << ", module " << m << ": " << kind << "</title></rect>";
        }
        html << "\n";
      }
      html << "</svg>\n";
    }
  }
  html << "</body></html>\n";
  std::ofstream out(path);
  out << html.str();
  if (!out)
    throw UserError("cannot write the footprint map to " + path, 1);
}

void run_footprint(const FootprintOptions& options) {
  std::vector<std::string> overrides = options.overrides;
  if (options.modules > 0)
    overrides.push_back("numa.modules=" + std::to_string(options.modules));
  if (!options.schedule.empty())
    overrides.push_back("schedule.cta=" + options.schedule);
  sim::HierarchyConfig config;
  try {
    config = sim::load_hierarchy(options.hierarchy, overrides);
  } catch (const std::exception& e) {
    throw UserError(e.what(), 2);
  }
  if (config.numa.modules > 64) {
    throw UserError("--modules: at most 64 modules, got " + std::to_string(config.numa.modules));
  }
  const std::uint64_t page_bytes = parse_page(options.page);
  const tracebuf::TraceReader reader = tracebuf::TraceReader::open(options.trace);
  nlohmann::json report = {{"schema_version", 1},
                           {"trace", options.trace},
                           {"hierarchy", config.name},
                           {"modules", config.numa.modules},
                           {"page_bytes", page_bytes},
                           {"schedule", config.schedule.cta},
                           {"launches", nlohmann::json::array()}};
  footprint::Confusion overall;
  std::map<std::string, footprint::Confusion> per_allocation;
  std::vector<footprint::FootprintComparison> comparisons;
  if (reader.launches().empty()) {
    throw UserError(options.trace + ": the trace has no launches, so no footprint to compare", 2);
  }
  for (std::uint32_t l = 0; l < reader.launches().size(); ++l) {
    footprint::LaunchFootprint fp;
    footprint::FootprintComparison comparison;
    try {
      fp = footprint::launch_footprint(reader, l);
      const std::vector<std::uint32_t> modules =
          block_modules(reader.launches()[l].info, fp, config, options.seed);
      comparison =
          footprint::compare_footprints(reader, fp, modules, config.numa.modules, page_bytes);
    } catch (const footprint::MissingInformation& e) {
      throw UserError(e.what(), 2);
    } catch (const tracebuf::MetadataError& e) {
      throw UserError(e.what(), 2);
    }
    nlohmann::json launch = {
        {"index", l},
        {"kernel", fp.kernel},
        {"blocks", fp.blocks.size()},
        {"overall", confusion_json(comparison.overall)},
        {"actual_bytes_outside_allocations", comparison.actual_bytes_outside_allocations},
        {"arguments", fp.arguments},
        {"primary_tracking", primary_tracking(reader, fp)},
        {"relations", nlohmann::json::array()},
        {"allocations", nlohmann::json::array()}};
    if (!fp.notes.empty()) {
      launch["warnings"] = fp.notes;
      for (const std::string& note : fp.notes) {
        std::cerr << "memcarlo footprint: warning: launch " << l << ": " << note << "\n";
      }
    }
    for (const footprint::RelationUse& use : fp.relations) {
      nlohmann::json relation = {{"load", use.relation.load},
                                 {"expression", use.relation.expression},
                                 {"relation", footprint::to_string(use.relation.kind)},
                                 {"allocation", use.allocation},
                                 {"root", use.relation.root},
                                 {"root_source", use.root_source},
                                 {"source", use.source}};
      if (use.superseded_by)
        relation["superseded_by_taf_register"] = true;
      if (use.relation.kind == footprint::RelationKind::kIndirect ||
          use.relation.kind == footprint::RelationKind::kIndirectRange) {
        relation["primary_load"] = use.relation.primary;
      }
      if (use.relation.kind == footprint::RelationKind::kIndirectRange) {
        relation["primary_end_load"] = use.relation.primary_end;
      }
      if (!use.fallback.empty())
        relation["whole_allocation_because"] = use.fallback;
      launch["relations"].push_back(relation);
    }
    for (const footprint::AllocationPages& pages : comparison.allocations) {
      launch["allocations"].push_back({{"name", pages.name},
                                       {"pages", pages.pages},
                                       {"cells", confusion_json(pages.confusion)}});
      per_allocation[pages.name] += pages.confusion;
    }
    overall += comparison.overall;
    report["launches"].push_back(launch);
    if (!options.html.empty()) {
      comparisons.push_back(std::move(comparison));
    }
  }
  report["overall"] = confusion_json(overall);
  report["allocations"] = nlohmann::json::object();
  for (const auto& [name, confusion] : per_allocation) {
    report["allocations"][name] = confusion_json(confusion);
  }

  std::cout << "Thread address footprints of " << options.trace << ": " << config.numa.modules
            << " modules, " << page_bytes << "-byte pages, schedule " << config.schedule.cta
            << "\n";
  for (const nlohmann::json& launch : report["launches"]) {
    std::cout << "launch " << launch["index"].get<int>() << " ("
              << launch["kernel"].get<std::string>() << ", " << launch["blocks"].get<std::size_t>()
              << " traced blocks):\n";
    for (const nlohmann::json& relation : launch["relations"]) {
      std::cout << "  load " << relation["load"].get<int>() << " "
                << relation["expression"].get<std::string>() << ": "
                << relation["relation"].get<std::string>();
      if (relation["source"] == "taf_register")
        std::cout << " (taf_register)";
      if (relation.contains("superseded_by_taf_register"))
        std::cout << ", superseded by taf_register";
      if (relation.contains("whole_allocation_because")) {
        std::cout << ", whole " << relation["allocation"].get<std::string>() << " because "
                  << relation["whole_allocation_because"].get<std::string>();
      }
      std::cout << "\n";
    }
    for (const nlohmann::json& tracked : launch["primary_tracking"]) {
      std::cout << "  history buffer over " << tracked["array"].get<std::string>()
                << " initialized in order: " << tracked["hits"].get<std::uint64_t>() << " hits of "
                << tracked["stores"].get<std::uint64_t>() << " stores\n";
    }
  }
  std::cout << std::left << std::setw(24) << "page x module cells" << std::right << std::setw(10)
            << "true+" << std::setw(10) << "false+" << std::setw(10) << "false-" << std::setw(12)
            << "true-" << std::setw(10) << "accuracy"
            << "\n";
  for (const auto& [name, confusion] : per_allocation)
    print_row(std::cout, name, confusion);
  print_row(std::cout, "overall", overall);
  if (!options.output.empty()) {
    std::ofstream out(options.output);
    out << report.dump(2) << "\n";
    if (!out)
      throw UserError("cannot write the footprint report to " + options.output, 1);
  }
  if (!options.html.empty()) {
    write_footprint_html(options.html, report, comparisons);
  }
}

}  // namespace

void add_footprint_command(CLI::App& app) {
  auto options = std::make_shared<FootprintOptions>();
  auto* command = app.add_subcommand(
      "footprint",
      "Thread address footprints (TAFE, PACT'20): for each traced block, the pages TAFE would "
      "estimate before the launch from the TAF relations derived from the loads table (affine "
      "index -> TID_DEP, m*load+c -> INDIR, a loop from one loaded value to another, or over a "
      "loaded count from a loaded start -> INDIR_RANGE; the extent tables of the primary values are recovered from the addresses they "
      "index), against the pages the trace shows it touching. Blocks are put on modules by the "
      "CTA scheduler; every (page, module) cell of every allocation the launch uses (touches "
      "or is estimated to touch) is a true/false positive/negative; an estimate never leaves "
      "its own array's allocation. Prints a table per allocation and overall; -o writes JSON. "
      "Exit code 2 for a trace without index forms (memcarlo synth, Accel-Sim) or allocations. "
      "docs/footprints.md");
  command->add_option("TRACE", options->trace, "The trace (.mct) from memcarlo-cc / memcarlo run")
      ->required();
  command->add_option("--hierarchy", options->hierarchy,
                      "Preset or hierarchy file giving SMs and modules (default tafe-multigpu-8)");
  command->add_option("--set", options->overrides, "Override a hierarchy key (repeatable)");
  command->add_option("--modules", options->modules,
                      "NUMA modules (default: the hierarchy's numa.modules), 1..64");
  command->add_option("--page", options->page, "Page size of the comparison (default 4KiB)");
  command->add_option("--schedule", options->schedule,
                      "CTA scheduler that puts blocks on modules (default: the hierarchy's "
                      "schedule.cta)");
  command->add_option("--seed", options->seed, "Seed of a scheduler that draws (default 1)");
  command->add_option("--output,-o", options->output, "Write the comparison as JSON here");
  command->add_option("--html", options->html,
                      "Write the page x module map here (self-contained HTML: per launch and "
                      "allocation, modules as rows, pages as columns, each cell true+/false+/"
                      "false-/true-)");
  command->callback([options] { run_footprint(*options); });
}

}  // namespace memcarlo::cli
