// `memcarlo synth --pattern P -o FILE [options]`: write a synthetic trace of a notional kernel with
// known memory behaviour (memcarlo::synth does the work; this file only parses arguments).
#include <CLI/CLI.hpp>

#include <chrono>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "memcarlo/synth/synth.hpp"

namespace memcarlo::cli {
namespace {

struct SynthArguments {
  synth::SynthOptions options;
  std::string output;
  // Pattern-specific values; an option counts as given only when it was on the command line.
  std::uint32_t blocks = 0;
  std::uint32_t iterations = 0;
  std::uint32_t stride = 0;
  std::string footprint;
  std::uint32_t nnz_per_row = 0;
  std::string matrix;
  std::uint32_t size = 0;
  std::uint32_t block_width = 0;
  std::string chain;
  std::uint64_t loop_stride = 0;
};

std::string patterns_help() {
  std::ostringstream out;
  out << "Patterns (each lists its own options, with defaults in parentheses):\n";
  for (const synth::PatternInfo& pattern : synth::patterns()) {
    out << "  " << pattern.name << ": " << pattern.description << "\n"
        << "      " << pattern.options << "\n";
  }
  out << "Each thread's accesses follow a notional CUDA listing recorded in the trace; "
         "docs/synth.md has\nthe loads tables and the known answers (hit ratios, transactions "
         "per request).\nAn option a pattern does not use is an error. The same options always "
         "give the same bytes.";
  return out.str();
}

void run(const SynthArguments& arguments, const CLI::App& command) {
  synth::SynthOptions options = arguments.options;
  if (command.count("--blocks") > 0) {
    options.blocks = arguments.blocks;
  }
  if (command.count("--iterations") > 0) {
    options.iterations = arguments.iterations;
  }
  if (command.count("--stride") > 0) {
    options.stride = arguments.stride;
  }
  if (command.count("--nnz-per-row") > 0) {
    options.nnz_per_row = arguments.nnz_per_row;
  }
  if (command.count("--size") > 0) {
    options.size = arguments.size;
  }
  if (command.count("--block-width") > 0) {
    options.block_width = arguments.block_width;
  }
  if (command.count("--footprint") > 0) {
    options.footprint = synth::parse_byte_count(arguments.footprint);
    if (!options.footprint) {
      throw UserError("--footprint: expected a byte count such as 8192, 16KiB or 4MiB, got '" +
                      arguments.footprint + "'");
    }
  }
  if (command.count("--chain") > 0) {
    options.chain = synth::parse_chain(arguments.chain);
    if (!options.chain) {
      throw UserError(
          "--chain: expected byte strides separated by commas such as "
          "-400,40400,-400, got '" +
          arguments.chain + "'");
    }
  }
  if (command.count("--loop-stride") > 0) {
    options.loop_stride = arguments.loop_stride;
  }
  if (command.count("--matrix") > 0) {
    options.matrix = synth::matrix_layout_from_string(arguments.matrix);
    if (!options.matrix) {
      throw UserError("--matrix must be random or block-diagonal, got '" + arguments.matrix + "'");
    }
  }
  if (arguments.output.empty()) {
    throw UserError("-o FILE is required: where to write the trace");
  }

  const auto start = std::chrono::steady_clock::now();
  synth::SynthSummary summary;
  try {
    summary = synth::generate(options, arguments.output);
  } catch (const synth::OptionError& e) {
    throw UserError(e.what(), 2);
  }
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  std::cout << "wrote " << arguments.output << " in " << elapsed.count() << " s\n"
            << "  " << summary.command << "\n"
            << "  " << summary.blocks << " blocks, " << summary.warp_streams << " warp streams, "
            << summary.records << " records, " << summary.lane_accesses << " lane accesses, "
            << summary.line_transactions << " transactions of " << synth::kTransactionLineBytes
            << "-byte lines\n";
}

}  // namespace

void add_synth_command(CLI::App& app) {
  auto* command = app.add_subcommand(
      "synth",
      "Write a synthetic trace (.mct) of a notional kernel with known memory behaviour, for "
      "what-if studies, tests and benchmarks");
  auto arguments = std::make_shared<SynthArguments>();
  command->add_option("--pattern", arguments->options.pattern,
                      "Access pattern: one of the patterns listed below");
  command->add_option("-o,--output", arguments->output, "Trace file to write");
  command->add_option("--blocks", arguments->blocks,
                      "Thread blocks (1D patterns: the grid; matmul, stencil2d: traced blocks of "
                      "the grid, default all); default 64");
  command->add_option("--threads", arguments->options.threads, "Threads per block, 1..1024")
      ->capture_default_str();
  command
      ->add_option("--elem-size", arguments->options.element_size,
                   "Bytes per element of the data arrays: 1, 2, 4, 8 or 16 (spmv's "
                   "rowIndices and indices stay 4-byte unsigned)")
      ->capture_default_str();
  command->add_option("--seed", arguments->options.seed, "Seed of gather and spmv randomness")
      ->capture_default_str();
  command->add_option("--iterations", arguments->iterations,
                      "stream, stride, gather: elements per thread; reuse: passes over the array");
  command->add_option("--stride", arguments->stride,
                      "stride: elements between neighbouring threads' reads (>= 1)");
  command->add_option("--footprint", arguments->footprint,
                      "gather, reuse: array size in bytes (suffixes K/KiB, M/MiB, G/GiB)");
  command->add_option("--nnz-per-row", arguments->nnz_per_row,
                      "spmv: average non-zeros per row (each row within +-25 %)");
  command->add_option("--matrix", arguments->matrix,
                      "spmv: random (columns anywhere) or block-diagonal (columns in the "
                      "diagonal block of the row)");
  command->add_option("--size", arguments->size,
                      "matmul: matrix dimension N; stencil2d: side of the N x N grid; rows: "
                      "elements per row");
  command->add_option("--block-width", arguments->block_width,
                      "matmul, stencil2d: blockDim.x (divides --threads; blockDim.y = threads / "
                      "width)");
  command->add_option("--chain", arguments->chain,
                      "chain: bytes between a thread's consecutive loads, comma-separated "
                      "(e.g. -400,40400,-400)");
  command->add_option("--loop-stride", arguments->loop_stride,
                      "chain: bytes the chain's first load advances per iteration");
  command->footer(patterns_help());
  command->callback([arguments, command] { run(*arguments, *command); });
}

}  // namespace memcarlo::cli
