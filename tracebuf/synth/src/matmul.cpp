// Pattern "matmul": naive C = A * B, one thread per element of C, k loop reading A[row][k] (the
// same address for every lane of a warp on one row: a broadcast) and B[k][col] (coalesced).
#include "pattern.hpp"
#include "trace_builder.hpp"

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
  // A and B of one k issue back to back; the back-edge ends the sequence; the store is the last.
  const std::uint32_t a_read = trace.add_access({.line = 8,
                                                 .expression = "A[row * N + k]",
                                                 .array = a,
                                                 .element_size = p.element_size,
                                                 .loop_depth = 1,
                                                 .sequence = 0});
  const std::uint32_t b_read = trace.add_access({.line = 8,
                                                 .expression = "B[k * N + col]",
                                                 .array = b,
                                                 .element_size = p.element_size,
                                                 .loop_depth = 1,
                                                 .sequence = 0});
  const std::uint32_t c_write = trace.add_access({.line = 9,
                                                  .expression = "C[row * N + col]",
                                                  .kind = tracebuf::AccessKind::kWrite,
                                                  .array = c,
                                                  .element_size = p.element_size,
                                                  .loop_depth = 0,
                                                  .sequence = 1});
  trace.set_launch({grid.grid_x, grid.grid_y, 1}, {grid.block_x, grid.block_y, 1}, p.blocks);
  trace.add_fact("grid_x", grid.grid_x);
  trace.add_fact("grid_y", grid.grid_y);
  trace.add_fact("block_x", grid.block_x);
  trace.add_fact("block_y", grid.block_y);
  trace.begin();

  const std::uint64_t a_base = trace.base(a);
  const std::uint64_t b_base = trace.base(b);
  const std::uint64_t c_base = trace.base(c);
  std::array<std::uint64_t, tracebuf::kWarpSize> rows{};
  std::array<std::uint64_t, tracebuf::kWarpSize> cols{};
  for (std::uint32_t block = 0; block < p.blocks; ++block) {
    const std::uint64_t block_row = std::uint64_t{block / grid.grid_x} * grid.block_y;
    const std::uint64_t block_col = std::uint64_t{block % grid.grid_x} * grid.block_x;
    for (std::uint32_t warp = 0; warp < warps_per_block(p.threads); ++warp) {
      std::uint32_t active = 0;
      for (std::uint32_t lane = 0; lane < tracebuf::kWarpSize; ++lane) {
        const std::uint32_t thread = warp * tracebuf::kWarpSize + lane;
        rows[lane] = block_row + thread / grid.block_x;
        cols[lane] = block_col + thread % grid.block_x;
        if (thread < p.threads && rows[lane] < n && cols[lane] < n) {
          active |= 1u << lane;
        }
      }
      if (active == 0) {
        continue;  // the warp lies outside C and makes no access
      }
      trace.begin_warp(block, warp);
      for (std::uint64_t k = 0; k < n; ++k) {
        tracebuf::WarpRecord& a_record = trace.add_record(a_read, active);
        for (std::uint32_t lane = 0; lane < tracebuf::kWarpSize; ++lane) {
          a_record.addresses[lane] = a_base + (rows[lane] * n + k) * p.element_size;
        }
        tracebuf::WarpRecord& b_record = trace.add_record(b_read, active);
        for (std::uint32_t lane = 0; lane < tracebuf::kWarpSize; ++lane) {
          b_record.addresses[lane] = b_base + (k * n + cols[lane]) * p.element_size;
        }
      }
      tracebuf::WarpRecord& c_record = trace.add_record(c_write, active);
      for (std::uint32_t lane = 0; lane < tracebuf::kWarpSize; ++lane) {
        c_record.addresses[lane] = c_base + (rows[lane] * n + cols[lane]) * p.element_size;
      }
      trace.end_warp();
    }
  }
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
