// Which launches the cuda backend traces and which blocks (paper §3.1), with the same options and
// the same arithmetic as the host backend (docs/host-runtime.md, "Snapshot"), so that both
// backends trace the same snapshot of the same program.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "memcarlo/host/control.hpp"
#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::cuda::detail {

/// A launch as memcarlo_launch_begin sees it.
struct LaunchRequest {
  std::string kernel;
  tracebuf::Dim3 grid;
  tracebuf::Dim3 block;
  std::uint64_t dynamic_shared_bytes = 0;
};

/// Counts launches: the program's n-th launch and the kernel's n-th launch, both 0-based.
class LaunchCounter {
 public:
  struct Position {
    std::uint64_t sequence_in_program = 0;
    std::uint64_t nth_of_kernel = 0;
  };
  Position count(const std::string& kernel);

 private:
  std::uint64_t launches_ = 0;
  std::map<std::string, std::uint64_t, std::less<>> per_kernel_;
};

/// MEMCARLO_KERNEL (empty: every kernel) and MEMCARLO_LAUNCH (nullopt: all launches).
bool launch_selected(const host::RuntimeOptions& options, std::string_view kernel,
                     std::uint64_t nth_of_kernel);

/// Resident blocks per SM of the modeled device: the minimum over the block, warp, thread,
/// shared memory and register limits; 0 when one block exceeds an SM or a per-block limit.
/// Same formula as memcarlo::host::resident_blocks_per_sm (tracebuf/host/src/occupancy.cpp),
/// which cannot be linked here because that file also holds the emulation's occupancy queries.
std::uint32_t modeled_resident_blocks_per_sm(const host::DeviceLimits& limits,
                                             const host::BlockResources& block);

struct SnapshotPlan {
  tracebuf::LaunchInfo info;  // everything but `index`, which the writer assigns
  /// A block exceeds one SM of the modeled device: 1 resident block per SM was assumed.
  bool block_exceeds_sm = false;
};

/// The Launch chunk of a traced launch: registers and static shared memory from
/// MEMCARLO_KERNEL_RESOURCES (else unknown, the default registers per thread for occupancy),
/// blocks [first, first + count) with first = MEMCARLO_SNAPSHOT_FIRST_BLOCK and count =
/// MEMCARLO_SNAPSHOT_BLOCKS or SMs x resident blocks per SM x MEMCARLO_SNAPSHOT_FACTOR, clamped
/// to the grid and to 32-bit block ids (the trace's block field).
SnapshotPlan plan_snapshot(const host::RuntimeOptions& options, const LaunchRequest& request,
                           std::uint64_t sequence_in_program);

}  // namespace memcarlo::cuda::detail
