// Resident blocks per SM and the snapshot size (paper §3.1) from plain device limits, the numbers
// `memcarlo run` reads from a hierarchy preset and hands to the program through the environment.
#pragma once

#include <cstdint>

namespace memcarlo::host {

/// Per-SM and per-block limits. Defaults are the Tesla C2050 (Fermi, compute capability 2.0),
/// the device of the PPoPP'12 paper.
struct DeviceLimits {
  std::uint32_t sm_count = 14;
  std::uint32_t max_threads_per_sm = 1536;
  std::uint32_t max_blocks_per_sm = 8;
  std::uint32_t max_warps_per_sm = 48;
  std::uint64_t shared_bytes_per_sm = std::uint64_t{48} * 1024;
  std::uint32_t registers_per_sm = 32768;
  std::uint32_t max_threads_per_block = 1024;
  std::uint64_t shared_bytes_per_block = std::uint64_t{48} * 1024;
  /// Registers are allocated per warp in units of this many (Fermi: 64 per warp, i.e. 2 per
  /// thread).
  std::uint32_t register_allocation_unit = 64;
};

/// Registers per thread assumed when nothing better is known (nvcc --resource-usage not run).
inline constexpr std::uint32_t kDefaultRegistersPerThread = 32;

struct BlockResources {
  std::uint64_t threads = 0;
  std::uint64_t shared_bytes = 0;  // static + dynamic
  std::uint32_t registers_per_thread = kDefaultRegistersPerThread;
};

/// How many such blocks fit on one SM at once: the minimum over the block, warp, thread, shared
/// memory and register limits; 0 when a single block exceeds a per-SM or per-block limit.
std::uint32_t resident_blocks_per_sm(const DeviceLimits& limits, const BlockResources& block);

/// SMs × resident blocks per SM × factor: the consecutive blocks that a snapshot traces.
std::uint64_t snapshot_block_count(const DeviceLimits& limits, std::uint32_t resident_blocks,
                                   std::uint32_t factor);

}  // namespace memcarlo::host
