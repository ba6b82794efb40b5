// Pattern "stencil2d": a 5-point Jacobi step on a size x size grid with 2D blocks; interior
// threads read center, north, south, west and east and write one point (boundary lanes idle).
#include "pattern.hpp"
#include "trace_builder.hpp"

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
  // No loop and no dependence between the five reads: one sequence; the store follows.
  std::array<std::uint32_t, kNeighbours.size()> reads{};
  for (std::size_t i = 0; i < kNeighbours.size(); ++i) {
    reads[i] = trace.add_access({.line = kNeighbours[i].line,
                                 .expression = kNeighbours[i].expression,
                                 .array = in,
                                 .element_size = p.element_size,
                                 .loop_depth = 0,
                                 .sequence = 0});
  }
  const std::uint32_t write = trace.add_access({.line = 11,
                                                .expression = "out[y * N + x]",
                                                .kind = tracebuf::AccessKind::kWrite,
                                                .array = out,
                                                .element_size = p.element_size,
                                                .loop_depth = 0,
                                                .sequence = 1});
  trace.set_launch({grid.grid_x, grid.grid_y, 1}, {grid.block_x, grid.block_y, 1}, p.blocks);
  trace.add_fact("grid_x", grid.grid_x);
  trace.add_fact("grid_y", grid.grid_y);
  trace.add_fact("block_x", grid.block_x);
  trace.add_fact("block_y", grid.block_y);
  trace.begin();

  const std::uint64_t in_base = trace.base(in);
  const std::uint64_t out_base = trace.base(out);
  std::array<std::uint64_t, tracebuf::kWarpSize> ys{};
  std::array<std::uint64_t, tracebuf::kWarpSize> xs{};
  for (std::uint32_t block = 0; block < p.blocks; ++block) {
    const std::uint64_t block_y = std::uint64_t{block / grid.grid_x} * grid.block_y;
    const std::uint64_t block_x = std::uint64_t{block % grid.grid_x} * grid.block_x;
    for (std::uint32_t warp = 0; warp < warps_per_block(p.threads); ++warp) {
      std::uint32_t interior = 0;
      for (std::uint32_t lane = 0; lane < tracebuf::kWarpSize; ++lane) {
        const std::uint32_t thread = warp * tracebuf::kWarpSize + lane;
        ys[lane] = block_y + thread / grid.block_x;
        xs[lane] = block_x + thread % grid.block_x;
        if (thread < p.threads && xs[lane] > 0 && xs[lane] < n - 1 && ys[lane] > 0 &&
            ys[lane] < n - 1) {
          interior |= 1u << lane;
        }
      }
      if (interior == 0) {
        continue;  // only boundary or out-of-grid threads: no access
      }
      trace.begin_warp(block, warp);
      for (std::size_t i = 0; i < kNeighbours.size(); ++i) {
        tracebuf::WarpRecord& record = trace.add_record(reads[i], interior);
        for (std::uint32_t lane = 0; lane < tracebuf::kWarpSize; ++lane) {
          if ((interior >> lane) & 1u) {
            const std::uint64_t point =
                (ys[lane] + static_cast<std::uint64_t>(kNeighbours[i].dy)) * n + xs[lane] +
                static_cast<std::uint64_t>(kNeighbours[i].dx);
            record.addresses[lane] = in_base + point * p.element_size;
          }
        }
      }
      tracebuf::WarpRecord& record = trace.add_record(write, interior);
      for (std::uint32_t lane = 0; lane < tracebuf::kWarpSize; ++lane) {
        record.addresses[lane] = out_base + (ys[lane] * n + xs[lane]) * p.element_size;
      }
      trace.end_warp();
    }
  }
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
