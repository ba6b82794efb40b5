// JSON and CSV forms of locality graphs (graph_json.hpp).
#include "memcarlo/locality/graph_json.hpp"

#include <map>
#include <utility>

namespace memcarlo::locality {

using nlohmann::json;

json graph_to_json(const SparseGraph& graph, const tracebuf::Dim3& grid) {
  const GraphSummary summary = summarize(graph);
  json entries = json::array();
  for (std::int64_t row = 0; row < graph.outerSize(); ++row) {
    for (SparseGraph::InnerIterator it(graph, row); it; ++it) {
      if (it.value() != 0)
        entries.push_back({row, it.col(), it.value()});
    }
  }
  return {{"total_shared", summary.total},
          {"sharing_pairs", summary.pairs},
          {"max_shared", summary.max},
          {"pattern", graph_pattern(graph, grid)},
          {"entries", std::move(entries)}};
}

json static_to_json(const StaticGraph& graph, const tracebuf::Dim3& grid) {
  json loads = json::array();
  for (const StaticLoad& load : graph.loads) {
    json entry = {{"id", load.id},
                  {"location", load.location},
                  {"expression", load.expression},
                  {"root", load.root},
                  {"covered", load.not_covered.empty()}};
    if (load.not_covered.empty()) {
      entry["pattern"] = load.pattern;
    } else {
      entry["not_covered"] = load.not_covered;
    }
    loads.push_back(std::move(entry));
  }
  return {{"elements", graph_to_json(graph.elements, grid)},
          {"lines", graph_to_json(graph.lines, grid)},
          {"array_patterns", graph.array_patterns},
          {"loads", std::move(loads)}};
}

json measured_to_json(const MeasuredGraph& graph, const tracebuf::Dim3& grid) {
  return {{"snapshot_first_block", graph.first_block},
          {"snapshot_block_count", graph.block_count},
          {"elements", graph_to_json(graph.elements, grid)},
          {"lines", graph_to_json(graph.lines, grid)},
          {"loads", graph.loads}};
}

json comparison_to_json(const GraphComparison& comparison) {
  json differences = json::array();
  for (const EntryDifference& d : comparison.first_element_differences) {
    differences.push_back({{"block_i", d.block_i},
                           {"block_j", d.block_j},
                           {"static", d.static_weight},
                           {"measured", d.measured_weight}});
  }
  json causes = json::array();
  for (const LoadCause& cause : comparison.causes) {
    causes.push_back({{"id", cause.id},
                      {"location", cause.location},
                      {"expression", cause.expression},
                      {"why", cause.why}});
  }
  return {{"elements", comparison.identical_elements ? "identical" : "different"},
          {"lines", comparison.identical_lines ? "identical" : "different"},
          {"element_differences", comparison.element_differences},
          {"line_differences", comparison.line_differences},
          {"first_element_differences", std::move(differences)},
          {"causes", std::move(causes)}};
}

std::string graphs_to_csv(const SparseGraph& elements, const SparseGraph& lines) {
  std::map<std::pair<std::int64_t, std::int64_t>, std::pair<Weight, Weight>> rows;
  for (std::int64_t row = 0; row < elements.outerSize(); ++row) {
    for (SparseGraph::InnerIterator it(elements, row); it; ++it) {
      if (it.value() != 0)
        rows[{row, it.col()}].first = it.value();
    }
  }
  for (std::int64_t row = 0; row < lines.outerSize(); ++row) {
    for (SparseGraph::InnerIterator it(lines, row); it; ++it) {
      if (it.value() != 0)
        rows[{row, it.col()}].second = it.value();
    }
  }
  std::string csv = "block_i,block_j,elements,lines\n";
  for (const auto& [pair, weights] : rows) {
    csv += std::to_string(pair.first) + "," + std::to_string(pair.second) + "," +
           std::to_string(weights.first) + "," + std::to_string(weights.second) + "\n";
  }
  return csv;
}

}  // namespace memcarlo::locality
