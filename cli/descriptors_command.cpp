// `memcarlo descriptors TRACE`: Locality Descriptors for each kernel and launch shape of the
// trace, proposed from the loads table's affine index forms (the paper's histo and stencil cases:
// which blocks read which part of an array), as JSON that `simulate --descriptors FILE` reads
// back; and the `--descriptors FILE` check of simulate and sweep (simulate_support.hpp).
//
// How a proposal is made: descriptor_proposer.cpp.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>

#include "commands.hpp"
#include "memcarlo/footprint/footprint.hpp"
#include "memcarlo/locality/graph.hpp"
#include "memcarlo/locality/index_forms.hpp"
#include "memcarlo/locality/static_graph.hpp"
#include "memcarlo/reports/trace_device.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/tracebuf/locality_descriptor.hpp"
#include "memcarlo/tracebuf/reader.hpp"
#include "descriptor_proposer.hpp"
#include "simulate_support.hpp"

namespace memcarlo::cli {

std::vector<std::string> descriptors_overrides(const std::string& file,
                                               const std::string& hierarchy) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw UserError("--descriptors " + file + ": cannot be read", 2);
  }
  std::ostringstream text;
  text << in.rdbuf();
  try {
    (void)tracebuf::parse_descriptor_file(text.str());
  } catch (const tracebuf::DescriptorError& error) {
    throw UserError("--descriptors " + file + ": " + error.what(), 2);
  }
  // The keys a hierarchy file of the user's names itself (nested or dotted), which it keeps.
  std::set<std::string> named;
  if (std::ifstream hierarchy_file(hierarchy);
      hierarchy_file && !std::filesystem::is_directory(hierarchy)) {
    const nlohmann::json document = nlohmann::json::parse(hierarchy_file, nullptr, false);
    const std::function<void(const nlohmann::json&, const std::string&)> walk =
        [&](const nlohmann::json& node, const std::string& prefix) {
          if (!node.is_object())
            return;
          for (const auto& [key, value] : node.items()) {
            const std::string path = prefix.empty() ? key : prefix + "." + key;
            named.insert(path);
            walk(value, path);
          }
        };
    walk(document, "");
  }
  std::vector<std::string> overrides;
  for (const char* key : {"schedule.cta", "placement.policy"}) {
    if (!named.contains(key)) {
      overrides.push_back(std::string(key) + "=ldesc");
    }
  }
  overrides.push_back("ldesc.descriptors=" + nlohmann::json(file).dump());
  return overrides;
}

namespace {

using tracebuf::Dim3;
using tracebuf::LocalityDescriptor;

struct DescriptorsOptions {
  std::string trace;
  std::optional<std::uint32_t> launch;  // --launch: this launch's shape only
  std::string output = "-";
  std::vector<std::string> parameters;  // NAME=VALUE for kernel parameters the trace lacks
  std::string hierarchy;  // ranks the descriptors; empty: the trace's own, else fermi-c2050
};


void run_descriptors(const DescriptorsOptions& options) {
  const auto reader = tracebuf::TraceReader::open(options.trace);
  const auto& launches = reader.launches();
  if (options.launch && *options.launch >= launches.size()) {
    throw UserError("--launch " + std::to_string(*options.launch) + ": " + options.trace + " has " +
                        std::to_string(launches.size()) + " launches",
                    2);
  }
  std::map<std::string, std::int64_t> given;
  for (const std::string& item : options.parameters) {
    const std::size_t equals = item.find('=');
    char* end = nullptr;
    const std::string text = equals == std::string::npos ? "" : item.substr(equals + 1);
    const long long value = std::strtoll(text.c_str(), &end, 0);
    if (equals == std::string::npos || equals == 0 || text.empty() || *end != '\0') {
      throw UserError("--param " + item + ": expected NAME=VALUE with an integer value", 2);
    }
    given[item.substr(0, equals)] = value;
  }
  // One proposal per kernel and launch shape (tiles are in CTAs of the grid): from the first
  // launch of that shape, or from --launch alone.
  std::vector<std::uint32_t> chosen;
  for (std::uint32_t l = 0; l < launches.size(); ++l) {
    const tracebuf::LaunchInfo& info = launches[l].info;
    const bool seen = std::any_of(chosen.begin(), chosen.end(), [&](std::uint32_t c) {
      const tracebuf::LaunchInfo& other = launches[c].info;
      return other.kernel == info.kernel && other.grid == info.grid && other.block == info.block;
    });
    if ((!options.launch && !seen) || (options.launch && *options.launch == l)) {
      chosen.push_back(l);
    }
  }
  if (chosen.empty()) {
    throw UserError(options.trace + ": no launches", 2);
  }
  // The hierarchy whose L1 misses rank the descriptors: the one the trace's snapshot was sized
  // for (memcarlo run -H), unless named.
  std::string hierarchy = options.hierarchy;
  if (hierarchy.empty()) {
    hierarchy = reports::read_recorded_device(reader.meta().device_json)
                    .hierarchy.value_or(SimulateOptions{}.hierarchy);
  }
  sim::HierarchyConfig config;
  try {
    config = sim::load_hierarchy(hierarchy);
  } catch (const sim::ConfigError& e) {
    throw UserError(std::string("--hierarchy: ") + e.what(), 2);
  }
  std::vector<std::string> notes;
  std::vector<tracebuf::ScopedDescriptor> proposed;
  for (const std::uint32_t l : chosen) {
    const tracebuf::LaunchInfo& info = launches[l].info;
    const std::string prefix =
        chosen.size() > 1 ? info.kernel + " (launch " + std::to_string(l) + "): " : std::string();
    const tracebuf::DescriptorScope scope{info.kernel, info.grid, info.block};
    for (LocalityDescriptor& d : propose_for_launch(reader, l, given, config, prefix, notes)) {
      proposed.push_back({scope, std::move(d)});
    }
    // Later launches of the shape get these descriptors too; say so where they pass other
    // pointers (other arrays), whose data the proposal did not see.
    if (!options.launch) {
      const std::map<std::string, std::int64_t> arguments =
          footprint::recorded_arguments(reader, l);
      std::vector<std::string> others;
      for (std::uint32_t m = l + 1; m < launches.size(); ++m) {
        const tracebuf::LaunchInfo& later = launches[m].info;
        if (later.kernel == info.kernel && later.grid == info.grid && later.block == info.block &&
            footprint::recorded_arguments(reader, m) != arguments) {
          others.push_back(std::to_string(m));
        }
      }
      if (!others.empty()) {
        std::string list;
        for (const std::string& m : others)
          list += (list.empty() ? "" : ", ") + m;
        notes.push_back(prefix + "launches " + list + " of " + info.kernel +
                        " have the same shape but other arguments: they get the descriptors "
                        "proposed from launch " +
                        std::to_string(l) + " (--launch I proposes from another)");
      }
    }
  }
  for (const std::string& text : notes) {
    std::cerr << "memcarlo: note: " << text << "\n";
  }
  const std::string json = tracebuf::descriptor_file_to_json(proposed);
  if (options.output == "-") {
    std::cout << json;
  } else {
    std::ofstream out(options.output);
    out << json;
    if (!out) {
      throw UserError("cannot write " + options.output, 1);
    }
  }
}

}  // namespace

