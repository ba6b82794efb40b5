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

  /// Takes `flag value` if the flag is one of these options.
  bool take(const char* flag, const char* value) {
    if (!std::strcmp(flag, "--trace")) {
      trace = value;
    } else if (!std::strcmp(flag, "--hierarchy")) {
      hierarchy = value;
    } else if (!std::strcmp(flag, "--set")) {
      overrides.emplace_back(value);
    } else {
      return false;
    }
    return true;
  }
};

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
