// Occupancy: how many blocks of a launch an SM holds at once under a hierarchy's limits, and for
// a unified L1 the shared-memory carveout decided with it.
#include "occupancy.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/hierarchy_loader.hpp"

namespace memcarlo::sim {
namespace {

/// What one block of a launch takes from an SM.
struct BlockNeeds {
  std::uint64_t threads;  // whole warps
  std::uint64_t warps;
  std::uint64_t registers_per_thread;
  std::uint64_t registers;
  std::uint64_t shared;  // bytes allocated: static + dynamic + reserved, rounded up
};

BlockNeeds block_needs(const tracebuf::LaunchInfo& launch, const SmConfig& sm) {
  BlockNeeds needs{};
  needs.warps = launch.warps_per_block();
  needs.threads = needs.warps * 32;
  needs.registers_per_thread = launch.registers_per_thread != 0 ? launch.registers_per_thread
                                                                 : sm.default_registers_per_thread;
  needs.registers = needs.registers_per_thread * needs.threads;
  const std::uint64_t used =
      launch.dynamic_shared_bytes + launch.static_shared_bytes + sm.reserved_shared_per_block;
  needs.shared = (used + sm.shared_granularity - 1) / sm.shared_granularity * sm.shared_granularity;
  return needs;
}

/// The smallest carveout of `l1` that holds `bytes`, or none.
std::optional<std::uint64_t> carveout_holding(const CacheConfig& l1, std::uint64_t bytes) {
  for (const std::uint64_t carveout : l1.carveouts) {
    if (carveout >= bytes) {
      return carveout;
    }
  }
  return std::nullopt;
}

}  // namespace

namespace detail {

/// The SM limits one block of `launch` exceeds, with the numbers (for the error that no block
/// fits).
std::string exceeded_limits(const tracebuf::LaunchInfo& launch, const SmConfig& sm) {
  const BlockNeeds needs = block_needs(launch, sm);
  std::string out;
  const auto add = [&out](const std::string& what) { out += (out.empty() ? "" : "; ") + what; };
  if (needs.threads > sm.max_threads) {
    add(std::to_string(needs.threads) + " threads > sm.max_threads " +
        std::to_string(sm.max_threads));
  }
  if (needs.warps > sm.max_warps) {
    add(std::to_string(needs.warps) + " warps > sm.max_warps " + std::to_string(sm.max_warps));
  }
  if (needs.registers > sm.registers) {
    add(std::to_string(needs.registers) + " registers (" +
        std::to_string(needs.registers_per_thread) + " per thread" +
        (launch.registers_per_thread == 0
             ? ", sm.default_registers_per_thread: the trace does not record them"
             : " as the trace records them: memcarlo-cc takes them from nvcc's resource usage") +
        ") > sm.registers " + std::to_string(sm.registers));
  }
  if (needs.shared > sm.shared_memory) {
    add(std::to_string(needs.shared) + " bytes of shared memory (static " +
        std::to_string(launch.static_shared_bytes) + " + dynamic " +
        std::to_string(launch.dynamic_shared_bytes) + " + sm.reserved_shared_per_block " +
        std::to_string(sm.reserved_shared_per_block) + ", in multiples of sm.shared_granularity " +
        std::to_string(sm.shared_granularity) + ") > sm.shared_memory " +
        std::to_string(sm.shared_memory));
  }
  return out;
}

std::string presets_that_fit(const tracebuf::LaunchInfo& launch, const std::string& failed) {
  std::string fitting;
  for (const std::string& name : preset_names()) {
    if (name != failed && plan_occupancy(launch, load_hierarchy(name)).resident_blocks > 0) {
      fitting += (fitting.empty() ? "" : ", ") + name;
    }
  }
  if (fitting.empty()) {
    return ". No preset's SM holds this block; give a hierarchy file whose sm keys do";
  }
  return ". Presets whose SM holds this block: " + fitting +
         "; simulate with one of them (-H PRESET), best on a trace sized for it (memcarlo run "
         "-H PRESET -- PROGRAM), or raise the sm keys named here with --set";
}

}  // namespace detail

// Occupancy and the carveout decide each other. The rule is the CUDA occupancy calculator's
// (cuda_occupancy.h: cudaOccMaxBlocksPerSMSmemLimit, cudaOccSMemPreferenceVoltaPlus,
// cudaOccAlignUpShmemSizeVoltaPlus) for the blocks, and the CUDA C Programming Guide's
// (compute capabilities 7.x-9.x, "Shared Memory": the driver picks the carveout per kernel so as
// not to limit occupancy by shared memory) for the carveout:
//   a = round_up(static + dynamic + reserved per block, granularity)   (reserved: 1 KiB on 8.x+)
//   P = the preference: -1 -> sm.shared_memory; p % -> p x sm.shared_memory / 100; then aligned
//       up to the smallest listed carveout that holds it
//   S = P if P >= a, else the smallest carveout that holds a   (shared memory the SM offers)
//   blocks = min(thread, warp, block, register limits, S / a)   (no shared-memory limit if a = 0)
//   carveout = the smallest listed carveout that holds blocks x a, and at least P when a
//              preference is set (the driver honours it); the L1 is unified_size - carveout.
// Accel-Sim's adaptive L1 (gpgpu-sim shader.cc, adaptive_cache_config) follows the same rule:
// occupancy first with the most shared memory, then the smallest carveout that holds it.
LaunchOccupancy plan_occupancy(const tracebuf::LaunchInfo& launch, const HierarchyConfig& config) {
  const SmConfig& sm = config.sm;
  const CacheConfig& l1 = config.l1;
  const BlockNeeds needs = block_needs(launch, sm);
  LaunchOccupancy out;
  out.shared_per_block = needs.shared;
  std::uint64_t blocks = sm.max_blocks;
  blocks = std::min(blocks, sm.max_threads / needs.threads);
  blocks = std::min(blocks, sm.max_warps / needs.warps);
  blocks = std::min(blocks, sm.registers / needs.registers);
  if (needs.shared > sm.shared_memory) {
    blocks = 0;
  }
  const bool adaptive = l1.enabled && l1.adaptive;
  std::uint64_t preference = 0;
  if (adaptive) {
    const std::uint64_t wanted =
        l1.preferred_carveout < 0
            ? sm.shared_memory
            : static_cast<std::uint64_t>(l1.preferred_carveout) * sm.shared_memory / 100;
    preference = carveout_holding(l1, wanted).value_or(l1.carveouts.back());
    const std::uint64_t offered =
        preference >= needs.shared ? preference
                                   : carveout_holding(l1, needs.shared).value_or(sm.shared_memory);
    if (needs.shared > 0) {
      blocks = std::min(blocks, offered / needs.shared);
    }
  } else if (needs.shared > 0) {
    blocks = std::min(blocks, sm.shared_memory / needs.shared);
  }
  out.resident_blocks = static_cast<std::uint32_t>(blocks);
  if (adaptive) {
    out.adaptive = true;
    const std::uint64_t floor = l1.preferred_carveout < 0 ? 0 : preference;
    out.carveout = std::max(floor, carveout_holding(l1, blocks * needs.shared)
                                       .value_or(l1.carveouts.back()));
    out.l1_bytes = l1.unified_size - out.carveout;
    out.l1_ways = static_cast<std::uint32_t>(out.l1_bytes / (std::uint64_t{l1.line} * l1.sets()));
  } else {
    out.l1_bytes = l1.enabled ? l1.size : 0;
    out.l1_ways = l1.associativity;
  }
  return out;
}

std::uint32_t resident_blocks_per_sm(const tracebuf::LaunchInfo& launch,
                                     const HierarchyConfig& config) {
  return plan_occupancy(launch, config).resident_blocks;
}

}  // namespace memcarlo::sim
