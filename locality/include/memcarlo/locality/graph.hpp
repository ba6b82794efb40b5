// The threadblock locality graph (LocalityGuru §III-A): L(TBi, TBj) = the number of keys
// (elements, or 128-byte lines) that blocks i and j both read, summed over the arrays. Built by a
// sweep over each array's per-block key intervals, so memory follows the intervals and the
// graph's non-zeros, never blocks x elements.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/SparseCore>

#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::locality {

using Weight = std::int64_t;

/// The strict lower triangle (row i > column j) of the symmetric graph; L(i, i) is not stored.
using SparseGraph = Eigen::SparseMatrix<Weight, Eigen::RowMajor, std::int64_t>;

/// Linear block id = x + y * grid.x + z * grid.x * grid.y (CUDA's order, the trace's block ids).
struct BlockCoordinates {
  std::uint32_t x = 0, y = 0, z = 0;
};
BlockCoordinates coordinates_of(std::uint64_t block, const tracebuf::Dim3& grid);

/// Keys [begin, end) of one key space (an array, or an element size in a trace).
struct KeyInterval {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};

/// Sorts keys, drops repeats and joins consecutive keys into intervals (keys is reordered).
std::vector<KeyInterval> intervals_of_keys(std::vector<std::int64_t>& keys);
/// Sorts intervals and joins overlapping or touching ones.
void merge_intervals(std::vector<KeyInterval>& intervals);

/// Accumulates what each block reads, space by space, and sweeps it into the graph.
/// Cost: O(I log I) for I intervals plus O(P) for the pairs of blocks active on each run of keys
/// with the same readers; triplets are folded into the sparse matrix every few million, so the
/// peak memory is the intervals plus the graph's non-zeros plus one chunk.
class GraphBuilder {
 public:
  explicit GraphBuilder(std::uint64_t blocks);

  /// The keys `block` reads in `space`; the intervals of one (space, block) need not be merged.
  void add(std::uint32_t space, std::uint32_t block, const std::vector<KeyInterval>& intervals);

  /// The graph of everything added; the builder is empty afterwards.
  SparseGraph finish();

 private:
  struct Entry {
    std::uint32_t space;
    std::uint32_t block;
    std::int64_t begin;
    std::int64_t end;
  };
  void sweep(std::size_t first, std::size_t last);
  void emit(const std::vector<std::uint32_t>& readers, Weight length);
  void fold();

  std::uint64_t blocks_;
  std::vector<Entry> entries_;
  std::vector<Eigen::Triplet<Weight, std::int64_t>> triplets_;
  SparseGraph graph_;
};

/// Total shared keys (sum over i > j), the number of block pairs that share, and the largest L.
struct GraphSummary {
  Weight total = 0;
  std::uint64_t pairs = 0;
  Weight max = 0;
};
GraphSummary summarize(const SparseGraph& graph);

/// The sharing pattern the graph shows, in the paper's words (§IV): "none", "fully connected"
/// (every pair shares), "index_y only" (only blocks in one grid row share: the reads depend on
/// blockIdx.y alone), "index_x only" (only blocks in one grid column), "index_xy" (rows and
/// columns, nothing else), "index_x+y" (other pairs too, e.g. diagonal neighbours of a stencil);
/// a 1-D grid is "fully connected" or "partial (1-D grid)" (e.g. neighbours sharing a halo).
std::string graph_pattern(const SparseGraph& graph, const tracebuf::Dim3& grid);

}  // namespace memcarlo::locality
