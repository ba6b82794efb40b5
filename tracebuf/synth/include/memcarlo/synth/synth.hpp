// Synthetic traces: notional CUDA kernels with known memory behaviour (stream, stride, gather,
// reuse, spmv, matmul, stencil2d), written as complete traces for what-if studies and tests.
//
// Every trace is self-describing: a loads table with one entry per static access of a notional
// listing (file "synthetic/<pattern>.cu", the listing itself is in meta.properties_json), one
// allocation per array (256-byte aligned, non-overlapping), one launch whose snapshot covers every
// generated block, per-warp records in program order, and meta.properties_json recording the
// pattern, its resolved parameters and derived facts (e.g. the number of non-zeros of spmv).
// The same options always give a byte-identical file. docs/synth.md has the loads tables.
//
// Known answers the engine tests rely on (128-byte lines, lines never shared between arrays):
//  - stream: every read is a compulsory miss (each line is touched by exactly one warp
//    instruction), and with 32 lanes x elem-size <= 128 one transaction per request.
//  - stride K: the lanes of a full warp are K * elem-size bytes apart and a warp's first lane is
//    32 * K * elem-size aligned, so a request touches 32 * K * elem-size / 128 lines when that is a
//    whole number <= 32 (K = 2 with 4-byte floats: 2 transactions per request), 32 once
//    K * elem-size >= 128.
//  - reuse: assume threads a multiple of 32 and a footprint a multiple of 128 bytes (the defaults).
//    The array has L = footprint / 128 lines, line-aligned. A warp request reads 32 consecutive
//    elements (32 * elem-size bytes, whole lines or a quarter/half of one), so each warp touches
//    each line r = max(1, 4 / elem-size) times per pass (r = 1 for 4-byte elements). An SM that
//    runs b blocks of w = threads / 32 warps for P = --iterations passes reads each line
//        n = b * w * P * r
//    times. If the array stays in the L1 (footprint <= L1 size; consecutive lines spread evenly
//    over the sets), only the first of those n reads misses: that SM's L1 hit ratio is (n - 1) / n.
//    Over the whole trace of B blocks on S SMs, H1 = 1 - min(B, S) / (B * w * P * r), which is
//    (n - 1) / n with n = B * w * P * r / S when S divides B. A read of a line whose fill is still
//    in flight counts as a hit here. The kernel has no store, so nothing else competes for the L1
//    whatever the store policy. Example: --blocks 56 and the other defaults (256 threads = 8
//    warps, 4 passes, 4-byte floats, 8 KiB) on the 14 SMs of a C2050: b = 4, n = 4 * 8 * 4 = 128,
//    H1 = 127/128; with the default 64 blocks, H1 = 1 - 14 / 2048.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace memcarlo::synth {

/// Where the non-zeros of an spmv row lie: anywhere in the row, or inside the diagonal block.
enum class MatrixLayout { kRandom, kBlockDiagonal };
/// "random", "block-diagonal".
std::string_view to_string(MatrixLayout layout);
std::optional<MatrixLayout> matrix_layout_from_string(std::string_view text);

/// What to generate. Unset optional fields take the pattern's default; setting one the pattern
/// does not use is an error (so a typo in a sweep script does not pass silently).
struct SynthOptions {
  std::string pattern;
  std::optional<std::uint32_t> blocks;  // 1D patterns: grid size; 2D: traced blocks of the grid
  std::uint32_t threads = 256;          // per block, 1..1024
  std::uint32_t element_size = 4;       // bytes: 1, 2, 4, 8 or 16
  std::uint64_t seed = 1;
  std::optional<std::uint32_t> iterations;   // stream, stride, gather: per thread; reuse: passes
  std::optional<std::uint32_t> stride;       // stride: elements between neighbouring threads
  std::optional<std::uint64_t> footprint;    // gather, reuse: array size in bytes
  std::optional<std::uint32_t> nnz_per_row;  // spmv: average non-zeros per row
  std::optional<MatrixLayout> matrix;        // spmv
  std::optional<std::uint32_t> size;         // matmul: matrix dimension; stencil2d: grid side
  std::optional<std::uint32_t> block_width;  // matmul, stencil2d: blockDim.x (divides threads)
  std::optional<std::vector<std::int64_t>> chain;  // chain: bytes between consecutive loads
  std::optional<std::uint64_t> loop_stride;        // chain: bytes per loop iteration
};

/// "-400,40400,-400" as its strides, or nothing when it is not a comma-separated list of
/// integers.
std::optional<std::vector<std::int64_t>> parse_chain(std::string_view text);

/// One entry of the pattern registry, for listings and --help.
struct PatternInfo {
  std::string_view name;
  std::string_view description;  // one line
  std::string_view options;      // the pattern-specific options it uses, with their defaults
};
/// All patterns, in registry order.
std::span<const PatternInfo> patterns();

/// A bad option value. what() names the option as spelled on the command line and what was
/// expected, e.g. "--threads must be between 1 and 1024, got 0".
class OptionError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// What generate() wrote.
struct SynthSummary {
  std::string command;  // the canonical `memcarlo synth ...` line with every default resolved
  std::uint64_t blocks = 0;
  std::uint64_t warp_streams = 0;
  std::uint64_t records = 0;
  std::uint64_t lane_accesses = 0;  // active lanes summed over all records
  /// 128-byte lines touched, summed over records (one warp instruction touching k distinct lines
  /// counts k): the L1 transactions of a simulator with 128-byte lines.
  std::uint64_t line_transactions = 0;
};
inline constexpr std::uint64_t kTransactionLineBytes = 128;

/// Checks `options` without writing anything. Throws OptionError.
void validate(const SynthOptions& options);
/// The canonical command line for `options` (validated first; throws OptionError).
std::string canonical_command(const SynthOptions& options);
/// Validates `options` and writes the trace to `output_path`, one warp at a time (memory stays
/// bounded by one warp's records). Throws OptionError, or tracebuf::TraceError on I/O failure.
SynthSummary generate(const SynthOptions& options, const std::string& output_path);

/// Parses a byte count: "4096", "16KiB", "16K", "4MiB", "4M", "1GiB", "1G" (binary multiples).
/// nullopt for anything else or on overflow.
std::optional<std::uint64_t> parse_byte_count(std::string_view text);

}  // namespace memcarlo::synth
