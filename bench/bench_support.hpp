// What the benchmark drivers share: their input options (--trace, --hierarchy, --set) and its
// loading, with issue 2's ~10M-transaction scalar CSR SpMV trace (424 blocks of 256 threads, 32
// non-zeros per row on average, columns anywhere) when no trace is given, the compile's rate on
// one thread and on all, and the parsing of their numeric options.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <tbb/info.h>
#include <tbb/task_arena.h>

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
  // Written beside its final name and renamed into place, so that benchmarks running at the same
  // time never read a half-written trace (each keeps the file it opened).
  const std::string partial = path + "." + std::to_string(::getpid()) + ".partial";
  const auto summary = memcarlo::synth::generate(spmv, partial);
  std::filesystem::rename(partial, path);
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

/// How long compiling the trace took on one thread and on all of them.
struct CompileTiming {
  double one_thread_seconds = 0;
  double all_threads_seconds = 0;
  unsigned threads = 1;
  bool identical = false;  // the two compiles gave the same arrays, bit for bit
};

struct Input {
  std::string trace_path;
  sim::HierarchyConfig config;
  sim::CompiledTrace compiled;
  CompileTiming compile;
};

/// A 64-bit hash of the bytes of a vector of plain structs (no padding), word by word.
template <class T, class Allocator>
void hash_bytes(const std::vector<T, Allocator>& values, std::uint64_t& hash) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
  const std::size_t size = values.size() * sizeof(T);
  for (std::size_t at = 0; at < size; at += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, bytes + at, std::min<std::size_t>(8, size - at));
    hash = (hash ^ word) * 0x100000001B3ull;
    hash ^= hash >> 29;
  }
  hash = (hash ^ size) * 0x100000001B3ull;
}

/// A hash of every array of a compiled trace, to check that two compiles agree without holding
/// both in memory (which would double the peak RSS the drivers report).
inline std::uint64_t compiled_hash(const sim::CompiledTrace& trace) {
  std::uint64_t hash = 0xCBF29CE484222325ull;
  hash_bytes(trace.transactions, hash);
  hash_bytes(trace.bulks, hash);
  hash_bytes(trace.warps, hash);
  hash_bytes(trace.l1_line_address, hash);
  hash_bytes(trace.line_ids_by_address, hash);
  hash_bytes(trace.l1_set, hash);
  hash_bytes(trace.l2_set, hash);
  hash_bytes(trace.dram_location, hash);
  hash_bytes(trace.slots, hash);
  hash_bytes(trace.loads, hash);
  for (const auto& launch : trace.launches) {
    hash_bytes(launch.blocks, hash);
    hash_bytes(std::vector<std::uint64_t>{launch.transactions, launch.resident_blocks_per_sm,
                                          launch.kernel_index},
               hash);
  }
  return hash;
}

/// Compiles `reader` for `config` in an arena of `threads` threads; returns the seconds taken.
inline double timed_compile(const tracebuf::TraceReader& reader, const sim::HierarchyConfig& config,
                            unsigned threads, sim::CompiledTrace& out) {
  tbb::task_arena arena(static_cast<int>(threads));
  const auto start = std::chrono::steady_clock::now();
  arena.execute([&] { out = sim::compile_trace(reader, config); });
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The hierarchy and the compiled trace of `options`, compiled once on one thread and once on
/// all (the one kept); std::nullopt (with a message) when there is no trace to read. Bad files
/// and settings throw, with a message that names them.
inline std::optional<Input> load_input(const InputOptions& options) {
  Input input;
  input.trace_path = options.trace.empty() ? default_spmv_trace() : options.trace;
  if (input.trace_path.empty()) {
    return std::nullopt;
  }
  input.config = sim::load_hierarchy(options.hierarchy, options.overrides);
  const auto reader = tracebuf::TraceReader::open(input.trace_path);
  CompileTiming& timing = input.compile;
  timing.threads = static_cast<unsigned>(tbb::info::default_concurrency());
  std::uint64_t one_thread_hash = 0;
  {
    sim::CompiledTrace serial;
    timing.one_thread_seconds = timed_compile(reader, input.config, 1, serial);
    one_thread_hash = compiled_hash(serial);
  }
  timing.all_threads_seconds = timed_compile(reader, input.config, timing.threads, input.compiled);
  timing.identical = compiled_hash(input.compiled) == one_thread_hash;
  return input;
}

/// The compile line of a driver's output: rates on one thread and on all, and the bytes the
/// compiled trace keeps per transaction.
inline void print_compile(const Input& input) {
  const CompileTiming& t = input.compile;
  const auto transactions = static_cast<double>(input.compiled.transactions.size());
  std::printf("compile: %zu transactions in %.2f s on 1 thread, %.2f s on %u threads = speed-up "
              "%.2f (%s); %.1f bytes per transaction (compiled trace %.1f MB)\n",
              input.compiled.transactions.size(), t.one_thread_seconds, t.all_threads_seconds,
              t.threads, t.one_thread_seconds / t.all_threads_seconds,
              t.identical ? "identical results" : "RESULTS DIFFER",
              static_cast<double>(input.compiled.bytes()) / transactions,
              static_cast<double>(input.compiled.bytes()) / 1e6);
}

}  // namespace memcarlo::bench
