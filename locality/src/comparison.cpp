// Static against measured locality graphs (comparison.hpp).
#include "memcarlo/locality/comparison.hpp"

namespace memcarlo::locality {

std::vector<EntryDifference> differences(const SparseGraph& expected, const SparseGraph& measured,
                                         std::size_t limit, std::uint64_t& count) {
  count = 0;
  std::vector<EntryDifference> result;
  const SparseGraph difference = expected - measured;
  for (std::int64_t row = 0; row < difference.outerSize(); ++row) {
    for (SparseGraph::InnerIterator it(difference, row); it; ++it) {
      if (it.value() == 0)
        continue;
      ++count;
      if (result.size() < limit) {
        result.push_back({static_cast<std::uint64_t>(row), static_cast<std::uint64_t>(it.col()),
                          expected.coeff(row, it.col()), measured.coeff(row, it.col())});
      }
    }
  }
  return result;
}

GraphComparison compare(const StaticGraph& computed, const MeasuredGraph& measured,
                        const std::vector<tracebuf::LoadInfo>& table, const StaticOptions& options,
                        const tracebuf::LaunchStreams& launch, std::size_t limit) {
  GraphComparison result;
  result.first_element_differences =
      differences(computed.elements, measured.elements, limit, result.element_differences);
  std::vector<EntryDifference> ignored;
  ignored = differences(computed.lines, measured.lines, 0, result.line_differences);
  result.identical_elements = result.element_differences == 0;
  result.identical_lines = result.line_differences == 0;
  if (result.identical_elements && result.identical_lines)
    return result;
  for (const StaticLoad& load : computed.loads) {
    if (!load.not_covered.empty()) {
      result.causes.push_back({load.id, load.location, load.expression,
                               "not in the static graph: " + load.not_covered});
      continue;
    }
    StaticOptions one = options;
    one.only_loads = std::set<std::uint32_t>{load.id};
    const StaticGraph alone = static_graph(table, one);
    const MeasuredGraph measured_alone = measured_graph(launch, one.only_loads);
    std::uint64_t count = 0;
    const auto first = differences(alone.elements, measured_alone.elements, 1, count);
    if (count == 0)
      continue;
    const EntryDifference& d = first.front();
    result.causes.push_back(
        {load.id, load.location, load.expression,
         std::to_string(count) + " block pairs differ when only this read counts (first: L(" +
             std::to_string(d.block_i) + ", " + std::to_string(d.block_j) + ") static " +
             std::to_string(d.static_weight) + ", measured " + std::to_string(d.measured_weight) +
             ")" + (measured_alone.loads.empty() ? "; the trace has no records of it" : "")});
  }
  (void)ignored;
  return result;
}

}  // namespace memcarlo::locality
