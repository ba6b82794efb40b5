// 3D Laplace solver: Jacobi iterations of the seven-point Laplacian on a box whose faces are held
// at fixed temperatures, one launch per iteration, with a 3D grid of 3D thread blocks.
//
//   laplace3d [--nx X] [--ny Y] [--nz Z] [--iterations I] [--seed S]
//
// What to look for in a memcarlo report: the six neighbour loads of a point sit at three very
// different distances. u[point - 1] and u[point + 1] share the line of the warp's own row;
// u[point ± nx] are the rows above and below, loaded by the same or the next warp; u[point ± nx·ny]
// are a whole plane away (nx·ny·4 bytes), reused only when the neighbouring z-slice of the block
// runs close enough in time, the kind of reuse whose distribution memcarlo's replay is for.
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#include "../common/example_support.h"

// 32×4×2 threads: a warp covers 32 consecutive x of one row, a block two z-slices of four rows.
constexpr unsigned kBlockX = 32;
constexpr unsigned kBlockY = 4;
constexpr unsigned kBlockZ = 2;

// One Jacobi sweep: every interior point becomes the mean of its six neighbours in `u`.
__global__ void jacobi_sweep(unsigned nx, unsigned ny, unsigned nz, const float* u, float* u_next) {
  const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  const unsigned z = blockIdx.z * blockDim.z + threadIdx.z;
  // Face points are the boundary conditions: both buffers hold them from the start.
  if (x == 0 || y == 0 || z == 0 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1) {
    return;
  }

  const unsigned row = nx;
  const unsigned plane = nx * ny;
  const unsigned point = (z * ny + y) * nx + x;
  const float sum = u[point - 1] + u[point + 1] + u[point - row] + u[point + row] +
                    u[point - plane] + u[point + plane];
  u_next[point] = sum * (1.0f / 6.0f);
}

// The same sweeps on the CPU, adding the neighbours in the same order.
std::vector<float> reference_sweeps(unsigned nx, unsigned ny, unsigned nz, unsigned iterations,
                                    std::vector<float> u) {
  const std::size_t row = nx;
  const std::size_t plane = std::size_t{nx} * ny;
  std::vector<float> u_next = u;
  for (unsigned iteration = 0; iteration < iterations; ++iteration) {
    for (unsigned z = 1; z + 1 < nz; ++z) {
      for (unsigned y = 1; y + 1 < ny; ++y) {
        for (unsigned x = 1; x + 1 < nx; ++x) {
          const std::size_t point = (z * ny + y) * row + x;
          const float sum = u[point - 1] + u[point + 1] + u[point - row] + u[point + row] +
                            u[point - plane] + u[point + plane];
          u_next[point] = sum * (1.0f / 6.0f);
        }
      }
    }
    std::swap(u, u_next);
  }
  return u;
}

int main(int argc, char** argv) {
  unsigned nx = 48;
  unsigned ny = 48;
  unsigned nz = 48;
  unsigned iterations = 4;
  unsigned seed = 1;
  // Sizes are bounded so that a point index fits in 32 bits.
  example::parse_flags(
      argc, argv,
      {example::Flag::whole_number("--nx", &nx, 1, 1024, "points along x"),
       example::Flag::whole_number("--ny", &ny, 1, 1024, "points along y"),
       example::Flag::whole_number("--nz", &nz, 1, 1024, "points along z"),
       example::Flag::whole_number("--iterations", &iterations, 0, 10000,
                                   "Jacobi sweeps, one launch each"),
       example::Flag::whole_number("--seed", &seed, 0, ~0u, "seed of the initial interior")});

  // The z = 0 face is hot (1), the other faces cold (0); the interior starts at random values.
  example::Random random(seed);
  std::vector<float> initial(std::size_t{nx} * ny * nz);
  for (unsigned z = 0; z < nz; ++z) {
    for (unsigned y = 0; y < ny; ++y) {
      for (unsigned x = 0; x < nx; ++x) {
        const bool on_face =
            x == 0 || y == 0 || z == 0 || x + 1 == nx || y + 1 == ny || z + 1 == nz;
        initial[(std::size_t{z} * ny + y) * nx + x] = z == 0    ? 1.0f
                                                      : on_face ? 0.0f
                                                                : random.uniform(0.0f, 1.0f);
      }
    }
  }
  const std::size_t bytes = initial.size() * sizeof(float);

  float* device_u = nullptr;
  float* device_u_next = nullptr;
  CHECK_CUDA(cudaMalloc(&device_u, bytes));
  CHECK_CUDA(cudaMalloc(&device_u_next, bytes));
  // Both buffers start as the initial state, so the faces are in place whichever holds a sweep.
  CHECK_CUDA(cudaMemcpy(device_u, initial.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(device_u_next, initial.data(), bytes, cudaMemcpyHostToDevice));

  const dim3 block(kBlockX, kBlockY, kBlockZ);
  const dim3 grid((nx + kBlockX - 1) / kBlockX, (ny + kBlockY - 1) / kBlockY,
                  (nz + kBlockZ - 1) / kBlockZ);
  for (unsigned iteration = 0; iteration < iterations; ++iteration) {
    jacobi_sweep<<<grid, block>>>(nx, ny, nz, device_u, device_u_next);
    CHECK_CUDA(cudaGetLastError());
    std::swap(device_u, device_u_next);
  }
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> result(initial.size());
  CHECK_CUDA(cudaMemcpy(result.data(), device_u, bytes, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(device_u));
  CHECK_CUDA(cudaFree(device_u_next));

  // A sweep averages values in [0, 1], rounding each by a few units of 2⁻²⁴, and never amplifies
  // earlier errors (a mean is a convex combination): the error grows at most linearly.
  const std::vector<float> expected = reference_sweeps(nx, ny, nz, iterations, initial);
  const double tolerance = 1e-6 * (iterations + 1);
  for (std::size_t point = 0; point < expected.size(); ++point) {
    if (!(std::fabs(double(result[point]) - double(expected[point])) <= tolerance)) {
      std::printf("laplace3d: FAILED u(%zu, %zu, %zu) = %.7g, expected %.7g\n", point % nx,
                  point / nx % ny, point / (std::size_t{nx} * ny), double(result[point]),
                  double(expected[point]));
      return 1;
    }
  }
  std::printf("laplace3d: OK\n");
  return 0;
}
