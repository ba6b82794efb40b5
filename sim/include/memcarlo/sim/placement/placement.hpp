// Page placement as a policy: where each line lives — the L2 set (slice) that caches it, its
// DRAM channel, bank and row, its home module and its page. Decided once per compiled trace for
// the traced lines (and when an untraced line is first seen, for the lines a GPU prefetcher
// brings in); the replay only reads the per-line arrays it filled.
//
// Contract:
//   place(address, l2_sets)  the L1 line at byte `address` (a multiple of l1.line): writes the
//                            global L2 set (slice-major) of each of its l2_sets.size() L2 lines
//                            and returns the rest of its home. A function of the address and
//                            the hierarchy only (a policy that must see the trial, first-touch,
//                            would add a per-trial hook); must not allocate; called once per line,
//                            from several threads at once (the compile is parallel), so it must
//                            not change the object.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/config.hpp"
#include "memcarlo/sim/ids.hpp"
#include "memcarlo/sim/policy_registry.hpp"

namespace memcarlo::sim::placement {

/// LineHome::module of a line whose home each trial decides (first-touch): its L2 sets and DRAM
/// location are then module 0's, and the trial moves them to the home it picks.
inline constexpr std::uint16_t kHomePerTrial = 0xFFFF;

struct LineHome {
  DramLocation dram;
  std::uint16_t module = 0;  // the NUMA module whose memory holds the line
  std::uint32_t page = 0;    // address / placement.page_bytes
};

class Placement {
 public:
  virtual ~Placement() = default;
  /// Called once by compile_trace, before any place() and on one thread, with the trace being
  /// compiled: a placement that decides from the whole trace (tafe) reads it here. A placement
  /// never prepared (a prefetcher's untraced lines) must still place every line.
  virtual void prepare(const tracebuf::TraceReader& /*reader*/) {}
  virtual LineHome place(ByteAddress address, std::span<std::uint32_t> l2_sets) const = 0;
};

using PlacementFactory = std::unique_ptr<Placement> (*)(const HierarchyConfig&);
using PlacementRegistry = PolicyRegistry<PlacementFactory>;

/// The page placements (hierarchy key placement.policy), one line each in
/// placement/registry.cpp.
PlacementRegistry& registry();

/// The placement config.placement.policy names (UnknownPolicy if none does).
std::unique_ptr<Placement> make(const HierarchyConfig& config);

/// For each of `allocation_names` (a trace's allocations), the placement that
/// placement.allocations ("name:policy" pairs separated by spaces) gives it, or null where it
/// gives none; empty when the key is empty. ConfigError for a malformed pair or a name the trace
/// has no allocation of (the message lists them), UnknownPolicy for an unknown policy.
std::vector<std::unique_ptr<Placement>> make_per_allocation(
    const HierarchyConfig& config, const std::vector<std::string>& allocation_names);

}  // namespace memcarlo::sim::placement
