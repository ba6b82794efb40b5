// interleaved: every line lives on the one module, its L2 lines spread over the slices by line
// number and its DRAM location cut from the address bits (dram.mapping, dram.interleave_bytes).
#pragma once

#include "memcarlo/sim/placement/placement.hpp"

namespace memcarlo::sim::placement {

/// placement.page_bytes: the page size of the per-line page numbers.
inline constexpr KeySpec kPageBytes{"placement.page_bytes", "size", "4096",
                                    "Page size of the per-line page numbers that placements use"};

std::unique_ptr<Placement> make_interleaved(const HierarchyConfig& config);

}  // namespace memcarlo::sim::placement
