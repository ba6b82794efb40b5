// 2D five-point stencil: a few explicit diffusion steps on a grid whose border stays fixed, with
// the stencil's weights in __constant__ memory. One launch per step, swapping input and output.
//
//   stencil2d [--width W] [--height H] [--steps S] [--seed S]
//
// What to look for in a memcarlo report: the five loads of a step touch overlapping lines.
// in[center - 1] and in[center + 1] fall in the lines in[center] just brought in (same warp, same
// row), while in[center - width] and in[center + width] are rows that neighbouring warps of the
// block load as their own centers, so their hit ratio depends on how warps interleave, which is
// what memcarlo's randomized replay varies. The weights live in constant memory, not traced.
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#include "../common/example_support.h"
#include "../common/example_tafe.h"

// Weights of a step of anisotropic diffusion (stronger along y than x). They are positive and sum
// to 1, so a step is a convex combination: values stay in [0, 1] and errors are not amplified.
struct StencilWeights {
  float center;
  float north;
  float south;
  float west;
  float east;
};
constexpr StencilWeights kDiffusionWeights{0.5f, 0.15f, 0.15f, 0.1f, 0.1f};

// Uniform across all threads and read every time: the textbook use of constant memory.
__constant__ StencilWeights weights;

// 32×8 threads: a warp spans 32 consecutive cells of one row (one 128-byte line).
constexpr unsigned kBlockWidth = 32;
constexpr unsigned kBlockHeight = 8;

__global__ void stencil_step(unsigned width, unsigned height, const float* in, float* out) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  // Border cells are boundary conditions: both buffers hold them from the start.
  if (x == 0 || y == 0 || x >= width - 1 || y >= height - 1) {
    return;
  }

  const unsigned center = y * width + x;
  out[center] = weights.center * in[center] + weights.north * in[center - width] +
                weights.south * in[center + width] + weights.west * in[center - 1] +
                weights.east * in[center + 1];
}

// The same steps on the CPU, with the same operations in the same order.
std::vector<float> reference_steps(unsigned width, unsigned height, unsigned steps,
                                   std::vector<float> grid) {
  const StencilWeights& weight = kDiffusionWeights;
  std::vector<float> next = grid;
  for (unsigned step = 0; step < steps; ++step) {
    for (unsigned y = 1; y + 1 < height; ++y) {
      for (unsigned x = 1; x + 1 < width; ++x) {
        const std::size_t center = std::size_t{y} * width + x;
        next[center] = weight.center * grid[center] + weight.north * grid[center - width] +
                       weight.south * grid[center + width] + weight.west * grid[center - 1] +
                       weight.east * grid[center + 1];
      }
    }
    std::swap(grid, next);
  }
  return grid;
}

