// The static locality graph (LocalityGuru Algorithm 2): every block's element set per root array,
// enumerated from the loads table's affine index forms over the grid, the block and the loop
// ranges, before any run. Loads that cannot be evaluated are listed with the reason, never
// dropped silently.
//
// Assumptions, stated because the loads table cannot show them: every thread of the grid executes
// every read of the kernel (branch conditions are not in the table, so the idle threads of a grid
// larger than the data read too); arrays with different roots do not overlap; each root starts on
// a 128-byte boundary (cudaMalloc aligns to 256 bytes), which places elements in lines.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "memcarlo/locality/graph.hpp"
#include "memcarlo/locality/index_forms.hpp"

namespace memcarlo::locality {

inline constexpr std::uint32_t kLineBytes = 128;

struct StaticOptions {
  std::string kernel;
  LaunchValues launch;
  /// Blocks [first_block, first_block + block_count) get element sets (a trace's snapshot).
  std::uint64_t first_block = 0;
  std::uint64_t block_count = std::numeric_limits<std::uint64_t>::max();
  /// Only these load ids, when set (the per-load graphs of a comparison).
  std::optional<std::set<std::uint32_t>> only_loads;
  /// Index evaluations allowed per load (threads x iterations x blocks when loops move with
  /// the block); past it the load is not covered, with the reason.
  std::uint64_t max_evaluations = std::uint64_t{1} << 32;
};

/// One read of the kernel and what the static graph made of it.
struct StaticLoad {
  std::uint32_t id = 0;
  std::string location;     // file:line:col
  std::string expression;   // source text
  std::string root;         // the array
  std::string pattern;      // from the form: index_x only, index_y only, index_x+y, fully connected
  std::string not_covered;  // why it is not in the graph; empty when it is
};

struct StaticGraph {
  /// The loads table's kernel whose reads the graph is of: options.kernel, or for an
  /// instantiation `name<args>` the table has no reads of, the table's template `name`.
  std::string kernel;
  SparseGraph elements;
  SparseGraph lines;
  std::vector<StaticLoad> loads;
  /// Per root array, the sharing pattern of its loads' forms (paper §IV): one load using one
  /// blockIdx component names it (index_x only / index_y only), a load using both index_x+y,
  /// loads using x and y separately index_xy, loads using neither fully connected.
  std::map<std::string, std::string> array_patterns;
};

/// The loads table's name of `kernel`: itself when the table has reads of it; for a template
/// instantiation `name<args>` (as a trace names it) otherwise `name` when the table has reads of
/// exactly that one template; else `kernel` (no reads: static_graph's error names the table's).
std::string table_kernel(const std::vector<tracebuf::LoadInfo>& table, const std::string& kernel);

/// Throws std::runtime_error when the kernel has no reads in the table or an entry is malformed.
StaticGraph static_graph(const std::vector<tracebuf::LoadInfo>& table,
                         const StaticOptions& options);

/// The reads of `kernel` in the table (kind read, probed), in id order.
std::vector<const tracebuf::LoadInfo*> kernel_reads(const std::vector<tracebuf::LoadInfo>& table,
                                                    const std::string& kernel);

}  // namespace memcarlo::locality
