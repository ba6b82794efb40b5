// Occupancy (resident blocks per SM) and snapshot size, and the CUDA occupancy queries built on
// them.
#include "memcarlo/host/occupancy.hpp"

#include <algorithm>
#include <cstring>

#include "memcarlo/host/control.hpp"
#include "memcarlo/host/cuda_runtime_emulation.h"

namespace memcarlo::host {

std::uint32_t resident_blocks_per_sm(const DeviceLimits& limits, const BlockResources& block) {
  if (block.threads == 0 || block.threads > limits.max_threads_per_block ||
      block.shared_bytes > limits.shared_bytes_per_block) {
    return 0;
  }
  const std::uint64_t warps = (block.threads + 31) / 32;
  std::uint64_t blocks = limits.max_blocks_per_sm;
  blocks = std::min(blocks, std::uint64_t{limits.max_warps_per_sm} / warps);
  // Threads are scheduled in whole warps, so a partial warp occupies 32 thread slots.
  blocks = std::min(blocks, std::uint64_t{limits.max_threads_per_sm} / (warps * 32));
  if (block.shared_bytes > 0) {
    blocks = std::min(blocks, limits.shared_bytes_per_sm / block.shared_bytes);
  }
  // Registers are allocated per warp, rounded up to the allocation unit.
  const std::uint64_t unit = std::max<std::uint32_t>(limits.register_allocation_unit, 1);
  const std::uint64_t per_warp =
      (std::uint64_t{block.registers_per_thread} * 32 + unit - 1) / unit * unit;
  if (per_warp > 0) {
    blocks = std::min(blocks, std::uint64_t{limits.registers_per_sm} / (per_warp * warps));
  }
  return static_cast<std::uint32_t>(blocks);
}

std::uint64_t snapshot_block_count(const DeviceLimits& limits, std::uint32_t resident_blocks,
                                   std::uint32_t factor) {
  return std::uint64_t{limits.sm_count} * std::max<std::uint32_t>(resident_blocks, 1) *
         std::max<std::uint32_t>(factor, 1);
}

namespace detail {

int resident_blocks_for(int block_size, std::size_t dynamic_shared_bytes) {
  const RuntimeOptions& options = runtime_options();
  BlockResources block;
  block.threads = block_size > 0 ? static_cast<std::uint64_t>(block_size) : 0;
  block.shared_bytes = dynamic_shared_bytes;
  block.registers_per_thread = options.default_registers_per_thread;
  return static_cast<int>(resident_blocks_per_sm(options.limits, block));
}

void fill_function_attributes(cudaFuncAttributes* attributes) {
  const RuntimeOptions& options = runtime_options();
  std::memset(attributes, 0, sizeof *attributes);
  attributes->maxThreadsPerBlock = static_cast<int>(options.limits.max_threads_per_block);
  attributes->numRegs = static_cast<int>(options.default_registers_per_thread);
  attributes->ptxVersion = options.compute_major * 10 + options.compute_minor;
  attributes->binaryVersion = attributes->ptxVersion;
  attributes->maxDynamicSharedSizeBytes = static_cast<int>(options.limits.shared_bytes_per_block);
}

}  // namespace detail
}  // namespace memcarlo::host
