// The SpMV problem shared by spmv_scalar.cu and spmv_vector.cu: command-line options, the four
// matrix kinds of the paper's case study (PPoPP'12 §6.2), the CPU reference and the result check.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <vector>

#include "../common/example_support.h"

namespace spmv {

// The paper's four inputs: u/b have about 32 non-zeros per row, U/B about 128; u/U place them at
// random across the whole row, b/B inside the diagonal block that holds the row.
struct MatrixKind {
  char letter;
  unsigned average_nonzeros_per_row;
  bool block_diagonal;
};

// `letter` is one of u, b, U, B; parse_options has checked it.
inline MatrixKind matrix_kind_from_letter(char letter) {
  const bool long_rows = letter == 'U' || letter == 'B';
  const bool block_diagonal = letter == 'b' || letter == 'B';
  return MatrixKind{letter, long_rows ? 128u : 32u, block_diagonal};
}

// Width of the diagonal blocks of b/B. Wide enough for the longest row of B (160 non-zeros) and
// small enough that the 32 rows of a warp share a few cache lines of y, which is what makes y
// cheap in the block-diagonal case.
constexpr unsigned kDiagonalBlockWidth = 256;

// A square CSR matrix with the paper's array names: row r holds the non-zeros
// rowIndices[r] .. rowIndices[r+1]-1, column indices[j] and value val[j].
struct CsrMatrix {
  unsigned num_rows = 0;
  std::vector<unsigned> rowIndices;
  std::vector<unsigned> indices;
  std::vector<float> val;
};

// Row lengths vary uniformly by ±25 % around the average so that the threads of a warp finish at
// different times and rows start at every alignment (which the vectorized kernel must handle).
// Columns within a row are distinct and sorted, as CSR producers usually leave them.
inline CsrMatrix generate_matrix(const MatrixKind& kind, unsigned num_rows, unsigned seed) {
  example::Random random(seed);
  CsrMatrix matrix;
  matrix.num_rows = num_rows;
  matrix.rowIndices.reserve(num_rows + 1);
  matrix.rowIndices.push_back(0);
  const unsigned spread = kind.average_nonzeros_per_row / 4;
  std::vector<unsigned> row_columns;
  for (unsigned row = 0; row < num_rows; ++row) {
    unsigned first_column = 0;
    unsigned column_range = num_rows;
    if (kind.block_diagonal) {
      first_column = row / kDiagonalBlockWidth * kDiagonalBlockWidth;
      column_range = std::min(kDiagonalBlockWidth, num_rows - first_column);
    }
    unsigned row_length = kind.average_nonzeros_per_row - spread + random.below(2 * spread + 1);
    row_length = std::min(row_length, column_range);

    row_columns.clear();
    while (row_columns.size() < row_length) {
      // Draw the missing columns, then drop duplicates: a few rounds at most, even for B's rows,
      // which fill up to 160 of their 256 columns.
      while (row_columns.size() < row_length) {
        row_columns.push_back(first_column + random.below(column_range));
      }
      std::sort(row_columns.begin(), row_columns.end());
      row_columns.erase(std::unique(row_columns.begin(), row_columns.end()), row_columns.end());
    }
    for (unsigned column : row_columns) {
      matrix.indices.push_back(column);
      matrix.val.push_back(random.uniform(-1.0f, 1.0f));
    }
    matrix.rowIndices.push_back(static_cast<unsigned>(matrix.indices.size()));
  }
  return matrix;
}

inline std::vector<float> generate_vector(unsigned length, unsigned seed) {
  example::Random random(seed ^ 0x5DEECE66Dull);  // a stream independent of the matrix's
  std::vector<float> vector(length);
  for (float& element : vector) {
    element = random.uniform(-1.0f, 1.0f);
  }
  return vector;
}

// x = A·y in double precision; magnitude[r] = Σ|val·y| over row r bounds the float rounding error
// of any summation order, so the check can scale its tolerance per row.
inline void reference_spmv(const CsrMatrix& matrix, const std::vector<float>& y,
                           std::vector<double>* x, std::vector<double>* magnitude) {
  x->assign(matrix.num_rows, 0.0);
  magnitude->assign(matrix.num_rows, 0.0);
  for (unsigned row = 0; row < matrix.num_rows; ++row) {
    for (unsigned j = matrix.rowIndices[row]; j < matrix.rowIndices[row + 1]; ++j) {
      const double product = double(matrix.val[j]) * double(y[matrix.indices[j]]);
      (*x)[row] += product;
      (*magnitude)[row] += std::fabs(product);
    }
  }
}

// Prints "<name>: OK" or "<name>: FAILED ..." and returns the process exit code. A float sum of
// n terms is off by at most about n·2⁻²⁴·Σ|terms|; 1e-4·Σ|terms| leaves room for n ≤ 160 and any
// order or fused multiply-adds, while a dropped or repeated non-zero is still far outside it.
inline int check_result(const char* name, const std::vector<float>& x,
                        const std::vector<double>& expected, const std::vector<double>& magnitude) {
  for (std::size_t row = 0; row < expected.size(); ++row) {
    const double tolerance = 1e-4 * magnitude[row] + 1e-6;
    if (!(std::fabs(double(x[row]) - expected[row]) <= tolerance)) {
      std::printf("%s: FAILED x[%zu] = %.7g, expected %.7g (tolerance %.3g)\n", name, row,
                  double(x[row]), expected[row], tolerance);
      return 1;
    }
  }
  std::printf("%s: OK\n", name);
  return 0;
}

struct Options {
  MatrixKind matrix_kind;
  unsigned num_rows;
  unsigned seed;
};

// Exits with a usage message on bad arguments (see example::parse_flags).
inline Options parse_options(int argc, char** argv) {
  char matrix_letter = 'u';
  Options options{{}, 4096, 1};
  example::parse_flags(
      argc, argv,
      {example::Flag::one_letter_of("--matrix", &matrix_letter, "ubUB",
                                    "non-zeros per row: u ~32 at random columns, b ~32 block "
                                    "diagonal, U ~128 random, B ~128 block diagonal"),
       // At most 2^24 rows, so that 160 non-zeros per row still fit unsigned offsets.
       example::Flag::whole_number("--rows", &options.num_rows, 1, 1u << 24,
                                   "rows and columns of the matrix"),
       example::Flag::whole_number("--seed", &options.seed, 0, ~0u,
                                   "seed of the matrix and vector generator")});
  options.matrix_kind = matrix_kind_from_letter(matrix_letter);
  return options;
}

#if EXAMPLE_LOCALITY_DESCRIPTORS
// Locality Descriptors (ISCA'18) of the CSR product, for a grid of `num_blocks` blocks. Rows are
// data-dependent ranges of the non-zeros, so no tile finer than the grid describes them: one
// C-Tile (the grid) and one D-Tile (the whole structure) each. y is gathered by every block at
// data-dependent places: INTER-THREAD, COACCESSED, IRREGULAR (worth keeping in the L1, highest
// priority). The non-zeros (indices, val): the scalar kernel's thread walks its own row through
// the same lines (INTRA-THREAD); the vector kernel's warp reads a row once, coalesced
// (NO-REUSE). rowIndices: a thread reads its neighbour's entry too (INTER-THREAD, NEARBY). x is
// written once (NO-REUSE).
inline void describe_locality(unsigned num_blocks, bool thread_per_row, unsigned num_rows,
                              std::size_t num_nonzeros, const unsigned* row_indices,
                              const unsigned* indices, const float* val, const float* y,
                              const float* x) {
  const dim3 grid(num_blocks, 1, 1), whole_grid_map(1, 2, 3);
  const auto whole = [&](auto* data, std::size_t count, memcarlo_locality_type type,
                         const LocalitySemantics_t& semantics, unsigned priority,
                         const char* name) {
    LocalityDescriptor(data, count * sizeof(*data), type,
                       Tile_t(dim3(static_cast<unsigned>(count), 1, 1), grid, whole_grid_map),
                       semantics, priority, dim3(static_cast<unsigned>(count), 1, 1), name);
  };
  const memcarlo_locality_type nonzeros = thread_per_row ? INTRA_THREAD : NO_REUSE;
  whole(y, num_rows, INTER_THREAD, LocalitySemantics_t(COACCESSED, IRREGULAR), 3, "y");
  whole(indices, num_nonzeros, nonzeros, LocalitySemantics_t(COACCESSED, IRREGULAR), 2,
        "indices");
  whole(val, num_nonzeros, nonzeros, LocalitySemantics_t(COACCESSED, IRREGULAR), 2, "val");
  whole(row_indices, num_rows + 1, INTER_THREAD, LocalitySemantics_t(NEARBY, REGULAR, 1), 1,
        "rowIndices");
  whole(x, num_rows, NO_REUSE, LocalitySemantics_t(COACCESSED, IRREGULAR), 1, "x");
}
#endif

}  // namespace spmv
