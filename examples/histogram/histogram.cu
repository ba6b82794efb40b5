// Histogram of bell-shaped data computed two ways: every thread adding straight into the global
// bins with atomics, and each block counting in shared memory first, then merging its counts.
//
//   histogram [--values N] [--bins B] [--seed S]
//
// What to look for in a memcarlo report: values[i] is a plain coalesced stream in both kernels.
// The global-atomics kernel issues one atomicAdd on bins per value, concentrated on the few bins
// at the peak of the distribution; the shared-memory kernel issues at most one per bin per block,
// and its shared-memory atomics are not traced at all. Compare the atomic record counts.
#include <cstddef>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "../common/example_support.h"

constexpr unsigned kThreadsPerBlock = 256;
// Each thread handles about this many values, so that a block's shared histogram is merged into
// the global one only after it has counted a few thousand values.
constexpr unsigned kValuesPerThread = 16;

// Grid-stride loop: any grid size covers all the values.
__global__ void histogram_global_atomics(unsigned num_values, const unsigned* values,
                                         unsigned* bins) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < num_values;
       i += blockDim.x * gridDim.x) {
    atomicAdd(&bins[values[i]], 1u);
  }
}

// The block's private histogram is sized at launch (num_bins counters of dynamic shared memory),
// so one kernel serves any bin count.
__global__ void histogram_shared_atomics(unsigned num_values, const unsigned* values,
                                         unsigned num_bins, unsigned* bins) {
  extern __shared__ unsigned block_bins[];
  for (unsigned bin = threadIdx.x; bin < num_bins; bin += blockDim.x) {
    block_bins[bin] = 0;
  }
  __syncthreads();  // all counters are zero before anyone counts

  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < num_values;
       i += blockDim.x * gridDim.x) {
    atomicAdd(&block_bins[values[i]], 1u);
  }
  __syncthreads();  // the block has counted all its values before the merge reads the counters

  for (unsigned bin = threadIdx.x; bin < num_bins; bin += blockDim.x) {
    if (block_bins[bin] != 0) {
      atomicAdd(&bins[bin], block_bins[bin]);
    }
  }
}

// Prints what differs and returns false if `bins` is not the expected histogram.
bool check_bins(const char* kernel, const std::vector<unsigned>& bins,
                const std::vector<unsigned>& expected) {
  for (std::size_t bin = 0; bin < expected.size(); ++bin) {
    if (bins[bin] != expected[bin]) {
      std::printf("histogram: FAILED %s: bin %zu = %u, expected %u\n", kernel, bin, bins[bin],
                  expected[bin]);
      return false;
    }
  }
  return true;
}

int main(int argc, char** argv) {
  unsigned num_values = 1u << 18;
  unsigned num_bins = 256;
  unsigned seed = 1;
  example::parse_flags(
      argc, argv,
      {example::Flag::whole_number("--values", &num_values, 1, 1u << 28, "values to count"),
       // At most 8192 counters (32 KiB): within the 48 KiB of shared memory a block may use.
       example::Flag::whole_number("--bins", &num_bins, 1, 8192, "histogram bins"),
       example::Flag::whole_number("--seed", &seed, 0, ~0u, "seed of the values")});

  // The mean of four uniform draws: a bell curve over [0, num_bins), like the intensities of a
  // photograph, so that the bins near the middle are hot and atomics on them contend.
  example::Random random(seed);
  std::vector<unsigned> values(num_values);
  std::vector<unsigned> expected(num_bins, 0);
  for (unsigned& value : values) {
    const unsigned sum_of_four_draws = random.below(num_bins) + random.below(num_bins) +
                                       random.below(num_bins) + random.below(num_bins);
    value = sum_of_four_draws / 4;
    ++expected[value];
  }

  unsigned* device_values = nullptr;
  unsigned* device_bins = nullptr;
  CHECK_CUDA(cudaMalloc(&device_values, num_values * sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&device_bins, num_bins * sizeof(unsigned)));
  CHECK_CUDA(cudaMemcpy(device_values, values.data(), num_values * sizeof(unsigned),
                        cudaMemcpyHostToDevice));

  const unsigned values_per_block = kThreadsPerBlock * kValuesPerThread;
  const unsigned num_blocks = (num_values + values_per_block - 1) / values_per_block;
#if EXAMPLE_LOCALITY_DESCRIPTORS
  // Locality Descriptors (ISCA'18): the values are read once (NO-REUSE: no point caching them);
  // every block adds into every bin at data-dependent places (INTER-THREAD, COACCESSED by the
  // whole grid, IRREGULAR: worth keeping in the L1). One C-Tile (the grid), one D-Tile each.
  const dim3 whole_grid(num_blocks, 1, 1);
  LocalityDescriptor values_ldesc(
      device_values, num_values * sizeof(unsigned), NO_REUSE,
      Tile_t(dim3(num_values, 1, 1), whole_grid, dim3(1, 2, 3)),
      LocalitySemantics_t(COACCESSED, IRREGULAR), 1, dim3(num_values, 1, 1), "values");
  LocalityDescriptor bins_ldesc(device_bins, num_bins * sizeof(unsigned), INTER_THREAD,
                                Tile_t(dim3(num_bins, 1, 1), whole_grid, dim3(1, 2, 3)),
                                LocalitySemantics_t(COACCESSED, IRREGULAR), 2,
                                dim3(num_bins, 1, 1), "bins");
#endif
  std::vector<unsigned> bins(num_bins);

  CHECK_CUDA(cudaMemset(device_bins, 0, num_bins * sizeof(unsigned)));
  histogram_global_atomics<<<num_blocks, kThreadsPerBlock>>>(num_values, device_values,
                                                             device_bins);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(
      cudaMemcpy(bins.data(), device_bins, num_bins * sizeof(unsigned), cudaMemcpyDeviceToHost));
  const bool global_ok = check_bins("global atomics", bins, expected);

  // The third launch argument is the dynamic shared memory per block: the private histogram.
  const std::size_t shared_bytes = num_bins * sizeof(unsigned);
  CHECK_CUDA(cudaMemset(device_bins, 0, num_bins * sizeof(unsigned)));
  histogram_shared_atomics<<<num_blocks, kThreadsPerBlock, shared_bytes>>>(
      num_values, device_values, num_bins, device_bins);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(
      cudaMemcpy(bins.data(), device_bins, num_bins * sizeof(unsigned), cudaMemcpyDeviceToHost));
  const bool shared_ok = check_bins("shared atomics", bins, expected);

  CHECK_CUDA(cudaFree(device_values));
  CHECK_CUDA(cudaFree(device_bins));
  if (!global_ok || !shared_ok) {
    return 1;
  }
  std::printf("histogram: OK\n");
  return 0;
}
