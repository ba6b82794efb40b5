// interleaved: pages round-robin over the modules (page p on module p mod M; with one module,
// every line on it), and inside a module its L2 lines spread over the module's slices by line
// number and its DRAM location cut from the address bits (dram.mapping, dram.interleave_bytes).
#pragma once

#include "memcarlo/sim/placement/placement.hpp"

namespace memcarlo::sim::placement {

/// placement.page_bytes: the page size of the per-line page numbers, and the unit the
/// placements give a module.
inline constexpr KeySpec kPageBytes{"placement.page_bytes", "size", "4096",
                                    "Page size: the unit a placement gives a module, and of the "
                                    "per-line page numbers"};

/// placement.allocations: per-allocation overrides of placement.policy, as "name:policy" pairs
/// separated by spaces ("row_ptr:xor values:first-touch"). Owned by the placement family; listed
/// with the default placement's keys.
inline constexpr KeySpec kAllocationPlacements{
    "placement.allocations", "string", "\"\"",
    "Per-allocation placements, \"name:policy\" pairs separated by spaces (the allocation's "
    "name in the trace, a placement.policy name); other lines follow placement.policy"};

std::unique_ptr<Placement> make_interleaved(const HierarchyConfig& config);

}  // namespace memcarlo::sim::placement
