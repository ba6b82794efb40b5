// What the benchmark drivers share: their default input, issue 2's ~10M-transaction scalar CSR
// SpMV trace (424 blocks of 256 threads, 32 non-zeros per row on average, columns anywhere),
// and the parsing of their numeric options.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>

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

}  // namespace memcarlo::bench
