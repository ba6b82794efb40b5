// tafe: TAFE's page mapping (PACT'20 §5.2). Before the first line is placed, every traced
// launch's footprint is estimated (memcarlo::footprint: the TAF relations of the loads table,
// the extent tables recovered from the trace) and its blocks are put on modules as the tafe CTA
// scheduler puts them. A page that the blocks of one module are estimated to touch lives there;
// one touched by several lives on the module with the least total hops to all of them (ties: the
// one whose blocks touch it most, then the lowest). Pages no estimate names (and a trace without
// index forms) are interleaved. placement.tafe_tid = true is the paper's TAFE-TID: the arrays of
// INDIR and INDIR_RANGE accesses count as touched by every module, which leaves them interleaved.
#pragma once

#include "memcarlo/sim/placement/placement.hpp"

namespace memcarlo::sim::placement {

/// placement.tafe_tid: only thread-ID-dependent footprints steer pages (TAFE-TID).
inline constexpr KeySpec kTafeTid{"placement.tafe_tid", "boolean", "false",
                                  "tafe placement: treat data-dependent (INDIR, INDIR_RANGE) "
                                  "arrays as accessed by every module (the paper's TAFE-TID)"};

std::unique_ptr<Placement> make_tafe(const HierarchyConfig& config);

}  // namespace memcarlo::sim::placement
