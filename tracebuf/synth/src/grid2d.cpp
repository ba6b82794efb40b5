// The 2D launch shared by matmul and stencil2d: block shape from --threads and --block-width,
// a grid tiling the size x size domain, the check that --blocks fits in it, and its declaration.
#include "pattern.hpp"
#include "trace_builder.hpp"

namespace memcarlo::synth {

Grid2d grid2d(const Parameters& parameters) {
  Grid2d grid;
  grid.block_x = parameters.block_width;
  grid.block_y = parameters.threads / parameters.block_width;
  grid.grid_x = (parameters.size + grid.block_x - 1) / grid.block_x;
  grid.grid_y = (parameters.size + grid.block_y - 1) / grid.block_y;
  return grid;
}

void set_grid2d_launch(const Grid2d& grid, std::uint64_t traced_blocks, TraceBuilder& trace) {
  trace.set_launch({grid.grid_x, grid.grid_y, 1}, {grid.block_x, grid.block_y, 1}, traced_blocks);
  trace.add_fact("grid_x", grid.grid_x);
  trace.add_fact("grid_y", grid.grid_y);
  trace.add_fact("block_x", grid.block_x);
  trace.add_fact("block_y", grid.block_y);
}

void resolve_grid2d(Parameters& parameters, std::uint32_t minimum_size) {
  if (parameters.size < minimum_size) {
    throw OptionError("--size must be at least " + std::to_string(minimum_size) + " for pattern " +
                      parameters.pattern + ", got " + std::to_string(parameters.size));
  }
  if (parameters.block_width > parameters.threads ||
      parameters.threads % parameters.block_width != 0) {
    throw OptionError("--block-width must divide --threads (" + std::to_string(parameters.threads) +
                      "), got " + std::to_string(parameters.block_width));
  }
  const Grid2d grid = grid2d(parameters);
  if (parameters.blocks == 0) {
    if (grid.blocks() > (std::uint64_t{1} << 24)) {
      throw OptionError("the " + std::to_string(grid.grid_x) + " x " + std::to_string(grid.grid_y) +
                        " grid has too many blocks to trace them all; pass --blocks");
    }
    parameters.blocks = static_cast<std::uint32_t>(grid.blocks());
  } else if (parameters.blocks > grid.blocks()) {
    throw OptionError("--blocks " + std::to_string(parameters.blocks) + " exceeds the " +
                      std::to_string(grid.blocks()) + " blocks (" + std::to_string(grid.grid_x) +
                      " x " + std::to_string(grid.grid_y) + ") of the " + parameters.pattern +
                      " grid for --size " + std::to_string(parameters.size));
  }
  const std::uint64_t elements = std::uint64_t{parameters.size} * parameters.size;
  check_array_size(checked_multiply(elements, parameters.element_size, "the arrays' size"),
                   "each array", "--size");
}

}  // namespace memcarlo::synth
