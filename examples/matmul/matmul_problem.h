// The matrix-multiply problem shared by matmul_naive.cu and matmul_tiled.cu: options, the random
// input matrices, and the check of C = A·B against a CPU reference.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <vector>

#include "../common/example_support.h"

namespace matmul {

// C is m×n, A is m×k, B is k×n; all row-major.
struct Options {
  unsigned m = 128;
  unsigned n = 128;
  unsigned k = 128;
  unsigned seed = 1;
};

// Exits with a usage message on bad arguments (see example::parse_flags).
inline Options parse_options(int argc, char** argv) {
  Options options;
  example::parse_flags(
      argc, argv,
      {example::Flag::whole_number("--m", &options.m, 1, 4096, "rows of A and C"),
       example::Flag::whole_number("--n", &options.n, 1, 4096, "columns of B and C"),
       example::Flag::whole_number("--k", &options.k, 1, 4096, "columns of A, rows of B"),
       example::Flag::whole_number("--seed", &options.seed, 0, ~0u, "seed of the inputs")});
  return options;
}

inline std::vector<float> random_matrix(unsigned rows, unsigned cols, example::Random* random) {
  std::vector<float> matrix(std::size_t{rows} * cols);
  for (float& element : matrix) {
    element = random->uniform(-1.0f, 1.0f);
  }
  return matrix;
}

// Compares c with A·B computed in double precision and prints "<name>: OK" or "<name>: FAILED
// ...". Returns the process exit code. A float dot product of k terms is within about
// k·2⁻²⁴·Σ|a·b| of the exact value, in any order and with or without fused multiply-adds
// (Higham's γ_k bound); twice that still rejects a dropped or repeated term.
inline int check_product(const char* name, const Options& options, const std::vector<float>& a,
                         const std::vector<float>& b, const std::vector<float>& c) {
  const double relative_tolerance = 2.0 * options.k * std::ldexp(1.0, -24);
  for (unsigned row = 0; row < options.m; ++row) {
    for (unsigned col = 0; col < options.n; ++col) {
      double exact = 0;
      double magnitude = 0;
      for (unsigned i = 0; i < options.k; ++i) {
        const double product = double(a[std::size_t{row} * options.k + i]) *
                               double(b[std::size_t{i} * options.n + col]);
        exact += product;
        magnitude += std::fabs(product);
      }
      const double computed = c[std::size_t{row} * options.n + col];
      const double tolerance = relative_tolerance * magnitude + 1e-6;
      if (!(std::fabs(computed - exact) <= tolerance)) {
        std::printf("%s: FAILED c[%u][%u] = %.7g, expected %.7g (tolerance %.3g)\n", name, row, col,
                    computed, exact, tolerance);
        return 1;
      }
    }
  }
  std::printf("%s: OK\n", name);
  return 0;
}

}  // namespace matmul
