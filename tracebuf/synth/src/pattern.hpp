// The interface between the pattern registry and the pattern files: resolved parameters, the
// definition each pattern exports, and small helpers shared by the generators.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "memcarlo/synth/synth.hpp"
#include "memcarlo/tracebuf/format.hpp"

namespace memcarlo::synth {

class TraceBuilder;

/// The pattern-specific options a pattern accepts (a bit set).
enum OptionBit : std::uint32_t {
  kUsesIterations = 1u << 0,
  kUsesStride = 1u << 1,
  kUsesFootprint = 1u << 2,
  kUsesNnzPerRow = 1u << 3,
  kUsesMatrix = 1u << 4,
  kUsesSize = 1u << 5,
  kUsesBlockWidth = 1u << 6,
  kUsesChain = 1u << 7,
  kUsesLoopStride = 1u << 8,
};

/// SynthOptions with every default applied: what a generator reads. Fields of options the pattern
/// does not use keep the values of its definition's defaults and are not recorded.
struct Parameters {
  std::string pattern{};
  std::uint32_t blocks = 0;  // traced blocks; 0 in a definition's defaults = "the whole grid"
  std::uint32_t threads = 256;
  std::uint32_t element_size = 4;
  std::uint64_t seed = 1;
  std::uint32_t iterations = 1;
  std::uint32_t stride = 1;
  std::uint64_t footprint = 0;
  std::uint32_t nnz_per_row = 1;
  MatrixLayout matrix = MatrixLayout::kRandom;
  std::uint32_t size = 0;
  std::uint32_t block_width = 32;
  std::vector<std::int64_t> chain{};  // chain: bytes between consecutive loads
  std::uint64_t loop_stride = 0;      // chain: bytes per loop iteration
};

/// What a pattern file exports; the registry (registry.cpp) lists one per pattern.
///
/// Contract: `resolve` runs after the common checks (threads, elem-size, blocks range, unused
/// options) and before anything is written; it throws OptionError for bad values and may fill
/// defaults that depend on other parameters (e.g. blocks = the whole grid). `generate` declares
/// arrays, accesses and the launch on the builder, calls begin(), then emits each traced warp's
/// records in program order, warps in (block, warp) order. It must be deterministic in the
/// parameters: all randomness comes from keyed hashes of the seed (random.hpp).
struct PatternDefinition {
  PatternInfo info;
  std::uint32_t options = 0;  // OptionBit set
  Parameters defaults;
  void (*resolve)(Parameters& parameters) = nullptr;
  void (*generate)(const Parameters& parameters, TraceBuilder& trace) = nullptr;
};

const PatternDefinition& stream_pattern();
const PatternDefinition& stride_pattern();
const PatternDefinition& gather_pattern();
const PatternDefinition& reuse_pattern();
const PatternDefinition& spmv_pattern();
const PatternDefinition& matmul_pattern();
const PatternDefinition& syrk_pattern();
const PatternDefinition& stencil2d_pattern();
const PatternDefinition& chain_pattern();
const PatternDefinition& rows_pattern();

inline std::uint32_t warps_per_block(std::uint32_t threads) {
  return (threads + tracebuf::kWarpSize - 1) / tracebuf::kWarpSize;
}

/// Lanes of `warp` that exist in a block of `threads` threads (the last warp may be partial).
inline std::uint32_t existing_lanes_mask(std::uint32_t threads, std::uint32_t warp) {
  const std::uint32_t lanes = threads - warp * tracebuf::kWarpSize;
  return lanes >= tracebuf::kWarpSize ? 0xFFFFFFFFu : (1u << lanes) - 1;
}

/// a * b, throwing OptionError with `what` when the product overflows 64 bits.
std::uint64_t checked_multiply(std::uint64_t a, std::uint64_t b, const char* what);

/// Rejects arrays beyond kMaxArrayBytes with a message naming the options that size them.
void check_array_size(std::uint64_t bytes, const char* array, const char* sized_by);
inline constexpr std::uint64_t kMaxArrayBytes = std::uint64_t{1} << 40;  // 1 TiB

/// The 2D launch of matmul and stencil2d: blocks of block_width x (threads / block_width)
/// threads tiling a size x size domain, block ids linear with x fastest (CUDA's order).
struct Grid2d {
  std::uint32_t block_x = 0, block_y = 0;
  std::uint32_t grid_x = 0, grid_y = 0;
  [[nodiscard]] std::uint64_t blocks() const { return std::uint64_t{grid_x} * grid_y; }
};
Grid2d grid2d(const Parameters& parameters);
/// Declares the launch of `grid`, `traced_blocks` of it traced, and records its shape as facts.
void set_grid2d_launch(const Grid2d& grid, std::uint64_t traced_blocks, TraceBuilder& trace);
/// Checks size (>= minimum_size), block_width and blocks for a 2D pattern and sets blocks to the
/// whole grid when it is 0 (unset).
void resolve_grid2d(Parameters& parameters, std::uint32_t minimum_size);

}  // namespace memcarlo::synth