void add_descriptors_command(CLI::App& app) {
  auto options = std::make_shared<DescriptorsOptions>();
  auto* command = app.add_subcommand(
      "descriptors",
      "Propose Locality Descriptors (ISCA'18; docs/locality-descriptors.md) for every kernel "
      "and launch shape (grid, block) of the trace, each from its first launch, from the loads "
      "table's affine index forms; each descriptor names its kernel, grid and block, and "
      "applies to those launches only. Per array a kernel reads or writes, which blocks "
      "touch which part of it. blockIdx.d's coefficient in the index says how far a block's part "
      "moves along grid dimension d: blocks that differ only along the other dimensions share the"
      " part (the C-Tile spans them); the part one block touches gives the D-Tile (a 1-D run, or "
      "a strip of rows at a pitch: the paper's histo tile (X_tile, Y_len, 1)). A part reaching "
      "into the neighbours' tiles (a stencil's halo) is NEARBY, else COACCESSED; an array no two "
      "blocks share is NO-REUSE (a block's own output) unless its innermost loop comes back to "
      "its 128-byte lines: then INTRA-THREAD when neighbouring threads are a line or more apart "
      "(atax's rows: each thread re-reads its own), else INTER-THREAD (the warp's threads share "
      "the lines). Prints JSON that `memcarlo simulate "
      "--descriptors FILE` reads: edit it (types, priorities) and pass it back. Priorities put "
      "the key data structure first: the most L2 requests (L1 misses, stores, atomics) of its "
      "accesses in one trial of the launch on --hierarchy. An array with a "
      "data-dependent or non-affine access gets no descriptor; a note on standard error says why."
      " Exit code 2 for a trace without index forms or allocations");
  command->add_option("TRACE", options->trace, "The trace (.mct)")->required();
  command->add_option_function<std::uint32_t>(
      "--launch", [options](std::uint32_t launch) { options->launch = launch; },
      "Propose from this launch only (default: every kernel and launch shape of the trace, each "
      "from its first launch)");
  command->add_option("--output,-o", options->output, "Write the JSON here ('-': stdout)")
      ->capture_default_str();
  command->add_option("--hierarchy,-H", options->hierarchy,
                      "Preset or hierarchy file whose L1 ranks the descriptors (default: the one "
                      "the trace's snapshot was sized for, else fermi-c2050)");
  command->add_option("--param", options->parameters,
                      "NAME=VALUE: a kernel parameter's value where the trace records none "
                      "(repeatable)");
  command->callback([options] { run_descriptors(*options); });
}

}  // namespace memcarlo::cli
