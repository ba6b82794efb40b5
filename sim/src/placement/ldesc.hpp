// ldesc: data placement by Locality Descriptors (Vijaykumar et al., ISCA'18, §4.6). Each
// described data structure is interleaved over the modules by its own log2(M) address bits
// [b, b + log2(M)) (granularity 2^b bytes, 7 <= b <= 16), the bits Algorithm 2
// (sim/src/ldesc/numa_mapping.hpp) chooses for it against its launch's grid: the same bits and
// CTA partition the ldesc CTA scheduler uses, so the CTAs of a zone find their D-Tiles in their
// own module. The descriptors are those the compile sees (hierarchy key ldesc.descriptors's
// file, else the trace's annotations), every launch of the trace; a data structure described by
// several launches keeps the bits of the first (data does not move between launches), and a
// range that overlaps one already placed keeps the earlier one's. Every other line keeps its
// interleaved home (page p on module p mod M). Inside its module a described line's L2 sets and
// DRAM location follow its address with the zone bits taken out.
#pragma once

#include "memcarlo/sim/placement/placement.hpp"

namespace memcarlo::sim::placement {

/// ConfigError when numa.modules is not a power of two.
std::unique_ptr<Placement> make_ldesc(const HierarchyConfig& config);

}  // namespace memcarlo::sim::placement
