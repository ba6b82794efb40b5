// Pattern "syrk": C = beta*C + A * A^T, PolyBench's SYRK without alpha: one thread per element of
// C, which it scales and then updates in a k loop (read and written every iteration, as PolyBench's
// kernel does), reading one array twice: A[i][k] (row i = blockIdx.y*blockDim.y + threadIdx.y: a
// row band that blockIdx.y moves, broadcast within a row of the block) and A[j][k] (row j =
// blockIdx.x*blockDim.x + threadIdx.x: a band that blockIdx.x moves, a thread per row).
#include <string>
#include <utility>

#include "index_forms.hpp"
#include "pattern.hpp"
#include "trace_builder.hpp"
#include "warp_walk.hpp"

namespace memcarlo::synth {
namespace {

const std::vector<std::string> kSyrkListing = {
    "template <class T>",
    "__global__ void syrk_naive(const T* A, T* C, T beta, unsigned N) {",
    "  unsigned i = blockIdx.y * blockDim.y + threadIdx.y;",
    "  unsigned j = blockIdx.x * blockDim.x + threadIdx.x;",
    "  if (i < N && j < N) {",
    "    C[i * N + j] *= beta;",
    "    for (unsigned k = 0; k < N; ++k)",
    "      C[i * N + j] += A[i * N + k] * A[j * N + k];",
    "  }",
    "}",
};

void resolve_syrk(Parameters& p) {
  resolve_grid2d(p, 1);
}

void generate_syrk(const Parameters& p, TraceBuilder& trace) {
  const Grid2d grid = grid2d(p);
  const std::uint64_t n = p.size;
  const std::uint64_t bytes = n * n * p.element_size;
  trace.set_kernel("syrk_naive", kSyrkListing);
  const std::uint32_t a = trace.add_array("A", bytes);
  const std::uint32_t c = trace.add_array("C", bytes);
  const std::vector<IndexTerm> i_n = {{1, {"N", "blockDim.y", "blockIdx.y"}},
                                      {1, {"N", "threadIdx.y"}}};
  const std::vector<IndexTerm> j_n = {{1, {"N", "blockDim.x", "blockIdx.x"}},
                                      {1, {"N", "threadIdx.x"}}};
  const IndexInduction k_loop{
      .variable = "k", .bound = {{1, {"N"}}}, .init_text = "0", .bound_text = "N"};
  std::vector<IndexTerm> row_terms = i_n;
  row_terms.push_back({1, {"k"}});
  std::vector<IndexTerm> column_terms = j_n;
  column_terms.push_back({1, {"k"}});
  std::vector<IndexTerm> c_terms = i_n;
  c_terms.push_back({1, {"blockDim.x", "blockIdx.x"}});
  c_terms.push_back({1, {"threadIdx.x"}});
  trace.add_kernel_argument("N", static_cast<std::int64_t>(n));
  const auto c_access = [&](std::string expression, tracebuf::AccessKind kind,
                            std::uint32_t line, std::uint32_t sequence, bool in_loop) {
    return trace.add_access(
        {.line = line,
         .expression = std::move(expression),
         .index_json = in_loop ? index_form("affine", "C", "i*N + j", c_terms, 0, {k_loop})
                               : index_form("affine", "C", "i*N + j", c_terms, 0),
         .kind = kind,
         .array = c,
         .element_size = p.element_size,
         .loop_depth = in_loop ? 1u : 0u,
         .sequence = sequence});
  };
  const std::uint32_t c_scale_read =
      c_access("C[i * N + j]", tracebuf::AccessKind::kRead, 6, 0, false);
  const std::uint32_t c_scale_write =
      c_access("C[i * N + j]", tracebuf::AccessKind::kWrite, 6, 1, false);
  const std::uint32_t row_read = trace.add_access(
      {.line = 8,
       .expression = "A[i * N + k]",
       .index_json = index_form("affine", "A", "i*N + k", row_terms, 0, {k_loop}),
       .array = a,
       .element_size = p.element_size,
       .loop_depth = 1,
       .sequence = 2});
  const std::uint32_t column_read = trace.add_access(
      {.line = 8,
       .expression = "A[j * N + k]",
       .index_json = index_form("affine", "A", "j*N + k", column_terms, 0, {k_loop}),
       .array = a,
       .element_size = p.element_size,
       .loop_depth = 1,
       .sequence = 2});
  const std::uint32_t c_read = c_access("C[i * N + j]", tracebuf::AccessKind::kRead, 8, 2, true);
  const std::uint32_t c_write =
      c_access("C[i * N + j]", tracebuf::AccessKind::kWrite, 8, 3, true);
  set_grid2d_launch(grid, p.blocks, trace);
  trace.begin();

  const std::uint64_t a_base = trace.base(a);
  const std::uint64_t c_base = trace.base(c);
  const auto inside_c = [n](std::uint64_t i, std::uint64_t j) { return i < n && j < n; };
  for_each_warp_2d(p, grid, trace, inside_c, [&](const Warp2d& warp) {
    const auto c_address = [&](std::uint32_t lane) {
      return c_base + (warp.rows[lane] * n + warp.columns[lane]) * p.element_size;
    };
    add_lane_record(trace, c_scale_read, warp.active, c_address);
    add_lane_record(trace, c_scale_write, warp.active, c_address);
    for (std::uint64_t k = 0; k < n; ++k) {
      add_lane_record(trace, row_read, warp.active, [&](std::uint32_t lane) {
        return a_base + (warp.rows[lane] * n + k) * p.element_size;
      });
      add_lane_record(trace, column_read, warp.active, [&](std::uint32_t lane) {
        return a_base + (warp.columns[lane] * n + k) * p.element_size;
      });
      add_lane_record(trace, c_read, warp.active, c_address);
      add_lane_record(trace, c_write, warp.active, c_address);
    }
  });
}

}  // namespace

const PatternDefinition& syrk_pattern() {
  static const PatternDefinition definition = {
      .info = {.name = "syrk",
               .description = "PolyBench's C = beta*C + A*A^T, one thread per C element, C updated "
                              "in the k loop; one array read twice: A[i][k] broadcast within a "
                              "row of the block, A[j][k] a row per thread",
               .options = "--size N (128): matrix dimension; --block-width W (32): blockDim.x, "
                          "blockDim.y = threads / W; --blocks: traced blocks of the grid (all)"},
      .options = kUsesSize | kUsesBlockWidth,
      .defaults = {.blocks = 0, .size = 128, .block_width = 32},
      .resolve = &resolve_syrk,
      .generate = &generate_syrk,
  };
  return definition;
}

}  // namespace memcarlo::synth
