// Pattern "stencil2d": a 5-point Jacobi step on a size x size grid with 2D blocks; interior
// threads read center, north, south, west and east and write one point (boundary lanes idle).
#include "index_forms.hpp"
#include "pattern.hpp"
#include "trace_builder.hpp"
#include "warp_walk.hpp"

namespace memcarlo::synth {
namespace {

const std::vector<std::string> kListing = {
    "template <class T>",
    "__global__ void stencil2d(const T* in, T* out, unsigned N) {",
    "  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;",
    "  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;",
    "  if (x > 0 && x < N - 1 && y > 0 && y < N - 1) {",
    "    T center = in[y * N + x];",
    "    T north = in[(y - 1) * N + x];",
    "    T south = in[(y + 1) * N + x];",
    "    T west = in[y * N + (x - 1)];",
    "    T east = in[y * N + (x + 1)];",
    "    out[y * N + x] = T(0.5) * center + T(0.125) * (north + south + west + east);",
    "  }",
    "}",
};

void resolve(Parameters& p) {
  resolve_grid2d(p, 3);
}

/// The five reads in program order: line, expression, and the (dy, dx) of the point read.
struct Neighbour {
  std::uint32_t line;
  const char* expression;
  int dy, dx;
};
constexpr std::array<Neighbour, 5> kNeighbours = {{
    {6, "in[y * N + x]", 0, 0},
    {7, "in[(y - 1) * N + x]", -1, 0},
    {8, "in[(y + 1) * N + x]", 1, 0},
    {9, "in[y * N + (x - 1)]", 0, -1},
    {10, "in[y * N + (x + 1)]", 0, 1},
}};

void generate(const Parameters& p, TraceBuilder& trace) {
  const Grid2d grid = grid2d(p);
  const std::uint64_t n = p.size;
  trace.set_kernel("stencil2d", kListing);
  const std::uint32_t in = trace.add_array("in", n * n * p.element_size);
  const std::uint32_t out = trace.add_array("out", n * n * p.element_size);
  // Index forms (y*N + x with y = blockIdx.y*blockDim.y + threadIdx.y, x likewise), TID_DEP.
  const std::vector<IndexTerm> center = {{1, {"N", "blockDim.y", "blockIdx.y"}},
                                         {1, {"N", "threadIdx.y"}},
                                         {1, {"blockDim.x", "blockIdx.x"}},
                                         {1, {"threadIdx.x"}}};
  trace.add_kernel_argument("N", static_cast<std::int64_t>(n));
  // No loop and no dependence between the five reads: one sequence; the store follows.
  std::array<std::uint32_t, kNeighbours.size()> reads{};
  for (std::size_t i = 0; i < kNeighbours.size(); ++i) {
    std::vector<IndexTerm> terms = center;
    if (kNeighbours[i].dy != 0)
      terms.push_back({kNeighbours[i].dy, {"N"}});
    reads[i] = trace.add_access({.line = kNeighbours[i].line,
                                 .expression = kNeighbours[i].expression,
                                 .index_json = index_form("affine", "in", kNeighbours[i].expression,
                                                          terms, kNeighbours[i].dx),
                                 .array = in,
                                 .element_size = p.element_size,
                                 .loop_depth = 0,
                                 .sequence = 0});
  }
  const std::uint32_t write =
      trace.add_access({.line = 11,
                        .expression = "out[y * N + x]",
                        .index_json = index_form("affine", "out", "y*N + x", center, 0),
                        .kind = tracebuf::AccessKind::kWrite,
                        .array = out,
                        .element_size = p.element_size,
                        .loop_depth = 0,
                        .sequence = 1});
  set_grid2d_launch(grid, p.blocks, trace);
  trace.begin();

  const std::uint64_t in_base = trace.base(in);
  const std::uint64_t out_base = trace.base(out);
  // Boundary and out-of-grid threads make no access.
  const auto interior = [n](std::uint64_t y, std::uint64_t x) {
    return x > 0 && x < n - 1 && y > 0 && y < n - 1;
  };
  for_each_warp_2d(p, grid, trace, interior, [&](const Warp2d& warp) {
    const auto& ys = warp.rows;
    const auto& xs = warp.columns;
    for (std::size_t i = 0; i < kNeighbours.size(); ++i) {
      const auto dy = static_cast<std::uint64_t>(kNeighbours[i].dy);
      const auto dx = static_cast<std::uint64_t>(kNeighbours[i].dx);
      add_lane_record(trace, reads[i], warp.active, [&](std::uint32_t lane) {
        return in_base + ((ys[lane] + dy) * n + xs[lane] + dx) * p.element_size;
      });
    }
    add_lane_record(trace, write, warp.active, [&](std::uint32_t lane) {
      return out_base + (ys[lane] * n + xs[lane]) * p.element_size;
    });
  });
}

}  // namespace

const PatternDefinition& stencil2d_pattern() {
  static const PatternDefinition definition = {
      .info = {.name = "stencil2d",
               .description = "5-point stencil on a size x size grid, 2D blocks; reads center, "
                              "north, south, west, east, writes one point",
               .options = "--size N (256): grid side; --block-width W (32): blockDim.x, "
                          "blockDim.y = threads / W; --blocks: traced blocks of the grid (all)"},
      .options = kUsesSize | kUsesBlockWidth,
      .defaults = {.blocks = 0, .size = 256, .block_width = 32},
      .resolve = &resolve,
      .generate = &generate,
  };
  return definition;
}

}  // namespace memcarlo::synth