int main(int argc, char** argv) {
  unsigned width = 256;
  unsigned height = 256;
  unsigned steps = 4;
  unsigned seed = 1;
  example::parse_flags(
      argc, argv,
      {example::Flag::whole_number("--width", &width, 1, 16384, "grid cells along x"),
       example::Flag::whole_number("--height", &height, 1, 16384, "grid cells along y"),
       example::Flag::whole_number("--steps", &steps, 0, 10000, "diffusion steps, one launch each"),
       example::Flag::whole_number("--seed", &seed, 0, ~0u, "seed of the initial grid")});

  example::Random random(seed);
  std::vector<float> initial(std::size_t{width} * height);
  for (float& cell : initial) {
    cell = random.uniform(0.0f, 1.0f);
  }
  const std::size_t bytes = initial.size() * sizeof(float);

  CHECK_CUDA(cudaMemcpyToSymbol(weights, &kDiffusionWeights, sizeof(StencilWeights)));
  float* device_in = nullptr;
  float* device_out = nullptr;
  CHECK_CUDA(cudaMalloc(&device_in, bytes));
  CHECK_CUDA(cudaMalloc(&device_out, bytes));
  // Both buffers start as the initial grid, so the border is in place whichever holds a step.
  CHECK_CUDA(cudaMemcpy(device_in, initial.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(device_out, initial.data(), bytes, cudaMemcpyHostToDevice));

  const dim3 block(kBlockWidth, kBlockHeight);
  const dim3 grid((width + kBlockWidth - 1) / kBlockWidth,
                  (height + kBlockHeight - 1) / kBlockHeight);
#ifdef EXAMPLE_TAFE
  // The kernel's thread address footprints by hand: center = y·width + x with
  // y = blockIdx.y·kBlockHeight + threadIdx.y and x = blockIdx.x·kBlockWidth + threadIdx.x; `in`
  // at the center and its four neighbours (one registration each), `out` at the center.
  taf_paramSetup(block, grid);
  const long long row = width;
  const long long by_cell[6] = {1, row, 0, kBlockWidth, kBlockHeight * row, 0};
  const long long neighbours[5] = {0, -row, row, -1, 1};
#endif
  for (unsigned step = 0; step < steps; ++step) {
#if EXAMPLE_LOCALITY_DESCRIPTORS
    // Locality Descriptors (ISCA'18), again each step since the buffers swap roles. A block reads
    // its 32×8 tile of `in` and the cells around it, which its neighbours read too: INTER-THREAD,
    // NEARBY (next-line prefetching), one D-Tile per block. `out` is written once: NO-REUSE. Only
    // when the blocks tile the grid exactly (a descriptor's tiles must divide it).
    if (width % kBlockWidth == 0 && height % kBlockHeight == 0) {
      ldesc_reset(device_in);
      ldesc_reset(device_out);
      const dim3 one_block(1, 1, 1), x_then_y(1, 2, 3), cells(width, height, 1);
      LocalityDescriptor(static_cast<const float*>(device_in), bytes, INTER_THREAD,
                         Tile_t(block, one_block, x_then_y), LocalitySemantics_t(NEARBY, REGULAR, 1),
                         2, cells, "in");
      LocalityDescriptor(static_cast<const float*>(device_out), bytes, NO_REUSE,
                         Tile_t(block, one_block, x_then_y),
                         LocalitySemantics_t(COACCESSED, IRREGULAR), 1, cells, "out");
    }
#endif
#ifdef EXAMPLE_TAFE
    // The buffers trade places every step: the registrations follow them.
    taf_reset(device_in);
    taf_reset(device_out);
    for (const long long neighbour : neighbours) {
      taf_register(device_in, std::size_t{width} * height, TID_DEP, sizeof(float), by_cell,
                   neighbour, 0, 0, true);
    }
    taf_register(device_out, std::size_t{width} * height, TID_DEP, sizeof(float), by_cell, 0, 0, 0,
                 false);
    taf_setRdy(device_in);
    taf_setRdy(device_out);
#endif
    stencil_step<<<grid, block>>>(width, height, device_in, device_out);
    CHECK_CUDA(cudaGetLastError());
    std::swap(device_in, device_out);
  }
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> result(initial.size());
  CHECK_CUDA(cudaMemcpy(result.data(), device_in, bytes, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(device_in));
  CHECK_CUDA(cudaFree(device_out));

  // Each step rounds a value in [0, 1] a few times (at most ~5·2⁻²⁴, fused multiply-adds or not)
  // and, being a convex combination, never amplifies earlier errors: they grow at most linearly.
  const std::vector<float> expected = reference_steps(width, height, steps, initial);
  const double tolerance = 1e-6 * (steps + 1);
  for (std::size_t cell = 0; cell < expected.size(); ++cell) {
    if (!(std::fabs(double(result[cell]) - double(expected[cell])) <= tolerance)) {
      std::printf("stencil2d: FAILED cell (%zu, %zu) = %.7g, expected %.7g\n", cell % width,
                  cell / width, double(result[cell]), double(expected[cell]));
      return 1;
    }
  }
  std::printf("stencil2d: OK\n");
  return 0;
}
