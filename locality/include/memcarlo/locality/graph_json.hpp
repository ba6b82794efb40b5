// Printing locality graphs: JSON (the sparse entries as [i, j, L] with i > j, plus the summary
// and the pattern) and CSV (one row per block pair that shares, elements and lines side by side).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "memcarlo/locality/comparison.hpp"

namespace memcarlo::locality {

nlohmann::json graph_to_json(const SparseGraph& graph, const tracebuf::Dim3& grid);
nlohmann::json static_to_json(const StaticGraph& graph, const tracebuf::Dim3& grid);
nlohmann::json measured_to_json(const MeasuredGraph& graph, const tracebuf::Dim3& grid);
nlohmann::json comparison_to_json(const GraphComparison& comparison);

/// "block_i,block_j,elements,lines" then one row per pair with a non-zero entry in either graph.
std::string graphs_to_csv(const SparseGraph& elements, const SparseGraph& lines);

}  // namespace memcarlo::locality
