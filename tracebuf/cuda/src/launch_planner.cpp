// Launch selection and snapshot sizing for the cuda backend (paper §3.1).
#include "launch_planner.hpp"

#include <algorithm>
#include <limits>

namespace memcarlo::cuda::detail {

LaunchCounter::Position LaunchCounter::count(const std::string& kernel) {
  Position position;
  position.sequence_in_program = launches_++;
  auto it = per_kernel_.find(kernel);
  if (it == per_kernel_.end()) {
    it = per_kernel_.emplace(kernel, 0).first;
  }
  position.nth_of_kernel = it->second++;
  return position;
}

bool launch_selected(const host::RuntimeOptions& options, std::string_view kernel,
                     std::uint64_t nth_of_kernel) {
  const bool kernel_selected =
      options.kernels.empty() ||
      std::find(options.kernels.begin(), options.kernels.end(), kernel) != options.kernels.end();
  return kernel_selected && (!options.launch || *options.launch == nth_of_kernel);
}

std::uint32_t modeled_resident_blocks_per_sm(const host::DeviceLimits& limits,
                                             const host::BlockResources& block) {
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

SnapshotPlan plan_snapshot(const host::RuntimeOptions& options, const LaunchRequest& request,
                           std::uint64_t sequence_in_program) {
  SnapshotPlan plan;
  tracebuf::LaunchInfo& info = plan.info;
  info.kernel = request.kernel;
  info.grid = request.grid;
  info.block = request.block;
  info.dynamic_shared_bytes = request.dynamic_shared_bytes;
  info.sequence_in_program = sequence_in_program;
  for (const host::KernelResources& resources : options.kernel_resources) {
    if (resources.kernel == request.kernel) {
      info.registers_per_thread = resources.registers_per_thread;
      info.static_shared_bytes = resources.static_shared_bytes;
      break;
    }
  }
  host::BlockResources block;
  block.threads = request.block.volume();
  block.shared_bytes = info.static_shared_bytes + request.dynamic_shared_bytes;
  block.registers_per_thread = info.registers_per_thread != 0
                                   ? info.registers_per_thread
                                   : options.default_registers_per_thread;
  std::uint32_t resident = modeled_resident_blocks_per_sm(options.limits, block);
  if (resident == 0) {
    plan.block_exceeds_sm = true;
    resident = 1;
  }
  info.resident_blocks_per_sm = resident;
  const std::uint64_t blocks = request.grid.volume();
  const std::uint64_t formula = std::uint64_t{options.limits.sm_count} * resident *
                                std::max<std::uint32_t>(options.snapshot_factor, 1);
  constexpr std::uint64_t kBlockIds = std::uint64_t{std::numeric_limits<std::uint32_t>::max()} + 1;
  info.snapshot_first_block = std::min({options.snapshot_first_block, blocks, kBlockIds});
  info.snapshot_block_count =
      std::min({options.snapshot_blocks.value_or(formula), blocks - info.snapshot_first_block,
                kBlockIds - info.snapshot_first_block});
  return plan;
}

}  // namespace memcarlo::cuda::detail
