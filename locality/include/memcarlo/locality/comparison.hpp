// The static graph against the measured one, entry by entry (LocalityGuru §IV: "an element-wise
// comparison ... No differences were noted"), and, where they differ, the loads that cause it:
// each read's own static graph is compared with the graph of that read's records alone.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "memcarlo/locality/measured_graph.hpp"
#include "memcarlo/locality/static_graph.hpp"

namespace memcarlo::locality {

struct EntryDifference {
  std::uint64_t block_i = 0;  // i > j
  std::uint64_t block_j = 0;
  Weight static_weight = 0;
  Weight measured_weight = 0;
};

/// Entries where the graphs differ, in (row, column) order; `count` gets how many in all, the
/// vector at most `limit` of them.
std::vector<EntryDifference> differences(const SparseGraph& expected, const SparseGraph& measured,
                                         std::size_t limit, std::uint64_t& count);

struct LoadCause {
  std::uint32_t id = 0;
  std::string location;
  std::string expression;
  std::string why;
};

struct GraphComparison {
  bool identical_elements = false;
  bool identical_lines = false;
  std::uint64_t element_differences = 0;
  std::uint64_t line_differences = 0;
  std::vector<EntryDifference> first_element_differences;  // at most `limit`
  std::vector<LoadCause> causes;                           // empty when identical
};

/// `options` must restrict the static graph to the trace's snapshot (first_block, block_count).
GraphComparison compare(const StaticGraph& computed, const MeasuredGraph& measured,
                        const std::vector<tracebuf::LoadInfo>& table, const StaticOptions& options,
                        const tracebuf::LaunchStreams& launch, std::size_t limit = 20);

}  // namespace memcarlo::locality
