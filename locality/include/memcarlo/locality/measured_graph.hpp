// The locality graph measured from a trace (LocalityGuru §IV "Validating the Results"): the
// addresses each traced block's warps read in one launch, by element and by 128-byte line.
#pragma once

#include <cstdint>
#include <optional>
#include <set>

#include "memcarlo/locality/graph.hpp"
#include "memcarlo/tracebuf/reader.hpp"

namespace memcarlo::locality {

struct MeasuredGraph {
  SparseGraph elements;           // keys: address / element size, one space per element size
  SparseGraph lines;              // keys: address / 128
  std::uint64_t first_block = 0;  // the snapshot: blocks [first_block, first_block + block_count)
  std::uint64_t block_count = 0;
  std::set<std::uint32_t> loads;  // static ids of the reads seen
};

/// Reads (AccessKind::kRead records) of the launch, optionally only those of `only_loads`.
/// Throws std::runtime_error when a warp's block is outside the launch's grid.
MeasuredGraph measured_graph(const tracebuf::LaunchStreams& launch,
                             const std::optional<std::set<std::uint32_t>>& only_loads = {});

}  // namespace memcarlo::locality
