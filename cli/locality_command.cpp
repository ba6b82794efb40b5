// `memcarlo locality`: threadblock locality graphs (LocalityGuru). From a source or a loads table,
// the static graph over a grid and block given on the command line; from a trace, the graph
// measured from one launch; from a trace with --static, both and their element-wise comparison.
#include <CLI/CLI.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>

#include "commands.hpp"
#include "memcarlo/footprint/footprint.hpp"
#include "memcarlo/locality/graph_json.hpp"
#include "memcarlo/locality/heatmap.hpp"
#include "memcarlo/tracebuf/metadata.hpp"
#include "process.hpp"

#ifndef MEMCARLO_INSTRUMENT_TOOL
#define MEMCARLO_INSTRUMENT_TOOL ""
#endif

namespace memcarlo::cli {
namespace {

namespace fs = std::filesystem;
using locality::LaunchValues;

struct LocalityOptions {
  std::string input;
  std::string kernel;
  std::string grid;
  std::string block;
  std::vector<std::string> defines;
  std::vector<std::string> parameters;
  std::vector<std::string> includes;
  std::uint32_t launch = 0;
  bool launch_given = false;
  std::string static_source;
  std::string json_output;
  std::string csv_output;
  std::string html_output;
  std::uint64_t max_evaluations = std::uint64_t{1} << 32;
};

bool is_source(const std::string& path) {
  const std::string extension = fs::path(path).extension().string();
  return extension == ".cu" || extension == ".cuh" || extension == ".cpp" || extension == ".cc" ||
         extension == ".cxx" || extension == ".h" || extension == ".hpp";
}

tracebuf::Dim3 parse_dim3(const std::string& text, const std::string& option) {
  tracebuf::Dim3 dim;
  std::uint32_t* parts[3] = {&dim.x, &dim.y, &dim.z};
  std::size_t at = 0;
  for (int i = 0; i < 3 && at <= text.size(); ++i) {
    const std::size_t comma = text.find(',', at);
    const std::string part =
        text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    char* end = nullptr;
    const unsigned long value = std::strtoul(part.c_str(), &end, 10);
    if (part.empty() || *end != '\0' || value == 0 || value > 0xffffffffUL) {
      throw UserError(option + " " + text + ": expected X[,Y[,Z]] with positive integers");
    }
    *parts[i] = static_cast<std::uint32_t>(value);
    if (comma == std::string::npos)
      return dim;
    at = comma + 1;
  }
  throw UserError(option + " " + text + ": expected X[,Y[,Z]] with positive integers");
}

/// Values of -D NAME=VALUE (integer macros: a symbol of that name, if the table has one, takes
/// the value too) and --param NAME=VALUE (kernel parameters; these must be integers).
std::map<std::string, std::int64_t> parse_values(const std::vector<std::string>& defines,
                                                 const std::vector<std::string>& parameters) {
  std::map<std::string, std::int64_t> values;
  const auto parse = [&](const std::string& item, const std::string& option, bool strict) {
    const std::size_t equals = item.find('=');
    const std::string name = item.substr(0, equals);
    if (name.empty() || (strict && equals == std::string::npos)) {
      throw UserError(option + " " + item + ": expected NAME=VALUE with an integer value");
    }
    if (equals == std::string::npos)
      return;
    const std::string text = item.substr(equals + 1);
    char* end = nullptr;
    const long long value = std::strtoll(text.c_str(), &end, 0);
    if (text.empty() || *end != '\0') {
      // A macro with a non-integer body still goes to the instrumenter; it binds no symbol.
      if (strict)
        throw UserError(option + " " + item + ": expected an integer value");
      return;
    }
    values[name] = value;
  };
  for (const std::string& define : defines)
    parse(define, "-D", false);
  for (const std::string& parameter : parameters)
    parse(parameter, "--param", true);
  return values;
}

std::string instrument_tool() {
  if (const char* from_environment = std::getenv("MEMCARLO_INSTRUMENT")) {
    return from_environment;
  }
  const fs::path beside = fs::path(executable_directory()) / "memcarlo-instrument";
  if (fs::exists(beside))
    return beside.string();
  const std::string built = MEMCARLO_INSTRUMENT_TOOL;
  if (!built.empty() && fs::exists(built))
    return built;
  return "";
}

/// The loads table of a source (by running memcarlo-instrument) or of a loads-table file.
std::vector<tracebuf::LoadInfo> loads_table(const std::string& path,
                                            const LocalityOptions& options) {
  std::string json_path = path;
  fs::path temporary;
  if (is_source(path)) {
    if (!fs::exists(path))
      throw UserError(path + ": no such file");
    const std::string tool = instrument_tool();
    if (tool.empty()) {
      throw UserError(path +
                      ": memcarlo-instrument is not available in this build, and the static graph "
                      "needs its loads table: build with -DMEMCARLO_BUILD_INSTRUMENTER=ON, set "
                      "MEMCARLO_INSTRUMENT=PATH, or give the table itself (memcarlo-instrument " +
                      path + " --loads LOADS.json; memcarlo locality LOADS.json ...)");
    }
    std::string pattern = (fs::temp_directory_path() / "memcarlo-locality-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr)
      throw UserError("cannot create a temporary directory", 1);
    temporary = pattern;
    json_path = (temporary / "loads.json").string();
    std::vector<std::string> argv = {
        tool, path, "-o", (temporary / "instrumented.cu").string(), "--loads", json_path, "--"};
    for (const std::string& define : options.defines)
      argv.push_back("-D" + define);
    for (const std::string& include : options.includes)
      argv.push_back("-I" + include);
    const ProcessResult result = run_process(argv);
    if (!result.started || result.shell_status() != 0) {
      fs::remove_all(temporary);
      throw UserError(
          path + ": memcarlo-instrument failed (" +
          (result.started ? "exit " + std::to_string(result.shell_status()) : result.error) +
          "): " + quote_command(argv));
    }
  }
  std::ifstream in(json_path);
  if (!in)
    throw UserError(json_path + ": cannot read the loads table");
  std::stringstream text;
  text << in.rdbuf();
  if (!temporary.empty())
    fs::remove_all(temporary);
  try {
    return tracebuf::loads_from_json(text.str());
  } catch (const std::exception& e) {
    throw UserError(path + ": not a loads table: " + e.what());
  }
}

std::string choose_kernel(const std::vector<tracebuf::LoadInfo>& table, const std::string& given,
                          const std::string& where) {
  if (!given.empty())
    return given;
  std::set<std::string> kernels;
  for (const auto& info : table) {
    if (info.kind == tracebuf::AccessKind::kRead)
      kernels.insert(info.kernels.begin(), info.kernels.end());
  }
  if (kernels.size() == 1)
    return *kernels.begin();
  std::string names;
  for (const auto& name : kernels)
    names += (names.empty() ? "" : ", ") + name;
  throw UserError(where + ": say which kernel with --kernel (kernels with reads: " +
                  (names.empty() ? "none" : names) + ")");
}

void print_graph(std::ostream& out, const std::string& label, const locality::SparseGraph& graph,
                 const tracebuf::Dim3& grid) {
  const locality::GraphSummary summary = locality::summarize(graph);
  out << "  " << label << ": " << summary.pairs << " block pairs share, " << summary.total
      << " shared in all, at most " << summary.max << " per pair; pattern "
      << locality::graph_pattern(graph, grid) << "\n";
}

void print_static(std::ostream& out, const locality::StaticGraph& graph,
                  const tracebuf::Dim3& grid) {
  out << "static graph (from the loads table's index forms, before any run):\n";
  print_graph(out, "elements", graph.elements, grid);
  print_graph(out, "lines   ", graph.lines, grid);
  for (const auto& [root, pattern] : graph.array_patterns) {
    out << "  array " << root << ": " << pattern << "\n";
  }
  for (const locality::StaticLoad& load : graph.loads) {
    out << "  read #" << load.id << " " << load.expression << " (" << load.location
        << "): " << (load.not_covered.empty() ? load.pattern : "NOT COVERED: " + load.not_covered)
        << "\n";
  }
}

void write_file(const std::string& path, const std::string& text, const std::string& what) {
  if (path == "-") {
    std::cout << text;
    return;
  }
  std::ofstream out(path);
  out << text;
  if (!out)
    throw UserError("cannot write the " + what + " to " + path, 1);
}

/// The values of the static graph for a traced launch: the kernel arguments the trace records
/// (kernel_arguments annotations: every integer and pointer argument by parameter name), and for
/// the other names `given` (-D, --param). A value given for a recorded argument that differs from
/// it is a warning naming both; the trace's value is used (it is what the launch ran with).
std::map<std::string, std::int64_t> recorded_values(
    const tracebuf::TraceReader& reader, const tracebuf::LaunchStreams& launch,
    const std::map<std::string, std::int64_t>& given, const LocalityOptions& options) {
  std::map<std::string, std::int64_t> recorded;
  try {
    recorded = footprint::recorded_arguments(reader, launch.info.index);
  } catch (const tracebuf::MetadataError& e) {
    throw UserError(e.what());
  }
  std::map<std::string, std::int64_t> values = given;
  for (const auto& [name, value] : recorded) {
    const auto it = given.find(name);
    if (it != given.end() && it->second != value) {
      // Which option gave it: a --param, else a -D.
      std::string option = "-D";
      for (const std::string& item : options.parameters) {
        if (item.substr(0, item.find('=')) == name)
          option = "--param";
      }
      std::cerr << "memcarlo: warning: " << option << " " << name << "=" << it->second
                << " contradicts the argument " << name << " = " << value << " that "
                << options.input << " records for launch " << launch.info.index << " ("
                << launch.info.kernel << "); the static graph uses the recorded " << value << "\n";
    }
    values[name] = value;
  }
  return values;
}

void run_locality(const LocalityOptions& options) {
  const LaunchValues base{{}, {}, parse_values(options.defines, options.parameters)};
  nlohmann::json document = {{"schema_version", 1}};
  std::ostringstream text;
  std::vector<locality::HeatmapPanel> panels;
  std::string title;
  const locality::SparseGraph* csv_elements = nullptr;
  const locality::SparseGraph* csv_lines = nullptr;
  locality::StaticGraph static_result;
  locality::MeasuredGraph measured;
  tracebuf::Dim3 grid;

  const bool trace_input =
      !is_source(options.input) && fs::path(options.input).extension() != ".json";
  if (!trace_input) {
    if (!options.static_source.empty()) {
      throw UserError("--static compares with a trace: give the trace as the input");
    }
    if (options.grid.empty() || options.block.empty()) {
      throw UserError(options.input + ": the static graph needs --grid X,Y,Z and --block X,Y,Z");
    }
    const std::vector<tracebuf::LoadInfo> table = loads_table(options.input, options);
    locality::StaticOptions static_options;
    static_options.kernel = choose_kernel(table, options.kernel, options.input);
    static_options.launch = base;
    static_options.launch.grid = grid = parse_dim3(options.grid, "--grid");
    static_options.launch.block = parse_dim3(options.block, "--block");
    static_options.max_evaluations = options.max_evaluations;
    try {
      static_result = locality::static_graph(table, static_options);
    } catch (const std::runtime_error& e) {
      throw UserError(options.input + ": " + e.what());
    }
    document["kernel"] = static_options.kernel;
    document["grid"] = {grid.x, grid.y, grid.z};
    document["block"] = {static_options.launch.block.x, static_options.launch.block.y,
                         static_options.launch.block.z};
    document["static"] = locality::static_to_json(static_result, grid);
    text << "kernel " << static_options.kernel << ", grid " << grid.x << "x" << grid.y << "x"
         << grid.z << " (" << grid.volume() << " blocks)\n";
    print_static(text, static_result, grid);
    csv_elements = &static_result.elements;
    csv_lines = &static_result.lines;
    title = static_options.kernel;
    panels = {{"static, elements", &static_result.elements},
              {"static, lines", &static_result.lines}};
  } else {
    tracebuf::TraceReader reader = [&] {
      try {
        return tracebuf::TraceReader::open(options.input);
      } catch (const std::exception& e) {
        throw UserError(options.input + ": not a readable trace: " + e.what());
      }
    }();
    const auto& launches = reader.launches();
    const tracebuf::LaunchStreams* launch = nullptr;
    if (options.launch_given) {
      if (options.launch >= launches.size()) {
        throw UserError(options.input + ": --launch " + std::to_string(options.launch) +
                        ": the trace has " + std::to_string(launches.size()) + " launches");
      }
      launch = &launches[options.launch];
    } else {
      for (const auto& candidate : launches) {
        if (options.kernel.empty() || candidate.info.kernel == options.kernel) {
          launch = &candidate;
          break;
        }
      }
      if (launch == nullptr) {
        throw UserError(options.input + ": no launch" +
                        (options.kernel.empty() ? "" : " of kernel " + options.kernel));
      }
    }
    grid = launch->info.grid;
    try {
      measured = locality::measured_graph(*launch);
    } catch (const std::runtime_error& e) {
      throw UserError(options.input + ": " + e.what());
    }
    document["kernel"] = launch->info.kernel;
    document["launch"] = launch->info.index;
    document["grid"] = {grid.x, grid.y, grid.z};
    document["block"] = {launch->info.block.x, launch->info.block.y, launch->info.block.z};
    document["measured"] = locality::measured_to_json(measured, grid);
    text << "kernel " << launch->info.kernel << ", launch " << launch->info.index << ", grid "
         << grid.x << "x" << grid.y << "x" << grid.z << " (" << grid.volume() << " blocks)\n";
    text << "measured graph (the trace's reads; blocks [" << measured.first_block << ", "
         << measured.first_block + measured.block_count << ") traced):\n";
    print_graph(text, "elements", measured.elements, grid);
    print_graph(text, "lines   ", measured.lines, grid);
    csv_elements = &measured.elements;
    csv_lines = &measured.lines;
    title = launch->info.kernel + ", launch " + std::to_string(launch->info.index);
    panels = {{"measured, elements", &measured.elements}, {"measured, lines", &measured.lines}};
    if (!options.static_source.empty()) {
      const std::vector<tracebuf::LoadInfo> table =
          options.static_source == "embedded" ? reader.loads()
                                              : loads_table(options.static_source, options);
      locality::StaticOptions static_options;
      static_options.kernel = launch->info.kernel;
      static_options.launch = base;
      static_options.launch.values = recorded_values(reader, *launch, base.values, options);
      static_options.launch.grid = grid;
      static_options.launch.block = launch->info.block;
      static_options.first_block = measured.first_block;
      static_options.block_count = measured.block_count;
      static_options.max_evaluations = options.max_evaluations;
      try {
        static_result = locality::static_graph(table, static_options);
      } catch (const std::runtime_error& e) {
        throw UserError(options.static_source + ": " + e.what());
      }
      if (static_result.kernel != launch->info.kernel) {
        document["static_kernel"] = static_result.kernel;
        text << "static graph of the loads table's template " << static_result.kernel
             << " (the trace's kernel " << launch->info.kernel << ")\n";
      }
      print_static(text, static_result, grid);
      panels.push_back({"static, elements", &static_result.elements});
      panels.push_back({"static, lines", &static_result.lines});
      const locality::GraphComparison comparison =
          locality::compare(static_result, measured, table, static_options, *launch);
      document["static"] = locality::static_to_json(static_result, grid);
      document["comparison"] = locality::comparison_to_json(comparison);
      text << "comparison over the traced blocks: elements "
           << (comparison.identical_elements
                   ? std::string("identical")
                   : std::to_string(comparison.element_differences) + " block pairs differ")
           << ", lines "
           << (comparison.identical_lines
                   ? std::string("identical")
                   : std::to_string(comparison.line_differences) + " block pairs differ")
           << "\n";
      for (const locality::EntryDifference& d : comparison.first_element_differences) {
        text << "  L(" << d.block_i << ", " << d.block_j << "): static " << d.static_weight
             << ", measured " << d.measured_weight << "\n";
      }
      for (const locality::LoadCause& cause : comparison.causes) {
        text << "  cause: read #" << cause.id << " " << cause.expression << " (" << cause.location
             << "): " << cause.why << "\n";
      }
    }
  }
  if (options.json_output == "-") {
    std::cout << document.dump(2) << "\n";
  } else {
    std::cout << text.str();
    if (!options.json_output.empty()) {
      write_file(options.json_output, document.dump(2) + "\n", "locality graph");
    }
  }
  if (!options.html_output.empty()) {
    write_file(options.html_output,
               locality::heatmap_html("Locality graph: " + title, grid, panels), "heatmap page");
  }
  if (!options.csv_output.empty()) {
    write_file(options.csv_output, locality::graphs_to_csv(*csv_elements, *csv_lines), "CSV");
  }
}

}  // namespace

void add_locality_command(CLI::App& app) {
  auto options = std::make_shared<LocalityOptions>();
  auto* command = app.add_subcommand(
      "locality",
      "Threadblock locality graphs (LocalityGuru): L(i, j) = the elements (and the 128-byte "
      "lines) blocks i and j both read.\n"
      "  memcarlo locality SOURCE.cu|LOADS.json --kernel K --grid X,Y,Z --block X,Y,Z [-D N=256] "
      "[--param n=256]\n"
      "    the static graph, from the loads table's affine index forms evaluated over the grid, "
      "the block and the loop ranges before any run (a source is run through "
      "memcarlo-instrument; -D defines a macro for it, --param gives a kernel parameter its "
      "value). "
      "Reads whose index is not affine (data-dependent, unknown loop bounds, missing values) are "
      "listed as not covered, with the reason.\n"
      "  memcarlo locality TRACE [--launch I | --kernel K]\n"
      "    the graph measured from the trace's reads of one launch (its traced blocks).\n"
      "  memcarlo locality TRACE --static SOURCE.cu|LOADS.json|embedded [-D ...] [--param ...]\n"
      "    both over the traced blocks and their element-wise comparison: identical, or the "
      "differing entries and the reads that cause them (`embedded`: the loads table in the "
      "trace). The kernel arguments the trace records (every integer and pointer argument, by "
      "parameter name) give the parameters their values; --param is needed only for what it "
      "lacks, and one that contradicts a recorded argument is a warning naming both (the "
      "recorded value is used).\n"
      "The static graph assumes every thread executes every read (branch conditions are not in "
      "the loads table), distinct arrays, and arrays aligned to 128 bytes. Exit code 0 whether or "
      "not the graphs agree; 2 for bad input");
  command->add_option("INPUT", options->input, "A CUDA source, a loads table (.json) or a trace")
      ->required();
  command->add_option("--kernel", options->kernel,
                      "The kernel (needed when the table has reads of several)");
  command->add_option("--grid", options->grid, "Grid dimensions X,Y,Z for the static graph");
  command->add_option("--block", options->block, "Block dimensions X,Y,Z for the static graph");
  command->add_option("-D,--define", options->defines,
                      "NAME[=VALUE]: a macro for the instrumenter, e.g. a problem size the "
                      "source spells as a macro (repeatable)");
  command->add_option("--param", options->parameters,
                      "NAME=VALUE: the value of the scalar kernel parameter (or constant) NAME, "
                      "e.g. --param n=256 (repeatable); a parameter the forms use without a value "
                      "leaves its reads not covered. With a trace, the arguments it records come "
                      "first: a --param that contradicts one is a warning");
  command->add_option("-I", options->includes, "Include directory for the instrumenter");
  command->add_option_function<std::uint32_t>(
      "--launch",
      [options](std::uint32_t launch) {
        options->launch = launch;
        options->launch_given = true;
      },
      "Which launch of the trace (default: the first, or the first of --kernel)");
  command->add_option("--static", options->static_source,
                      "With a trace: also the static graph from this source, loads table or "
                      "`embedded` (the trace's own table), and the comparison");
  command->add_option("--json", options->json_output,
                      "Write the graphs as JSON (schema_version 1; `-` for stdout instead of the "
                      "summary)");
  command->add_option("--csv", options->csv_output,
                      "Write block_i,block_j,elements,lines rows (`-` for stdout)");
  command->add_option("--html", options->html_output,
                      "Write a page with each graph's lower triangle as a heatmap (the paper's "
                      "Figure 4; more than 512 blocks are drawn in bins), with block axes and a "
                      "colour scale: elements and lines of every graph computed");
  command->add_option("--max-evaluations", options->max_evaluations,
                      "Index evaluations allowed per read before it is listed as not covered");
  command->callback([options] { run_locality(*options); });
}

}  // namespace memcarlo::cli
