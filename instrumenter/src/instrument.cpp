// Orchestration: parse the host side (launches) and the device side (accesses) with fallbacks,
// build the loads table and the edits, apply them all or nothing, and report.
#include "memcarlo/instrumenter/instrument.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "device_analysis.hpp"
#include "device_only_code.hpp"
#include "edit_set.hpp"
#include "host_error_tolerance.hpp"
#include "include_tracker.hpp"
#include "launch_kernel_casts.hpp"
#include "launch_rewriter.hpp"
#include "memcarlo_instrumenter_build_config.hpp"
#include "output_writer.hpp"
#include "parse_driver.hpp"
#include "parse_setup.hpp"
#include "split_chevrons.hpp"
#include "symbol_names.hpp"
#include "virtual_files.hpp"

namespace memcarlo::instrumenter {

unsigned InstrumentSummary::skipped_total() const {
  unsigned total = 0;
  for (const auto& [reason, count] : skipped_by_reason) total += count;
  return total;
}

namespace {
std::string absolute_path(const std::string& path) {
  llvm::SmallString<256> result(path);
  llvm::sys::fs::make_absolute(result);
  llvm::sys::path::remove_dots(result, true);
  return std::string(result.str());
}

bool read_file(const std::string& path, std::string& content) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  content.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

/// When the toolkit setup failed in the toolkit's or Clang's own headers and the command line
/// defines macros with identifier-like names: a remark naming them, else "".
std::string macro_clash(const ParseAttempt& attempt, const UserFlags& flags,
                        const std::string& toolkit) {
  if (attempt.setup != ParseSetup::kToolkit || attempt.errors.empty() || toolkit.empty()) {
    return "";
  }
  const std::string& first = attempt.errors.front();
  if (first.rfind(toolkit + "/", 0) != 0 &&
      first.rfind(std::string(build_config::kClangResourceDir) + "/", 0) != 0) {
    return "";
  }
  const std::vector<std::string> names = identifier_like_macros(flags);
  if (names.empty()) return "";
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
  return "its errors are in the toolkit's headers, where the command line's macros (" + list +
         ") may replace names; the builtin setup's declarations do not use such names";
}

/// The errors of the attempt worth showing: the one with the fewest errors, the first on ties.
std::vector<std::string> parse_failure(const std::string& input, const std::string& side,
                                       const SideParseResult& result, const UserFlags& flags,
                                       const std::string& toolkit) {
  const ParseAttempt* best = &result.failures.front();
  std::string tried;
  for (const ParseAttempt& attempt : result.failures) {
    if (attempt.errors.size() < best->errors.size()) best = &attempt;
    tried += (tried.empty() ? "" : ", ") + to_string(attempt.setup);
  }
  std::vector<std::string> errors = {input + ": error: cannot parse the " + side +
                                     " side of this CUDA file (parse setups tried: " + tried +
                                     "); diagnostics of the " + to_string(best->setup) +
                                     " setup follow"};
  errors.insert(errors.end(), best->errors.begin(), best->errors.end());
  if (!result.not_tolerated.empty()) {
    errors.push_back(input + ": note: host code errors away from device code and launches are "
                     "tolerated, but not this one: " + result.not_tolerated);
  }
  for (const ParseAttempt& attempt : result.failures) {
    const std::string clash = macro_clash(attempt, flags, toolkit);
    if (!clash.empty()) {
      errors.push_back(input + ": note: the " + to_string(attempt.setup) +
                       " setup did not parse (" + attempt.errors.front() + "): " + clash);
    }
  }
  return errors;
}

void add_tolerated(InstrumentSummary& summary, const SideParseResult& parse) {
  for (const std::string& error : parse.tolerated) {
    if (std::find(summary.tolerated_errors.begin(), summary.tolerated_errors.end(), error) ==
        summary.tolerated_errors.end()) {
      summary.tolerated_errors.push_back(error);
    }
  }
}

/// `{"launches": [name, ...], "complete": bool}`: the host runtime's launch names of the unit
/// (MEMCARLO_REGISTER_LAUNCHES); `complete` is false when some launch names its kernel at run
/// time only.
std::string launches_json(const LaunchFacts& launches) {
  std::string json = "{\"launches\": [";
  bool first = true;
  for (const std::string& name : launches.launch_names) {
    json += first ? "\"" : ", \"";
    first = false;
    for (char c : name) {
      if (c == '"' || c == '\\') json.push_back('\\');
      json.push_back(c);
    }
    json += "\"";
  }
  return json + "], \"complete\": " + (launches.launch_names_complete ? "true" : "false") + "}";
}
}  // namespace

InstrumentResult instrument(const InstrumentOptions& options) {
  InstrumentResult result;
  const std::string main_file = absolute_path(options.input);
  if (!llvm::sys::fs::is_regular_file(main_file)) {
    result.errors.push_back(options.input + ": error: no such file");
    return result;
  }
  const std::string toolkit = find_cuda_toolkit(options.cuda_path);
  std::vector<std::string> raw_flags;
  std::string working_dir;
  if (!options.compilation_database_dir.empty()) {
    std::string error;
    if (!flags_from_compilation_database(options.compilation_database_dir, options.input,
                                         raw_flags, working_dir, error)) {
      result.errors.push_back("error: " + error);
      return result;
    }
  }
  raw_flags.insert(raw_flags.end(), options.compile_flags.begin(), options.compile_flags.end());
  const UserFlags flags = translate_user_flags(raw_flags, working_dir);
  result.summary.notes = flags.notes;
  if (toolkit.empty()) result.summary.notes.push_back("no CUDA toolkit found: builtin setup only");

  // Host side: launches.
  EditSet edits;
  LaunchFacts launches;
  unsigned symbol_names = 0;
  unsigned launch_kernel_casts = 0;
  std::vector<RelativeInclude> includes;
  std::vector<DeviceOnlyBlock> device_only;
  std::vector<std::string> device_only_warnings;
  const SideParseResult host = parse_side(
      Side::kHost, options.setup_order, toolkit, flags, main_file,
      [&](clang::ASTContext& context) {
        launches = rewrite_launches(context, options.backend, toolkit, edits);
        symbol_names = rewrite_symbol_names(context, toolkit, edits);
        if (options.backend == Backend::kHost) {
          launch_kernel_casts = rewrite_launch_kernel_casts(context, toolkit, edits);
          device_only_warnings = device_only_kernel_warnings(context, device_only);
        }
      },
      [&](clang::Preprocessor& preprocessor) {
        includes.clear();  // a failed setup may have run before
        track_relative_includes(preprocessor, toolkit, includes);
        device_only.clear();
        track_device_only_blocks(preprocessor, toolkit, device_only);
      },
      check_host_errors);
  if (!host.ok) {
    result.errors = parse_failure(options.input, "host", host, flags, toolkit);
    return result;
  }
  result.summary.host_setup = to_string(host.setup);
  auto note_fallbacks = [&](const std::string& side, const SideParseResult& parse) {
    for (const ParseAttempt& attempt : parse.failures) {
      const std::string clash = macro_clash(attempt, flags, toolkit);
      result.summary.notes.push_back(side + " side: the " + to_string(attempt.setup) +
                                     " setup did not parse (" + attempt.errors.front() + ")" +
                                     (clash.empty() ? "" : ": " + clash));
    }
  };
  if (host.tolerated.empty()) note_fallbacks("host", host);
  add_tolerated(result.summary, host);

  // Device side: accesses. Falls back to the device code as the host side parsed it.
  DeviceFacts device;
  auto analyze = [&](clang::ASTContext& context) {
    device = analyze_device_code(context, options.backend, toolkit);
  };
  const SideParseResult device_parse = parse_side(Side::kDevice, options.setup_order, toolkit,
                                                  flags, main_file, analyze, {}, check_host_errors);
  if (device_parse.ok) {
    result.summary.device_setup = to_string(device_parse.setup);
    if (device_parse.tolerated.empty()) note_fallbacks("device", device_parse);
    add_tolerated(result.summary, device_parse);
  } else {
    parse_side(Side::kHost, {host.setup}, toolkit, flags, main_file, analyze, {},
               check_host_errors);
    result.summary.device_setup = "host-side AST";
    result.summary.notes.push_back(
        "the device side did not parse (" + device_parse.failures.front().errors.front() +
        "); device code was analysed as the host side sees it");
  }

  result.errors.insert(result.errors.end(), launches.errors.begin(), launches.errors.end());
  result.errors.insert(result.errors.end(), device.errors.begin(), device.errors.end());
  if (!result.errors.empty()) return result;

  for (const Edit& edit : device.declaration_edits) edits.add(edit);
  TableResult table = build_table(device.sites, edits);
  result.loads = std::move(table.entries);
  result.loads_json = loads_table_to_json(result.loads, /*one_per_line=*/false);

  InstrumentSummary& summary = result.summary;
  summary.probed = table.probed;
  summary.launches_rewritten = launches.rewritten;
  summary.warnings = launches.warnings;
  summary.warnings.insert(summary.warnings.end(), device_only_warnings.begin(),
                          device_only_warnings.end());
  if (symbol_names > 0) {
    summary.notes.push_back(std::to_string(symbol_names) +
                            " symbol names given as strings (CUDA before 5.0) replaced by the "
                            "variables they name");
  }
  if (launch_kernel_casts > 0) {
    summary.notes.push_back("cudaLaunchKernel: " + std::to_string(launch_kernel_casts) +
                            " casts of a kernel to an untyped pointer removed (the host "
                            "emulation unpacks the arguments by the kernel's parameter types)");
  }
  summary.skipped = std::move(table.skipped);
  summary.skipped.insert(summary.skipped.end(), device.other_skips.begin(),
                         device.other_skips.end());
  summary.skipped.insert(summary.skipped.end(), launches.skipped.begin(), launches.skipped.end());
  for (const SkippedAccess& skipped : summary.skipped) ++summary.skipped_by_reason[skipped.reason];

  OutputRequest request{options,
                        main_file,
                        {},
                        {},
                        loads_table_to_json(result.loads, true),
                        device.kernel_parameters_json,
                        launches.kernel_thunks,
                        options.backend == Backend::kHost ? launches_json(launches) : ""};
  std::vector<std::string> files = edits.files();
  files.push_back(main_file);
  std::set<std::string> unchanged;  // written as they are, for their includes' sake
  if (!options.patch) {
    // A file that stays put and includes a written one beside it would include the original,
    // whose include guard then keeps the rewritten copy out (the CUDA samples' interval:
    // cpu_interval.h includes cuda_interval.h, which holds the kernel). Such includers are
    // written too, up to the main file, unchanged but for their includes.
    std::set<std::string> written(files.begin(), files.end());
    for (bool grew = true; grew;) {
      grew = false;
      for (const RelativeInclude& include : includes) {
        if (written.count(include.target) != 0 && written.insert(include.includer).second) {
          files.push_back(include.includer);
          unchanged.insert(include.includer);
          grew = true;
        }
      }
    }
    // Written copies live elsewhere: their includes of files that stay put name the originals.
    for (const RelativeInclude& include : includes) {
      if (written.count(include.includer) == 0 || written.count(include.target) != 0) continue;
      edits.replace(include.includer, include.begin, include.end - include.begin,
                    "\"" + include.target + "\"", "#include of " + include.target);
    }
  }
  for (const std::string& file : files) {
    std::string content;
    if (!read_file(file, content)) {
      result.errors.push_back(file + ": error: cannot read");
      return result;
    }
    request.originals[file] = std::move(content);
  }
  // The edits' offsets are those of the text the parse read: split launch chevrons rejoined
  // (same length). The originals stay as on disk, for patches and files without edits.
  std::map<std::string, std::string> as_parsed = request.originals;
  for (auto& [file, text] : as_parsed) {
    if (rejoins_chevrons(file, main_file)) rejoin_split_chevrons(text);
  }
  if (!edits.apply(as_parsed, request.rewritten, result.errors)) return result;
  for (const std::string& file : unchanged) {
    request.rewritten.try_emplace(file, request.originals.at(file));  // no edit of its own
  }
  result.outputs = plan_outputs(request, result.errors);
  result.ok = result.errors.empty();
  return result;
}

std::string format_summary(const std::string& input, const InstrumentSummary& summary,
                           bool verbose) {
  std::ostringstream out;
  out << "memcarlo-instrument: " << input << ": probed " << summary.probed << " accesses, skipped "
      << summary.skipped_total();
  if (!summary.skipped_by_reason.empty()) {
    out << " (";
    bool first = true;
    for (const auto& [reason, count] : summary.skipped_by_reason) {
      out << (first ? "" : ", ") << reason << ": " << count;
      first = false;
    }
    out << ")";
  }
  out << "; " << summary.launches_rewritten << " launches rewritten [parsed host: "
      << summary.host_setup << ", device: " << summary.device_setup << "]\n";
  if (!summary.tolerated_errors.empty()) {
    out << "memcarlo-instrument: warning: " << input << ": instrumented although its host code has "
        << summary.tolerated_errors.size()
        << (summary.tolerated_errors.size() == 1 ? " error" : " errors")
        << " (inside host functions, away from device code and kernel launches):\n";
    for (const std::string& error : summary.tolerated_errors) out << "  " << error << "\n";
  }
  for (const std::string& warning : summary.warnings) {
    out << "memcarlo-instrument: warning: " << warning << "\n";
  }
  if (verbose) {
    for (const SkippedAccess& skipped : summary.skipped) {
      out << "  skipped " << skipped.location << ": " << skipped.expression << " ("
          << skipped.reason << ")\n";
    }
    for (const std::string& note : summary.notes) out << "  note: " << note << "\n";
  }
  return out.str();
}

int run_instrument(const InstrumentOptions& options, std::ostream& diagnostics) {
  InstrumentResult result = instrument(options);
  if (result.ok && !options.loads_path.empty()) {
    result.outputs[options.loads_path] = result.loads_json;
  }
  if (result.ok) {
    write_outputs(result.outputs, result.errors);
    result.ok = result.errors.empty();
  }
  if (!result.ok) {
    for (const std::string& error : result.errors) diagnostics << error << "\n";
    const bool parse_error = !result.errors.empty() &&
                             result.errors.front().find("cannot parse") != std::string::npos;
    diagnostics << "memcarlo-instrument: " << options.input << ": no output written\n";
    return parse_error ? 1 : 2;
  }
  diagnostics << format_summary(options.input, result.summary, options.verbose);
  return 0;
}

}  // namespace memcarlo::instrumenter
