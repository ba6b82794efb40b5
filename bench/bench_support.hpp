// What the benchmark drivers share: their input options (--trace, --hierarchy, --set) and its
// loading, with issue 2's ~10M-transaction scalar CSR SpMV trace (424 blocks of 256 threads, 32
// non-zeros per row on average, columns anywhere) when no trace is given, and the parsing of
// their numeric options.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"
#include "memcarlo/tracebuf/reader.hpp"

#ifdef MEMCARLO_HAVE_SYNTH
#include "memcarlo/synth/synth.hpp"
#endif

namespace memcarlo::bench {

/// The positive integer value of option `flag`; anything else ends the program with a message.
inline std::uint32_t positive_option(const char* flag, const char* text) {
  std::uint32_t value = 0;
  const char* end = text + std::strlen(text);
  const auto [rest, error] = std::from_chars(text, end, value);
  if (error != std::errc{} || rest != end || value == 0) {
    std::cerr << flag << ": expected a positive integer, got '" << text << "'\n";
    std::exit(1);
  }
  return value;
}

/// Writes the default SpMV trace and returns its path; empty (with a message) when built without
/// memcarlo::synth.
inline std::string default_spmv_trace() {
#ifdef MEMCARLO_HAVE_SYNTH
  const std::string path =
      (std::filesystem::temp_directory_path() / "memcarlo-bench-spmv.mct").string();
  memcarlo::synth::SynthOptions spmv;
  spmv.pattern = "spmv";
  spmv.blocks = 424;
  spmv.threads = 256;
  spmv.nnz_per_row = 32;
  spmv.matrix = memcarlo::synth::MatrixLayout::kRandom;
  spmv.seed = 3;
  const auto summary = memcarlo::synth::generate(spmv, path);
  std::cout << "input: " << summary.command << "\n";
  return path;
#else
  std::cerr << "built without memcarlo::synth: pass --trace FILE\n";
  return {};
#endif
}

/// The options every driver takes: which trace, on which hierarchy.
struct InputOptions {
  static constexpr const char* kUsage = "[--trace FILE] [--hierarchy P] [--set KEY=VALUE]...";

  std::string trace;  // empty: the default SpMV trace
  std::string hierarchy = "fermi-c2050";
  std::vector<std::string> overrides;

  /// Takes `flag value` if the flag is one of these options: 2 (the arguments it used), else 0.
  /// A null `value` (the flag was the last argument) is left for the caller to report.
  int take(const char* flag, const char* value) {
    std::string* text = !std::strcmp(flag, "--trace")       ? &trace
                        : !std::strcmp(flag, "--hierarchy") ? &hierarchy
                                                            : nullptr;
    if (text == nullptr && std::strcmp(flag, "--set") != 0) {
      return 0;
    }
    if (value != nullptr) {
      if (text != nullptr) {
        *text = value;
      } else {
        overrides.emplace_back(value);
      }
    }
    return 2;
  }
};

/// Parses the command line: the input options into `input`, every other option through
/// `take(flag, value)`, which returns how many arguments it used (1: the flag alone, 2: the flag
/// and `value`, which is null after the last argument; 0: not its flag). Anything else prints
/// a message and the usage line, with `extra_usage` after the input options, and returns false.
template <class Take>
bool parse_options(int argc, char** argv, InputOptions& input, const char* extra_usage, Take take) {
  for (int i = 1; i < argc;) {
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    int used = take(argv[i], value);
    if (used == 0) {
      used = input.take(argv[i], value);
    }
    if (used == 0 || (used == 2 && value == nullptr)) {
      std::cerr << (used == 2 ? "missing value after " : "unknown option ") << argv[i] << "\n"
                << "usage: " << argv[0] << " " << InputOptions::kUsage << " " << extra_usage
                << "\n";
      return false;
    }
    i += used;
  }
  return true;
}

/// The common first line of a driver's output.
inline void print_input(const InputOptions& options, const std::string& trace_path,
                        const sim::CompiledTrace& compiled) {
  std::cout << "trace: " << trace_path << ", " << compiled.transactions.size()
            << " L1 transactions, " << compiled.l1_line_count() << " distinct lines, hierarchy "
            << options.hierarchy << "\n";
}

struct Input {
  std::string trace_path;
  sim::HierarchyConfig config;
  sim::CompiledTrace compiled;
};

/// The hierarchy and the compiled trace of `options`; std::nullopt (with a message) when there is
/// no trace to read. Bad files and settings throw, with a message that names them.
inline std::optional<Input> load_input(const InputOptions& options) {
  Input input;
  input.trace_path = options.trace.empty() ? default_spmv_trace() : options.trace;
  if (input.trace_path.empty()) {
    return std::nullopt;
  }
  input.config = sim::load_hierarchy(options.hierarchy, options.overrides);
  const auto reader = tracebuf::TraceReader::open(input.trace_path);
  input.compiled = sim::compile_trace(reader, input.config);
  return input;
}

}  // namespace memcarlo::bench
