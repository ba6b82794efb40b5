// The transpose problem shared by transpose_naive.cu and transpose_tiled.cu: options, the input
// matrix, the block shape both kernels use, and the check of the result.
#pragma once

#include <cstddef>
#include <cstdio>
#include <vector>

#include "../common/example_support.h"

namespace transpose {

// Both kernels move a 32×32 tile per block with 32×8 threads, each thread handling 4 rows of the
// tile: a warp reads one 128-byte row segment at a time, and the two kernels differ only in how
// they write.
constexpr unsigned kTileSide = 32;
constexpr unsigned kBlockRows = 8;

// The input is rows×cols, the output cols×rows; both row-major.
struct Options {
  unsigned rows = 512;
  unsigned cols = 384;
  unsigned seed = 1;
};

// Exits with a usage message on bad arguments (see example::parse_flags).
inline Options parse_options(int argc, char** argv) {
  Options options;
  // At most 2^14 a side, so that an element index fits in 32 bits.
  example::parse_flags(
      argc, argv,
      {example::Flag::whole_number("--rows", &options.rows, 1, 1u << 14, "rows of the input"),
       example::Flag::whole_number("--cols", &options.cols, 1, 1u << 14, "columns of the input"),
       example::Flag::whole_number("--seed", &options.seed, 0, ~0u, "seed of the input")});
  return options;
}

inline std::vector<float> random_matrix(const Options& options) {
  example::Random random(options.seed);
  std::vector<float> matrix(std::size_t{options.rows} * options.cols);
  for (float& element : matrix) {
    element = random.uniform(-1.0f, 1.0f);
  }
  return matrix;
}

#if EXAMPLE_LOCALITY_DESCRIPTORS
// Locality Descriptors (ISCA'18). Block (bx, by) reads the 32×32 tile (bx, by) of `in` (X = its
// columns) once: NO-REUSE, one D-Tile per C-Tile of one block, traversed X → Y alike; a thread
// steps kBlockRows rows. It writes tile (by, bx) of `out` (X = out's columns, the input's rows),
// each thread 4 elements kBlockRows apart in one 128-byte line and the block's 8 warps the same
// 32 lines: INTER-THREAD, COACCESSED; out's D-Tiles go X → Y as the grid goes Y → X (map
// (2, 1, 3)).
// Only described when the tiles divide the matrix (a descriptor's tiles must).
inline void describe_locality(const Options& options, const float* in, const float* out) {
  if (options.rows % kTileSide != 0 || options.cols % kTileSide != 0) {
    return;
  }
  const std::size_t bytes = std::size_t{options.rows} * options.cols * sizeof(float);
  LocalityDescriptor in_ldesc(in, bytes, NO_REUSE,
                              Tile_t(dim3(kTileSide, kTileSide, 1), dim3(1, 1, 1), dim3(1, 2, 3)),
                              LocalitySemantics_t(COACCESSED, REGULAR, kBlockRows * options.cols),
                              1, dim3(options.cols, options.rows, 1), "in");
  LocalityDescriptor out_ldesc(
      out, bytes, INTER_THREAD, Tile_t(dim3(kTileSide, kTileSide, 1), dim3(1, 1, 1), dim3(2, 1, 3)),
      LocalitySemantics_t(COACCESSED, REGULAR, kBlockRows), 2,
      dim3(options.rows, options.cols, 1), "out");
}
#endif

// A transpose only moves values, so the comparison is exact. Prints "<name>: OK" or
// "<name>: FAILED ..." and returns the process exit code.
inline int check_transpose(const char* name, const Options& options, const std::vector<float>& in,
                           const std::vector<float>& out) {
  for (unsigned row = 0; row < options.rows; ++row) {
    for (unsigned col = 0; col < options.cols; ++col) {
      const float expected = in[std::size_t{row} * options.cols + col];
      const float actual = out[std::size_t{col} * options.rows + row];
      if (actual != expected) {
        std::printf("%s: FAILED out[%u][%u] = %.7g, expected in[%u][%u] = %.7g\n", name, col, row,
                    double(actual), row, col, double(expected));
        return 1;
      }
    }
  }
  std::printf("%s: OK\n", name);
  return 0;
}

}  // namespace transpose
