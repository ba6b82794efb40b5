// Pattern "matmul": naive C = A * B, one thread per element of C, k loop reading A[row][k] (the
// same address for every lane of a warp on one row: a broadcast) and B[k][col] (coalesced).
#include "index_forms.hpp"
#include "pattern.hpp"
#include "trace_builder.hpp"
#include "warp_walk.hpp"

namespace memcarlo::synth {
namespace {

const std::vector<std::string> kListing = {
    "template <class T>",
    "__global__ void matmul_naive(const T* A, const T* B, T* C, unsigned N) {",
    "  unsigned row = blockIdx.y * blockDim.y + threadIdx.y;",
    "  unsigned col = blockIdx.x * blockDim.x + threadIdx.x;",
    "  if (row < N && col < N) {",
    "    T sum = 0;",
    "    for (unsigned k = 0; k < N; ++k)",
    "      sum += A[row * N + k] * B[k * N + col];",
    "    C[row * N + col] = sum;",
    "  }",
    "}",
};

void resolve(Parameters& p) {
  resolve_grid2d(p, 1);
}

void generate(const Parameters& p, TraceBuilder& trace) {
  const Grid2d grid = grid2d(p);
  const std::uint64_t n = p.size;
  const std::uint64_t bytes = n * n * p.element_size;
  trace.set_kernel("matmul_naive", kListing);
  const std::uint32_t a = trace.add_array("A", bytes);
  const std::uint32_t b = trace.add_array("B", bytes);
  const std::uint32_t c = trace.add_array("C", bytes);
  // Index forms (row = blockIdx.y*blockDim.y + threadIdx.y, col = blockIdx.x*blockDim.x +
  // threadIdx.x), all TID_DEP: A and B over the loop k = 0, 1, ... < N.
  const std::vector<IndexTerm> row_n = {{1, {"N", "blockDim.y", "blockIdx.y"}},
                                        {1, {"N", "threadIdx.y"}}};
  const std::vector<IndexTerm> column_terms = {{1, {"blockDim.x", "blockIdx.x"}},
                                               {1, {"threadIdx.x"}}};
  const IndexInduction k_loop{
      .variable = "k", .bound = {{1, {"N"}}}, .init_text = "0", .bound_text = "N"};
  std::vector<IndexTerm> a_terms = row_n;
  a_terms.push_back({1, {"k"}});
  std::vector<IndexTerm> b_terms = column_terms;
  b_terms.push_back({1, {"N", "k"}});
  std::vector<IndexTerm> c_terms = row_n;
  c_terms.insert(c_terms.end(), column_terms.begin(), column_terms.end());
  trace.add_kernel_argument("N", static_cast<std::int64_t>(n));
  // A and B of one k issue back to back; the back-edge ends the sequence; the store is the last.
  const std::uint32_t a_read =
      trace.add_access({.line = 8,
                        .expression = "A[row * N + k]",
                        .index_json = index_form("affine", "A", "row*N + k", a_terms, 0, {k_loop}),
                        .array = a,
                        .element_size = p.element_size,
                        .loop_depth = 1,
                        .sequence = 0});
  const std::uint32_t b_read =
      trace.add_access({.line = 8,
                        .expression = "B[k * N + col]",
                        .index_json = index_form("affine", "B", "k*N + col", b_terms, 0, {k_loop}),
                        .array = b,
                        .element_size = p.element_size,
                        .loop_depth = 1,
                        .sequence = 0});
  const std::uint32_t c_write =
      trace.add_access({.line = 9,
                        .expression = "C[row * N + col]",
                        .index_json = index_form("affine", "C", "row*N + col", c_terms, 0),
                        .kind = tracebuf::AccessKind::kWrite,
                        .array = c,
                        .element_size = p.element_size,
                        .loop_depth = 0,
                        .sequence = 1});
  set_grid2d_launch(grid, p.blocks, trace);
  trace.begin();

  const std::uint64_t a_base = trace.base(a);
  const std::uint64_t b_base = trace.base(b);
  const std::uint64_t c_base = trace.base(c);
  // Threads outside C make no access.
  const auto inside_c = [n](std::uint64_t row, std::uint64_t col) { return row < n && col < n; };
  for_each_warp_2d(p, grid, trace, inside_c, [&](const Warp2d& warp) {
    for (std::uint64_t k = 0; k < n; ++k) {
      add_lane_record(trace, a_read, warp.active, [&](std::uint32_t lane) {
        return a_base + (warp.rows[lane] * n + k) * p.element_size;
      });
      add_lane_record(trace, b_read, warp.active, [&](std::uint32_t lane) {
        return b_base + (k * n + warp.columns[lane]) * p.element_size;
      });
    }
    add_lane_record(trace, c_write, warp.active, [&](std::uint32_t lane) {
      return c_base + (warp.rows[lane] * n + warp.columns[lane]) * p.element_size;
    });
  });
}

}  // namespace

const PatternDefinition& matmul_pattern() {
  static const PatternDefinition definition = {
      .info = {.name = "matmul",
               .description = "naive C = A*B, one thread per C element; A[row][k] broadcast "
                              "within a row of the block, B[k][col] coalesced",
               .options = "--size N (128): matrix dimension; --block-width W (32): blockDim.x, "
                          "blockDim.y = threads / W; --blocks: traced blocks of the grid (all)"},
      .options = kUsesSize | kUsesBlockWidth,
      .defaults = {.blocks = 0, .size = 128, .block_width = 32},
      .resolve = &resolve,
      .generate = &generate,
  };
  return definition;
}

}  // namespace memcarlo::synth
