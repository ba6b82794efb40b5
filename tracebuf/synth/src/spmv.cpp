// Pattern "spmv": scalar CSR sparse matrix-vector product, one thread per row, in the shape (and
// with the line numbers) of Listing 2 of the PPoPP'12 paper. Lanes whose row has fewer non-zeros
// than the longest row of the warp drop out of the active mask in later iterations.
#include <algorithm>
#include <array>
#include <bit>
#include <vector>

#include "index_forms.hpp"
#include "pattern.hpp"
#include "random.hpp"
#include "trace_builder.hpp"
#include "warp_walk.hpp"

namespace memcarlo::synth {
namespace {

// Listing 2 of the paper, verbatim, so that loads read "line 8 indices[j]" as in its Figure 8.
const std::vector<std::string> kListing = {
    "float t = 0;",
    "unsigned int myi = bid * BLOCKSIZE + tid;",
    "",
    "if ( myi < numRows ){",
    "    unsigned int lb = rowIndices[myi];",
    "    unsigned int ub = rowIndices[myi+1];",
    "    for ( j = lb; j < ub; j++ ) {",
    "        unsigned int ind = indices[j];",
    "        yval = y[ind];",
    "        t += val[j] * yval;",
    "    }",
    "    x[myi] = t;",
    "}",
};

constexpr std::uint64_t kLengthStream = 0x6C656E67746800ull;  // "length"
constexpr std::uint64_t kColumnStream = 0x636F6C756D6E00ull;  // "column"
constexpr std::uint32_t kIndexBytes = 4;                      // unsigned int
/// Narrowest diagonal block of a block-diagonal matrix (as in examples/spmv): the 32 rows of a
/// warp then share a few lines of y.
constexpr std::uint32_t kMinDiagonalBlock = 256;

/// The matrix, described row by row without storing it: row lengths vary uniformly by +-25 %
/// around the average (so the lanes of a warp finish at different iterations), columns are
/// distinct and sorted, drawn from the whole row (random) or from the diagonal block that holds
/// the row (block-diagonal).
class Matrix {
 public:
  explicit Matrix(const Parameters& p)
      : seed_(p.seed),
        rows_(std::uint64_t{p.blocks} * p.threads),
        spread_(p.nnz_per_row / 4),
        shortest_(p.nnz_per_row - spread_),
        block_diagonal_(p.matrix == MatrixLayout::kBlockDiagonal),
        diagonal_block_(std::max<std::uint64_t>(
            kMinDiagonalBlock, std::bit_ceil(2 * std::uint64_t{p.nnz_per_row + spread_}))) {}

  [[nodiscard]] std::uint64_t rows() const { return rows_; }
  [[nodiscard]] std::uint64_t longest_possible_row() const { return shortest_ + 2 * spread_; }
  [[nodiscard]] std::uint64_t diagonal_block() const { return diagonal_block_; }

  [[nodiscard]] std::uint64_t first_column(std::uint64_t row) const {
    return block_diagonal_ ? row / diagonal_block_ * diagonal_block_ : 0;
  }
  [[nodiscard]] std::uint64_t column_range(std::uint64_t row) const {
    return block_diagonal_ ? std::min(diagonal_block_, rows_ - first_column(row)) : rows_;
  }
  [[nodiscard]] std::uint32_t length(std::uint64_t row) const {
    const std::uint64_t drawn =
        shortest_ + below(keyed_hash(seed_, kLengthStream, row), 2 * spread_ + 1);
    return static_cast<std::uint32_t>(std::min(drawn, column_range(row)));
  }
  /// Sorted distinct columns of `row` into `columns`.
  void columns(std::uint64_t row, std::vector<std::uint32_t>& columns) const {
    const std::uint32_t count = length(row);
    const std::uint64_t first = first_column(row);
    const std::uint64_t range = column_range(row);
    SplitMix64 random(keyed_hash(seed_, kColumnStream, row));
    columns.clear();
    if (2 * std::uint64_t{count} <= range) {
      // Sparse: draw the missing columns and drop duplicates; one or two rounds.
      while (columns.size() < count) {
        while (columns.size() < count) {
          columns.push_back(static_cast<std::uint32_t>(first + random.below(range)));
        }
        std::sort(columns.begin(), columns.end());
        columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
      }
      return;
    }
    // Dense (a short row range): Floyd's sampling of `count` distinct values in [0, range).
    std::vector<bool> chosen(range, false);
    for (std::uint64_t j = range - count; j < range; ++j) {
      const std::uint64_t t = random.below(j + 1);
      chosen[chosen[t] ? j : t] = true;
    }
    for (std::uint64_t c = 0; c < range; ++c) {
      if (chosen[c]) {
        columns.push_back(static_cast<std::uint32_t>(first + c));
      }
    }
  }

 private:
  std::uint64_t seed_;
  std::uint64_t rows_;
  std::uint64_t spread_;
  std::uint64_t shortest_;
  bool block_diagonal_;
  std::uint64_t diagonal_block_;
};

void resolve(Parameters& p) {
  const Matrix matrix(p);
  // rowIndices and indices hold unsigned ints: rows + 1 and the non-zero count must fit.
  if (matrix.rows() >= (std::uint64_t{1} << 31)) {
    throw OptionError("spmv: --blocks x --threads = " + std::to_string(matrix.rows()) +
                      " rows; at most 2^31 - 1");
  }
  if (matrix.rows() * matrix.longest_possible_row() >= (std::uint64_t{1} << 32)) {
    throw OptionError("spmv: up to " +
                      std::to_string(matrix.rows() * matrix.longest_possible_row()) +
                      " non-zeros do not fit the unsigned int indices; reduce --blocks, "
                      "--threads or --nnz-per-row");
  }
}

void generate(const Parameters& p, TraceBuilder& trace) {
  const Matrix matrix(p);
  std::uint64_t nonzeros = 0;
  std::uint32_t shortest = 0xFFFFFFFFu;
  std::uint32_t longest = 0;
  for (std::uint64_t row = 0; row < matrix.rows(); ++row) {
    const std::uint32_t length = matrix.length(row);
    nonzeros += length;
    shortest = std::min(shortest, length);
    longest = std::max(longest, length);
  }

  const std::uint32_t e = p.element_size;
  trace.set_kernel("spmv_csr_scalar", kListing);
  const std::uint32_t row_indices =
      trace.add_array("rowIndices", (matrix.rows() + 1) * kIndexBytes);
  const std::uint32_t indices = trace.add_array("indices", nonzeros * kIndexBytes);
  const std::uint32_t val = trace.add_array("val", nonzeros * e);
  const std::uint32_t y = trace.add_array("y", matrix.rows() * e);
  const std::uint32_t x = trace.add_array("x", matrix.rows() * e);
  // Sequences (paper §2): the two row bounds issue together; the loop body starts a new one; y[ind]
  // depends on the value indices[j] loaded, so it starts another, which val[j] joins; the store
  // x[myi] after the loop is the last.
  const std::string index_type = "unsigned int";
  // The index forms the instrumenter gives this source (myi = blockIdx.x*blockDim.x + threadIdx.x):
  // the row bounds are TID_DEP, indices[j] and val[j] INDIR_RANGE over them, y[ind] INDIR.
  const std::vector<IndexTerm> myi = {{1, {"blockDim.x", "blockIdx.x"}}, {1, {"threadIdx.x"}}};
  const IndexInduction row_loop{.variable = "j",
                                .init = {{1, {"load#0"}}},
                                .bound = {{1, {"load#1"}}},
                                .init_text = "load#0",
                                .bound_text = "load#1"};
  const std::uint32_t row_start =
      trace.add_access({.line = 5,
                        .expression = "rowIndices[myi]",
                        .index_json = index_form("affine", "rowIndices",
                                                 "blockDim.x*blockIdx.x + threadIdx.x", myi, 0),
                        .array = row_indices,
                        .element_size = kIndexBytes,
                        .element_type = index_type,
                        .loop_depth = 0,
                        .sequence = 0});
  const std::uint32_t row_end =
      trace.add_access({.line = 6,
                        .expression = "rowIndices[myi+1]",
                        .index_json = index_form("affine", "rowIndices",
                                                 "blockDim.x*blockIdx.x + threadIdx.x + 1", myi, 1),
                        .array = row_indices,
                        .element_size = kIndexBytes,
                        .element_type = index_type,
                        .loop_depth = 0,
                        .sequence = 0});
  const std::uint32_t column = trace.add_access(
      {.line = 8,
       .expression = "indices[j]",
       .index_json = index_form("affine", "indices", "j", {{1, {"j"}}}, 0, {row_loop}),
       .array = indices,
       .element_size = kIndexBytes,
       .element_type = index_type,
       .loop_depth = 1,
       .sequence = 1});
  const std::uint32_t y_read = trace.add_access(
      {.line = 9,
       .expression = "y[ind]",
       .index_json = index_form("data_dependent", "y", "load#2", {{1, {"load#2"}}}, 0),
       .array = y,
       .element_size = e,
       .loop_depth = 1,
       .sequence = 2,
       .depends_on = {column}});
  const std::uint32_t value =
      trace.add_access({.line = 10,
                        .expression = "val[j]",
                        .index_json = index_form("affine", "val", "j", {{1, {"j"}}}, 0, {row_loop}),
                        .array = val,
                        .element_size = e,
                        .loop_depth = 1,
                        .sequence = 2});
  const std::uint32_t x_write = trace.add_access(
      {.line = 12,
       .expression = "x[myi]",
       .index_json = index_form("affine", "x", "blockDim.x*blockIdx.x + threadIdx.x", myi, 0),
       .kind = tracebuf::AccessKind::kWrite,
       .array = x,
       .element_size = e,
       .loop_depth = 0,
       .sequence = 3});
  trace.set_launch({p.blocks, 1, 1}, {p.threads, 1, 1}, p.blocks);
  trace.add_fact("rows", matrix.rows());
  trace.add_kernel_argument("numRows", static_cast<std::int64_t>(matrix.rows()));
  trace.add_fact("nonzeros", nonzeros);
  trace.add_fact("shortest_row", shortest);
  trace.add_fact("longest_row", longest);
  if (p.matrix == MatrixLayout::kBlockDiagonal) {
    trace.add_fact("diagonal_block", matrix.diagonal_block());
  }
  trace.begin();

  const std::uint64_t row_indices_base = trace.base(row_indices);
  const std::uint64_t indices_base = trace.base(indices);
  const std::uint64_t val_base = trace.base(val);
  const std::uint64_t y_base = trace.base(y);
  const std::uint64_t x_base = trace.base(x);
  std::array<std::vector<std::uint32_t>, tracebuf::kWarpSize> lane_columns;
  std::array<std::uint64_t, tracebuf::kWarpSize> lane_start{};  // rowIndices[myi]
  std::uint64_t next_start = 0;
  for_each_warp_1d(p, trace, [&](const Warp1d& warp) {
    const std::uint32_t lanes = warp.lanes;
    const std::uint64_t first_row = warp.first_thread;
    std::size_t warp_longest = 0;
    for (std::uint32_t lane = 0; lane < tracebuf::kWarpSize; ++lane) {
      lane_columns[lane].clear();
      if ((lanes >> lane) & 1u) {
        matrix.columns(first_row + lane, lane_columns[lane]);
        lane_start[lane] = next_start;
        next_start += lane_columns[lane].size();
        warp_longest = std::max(warp_longest, lane_columns[lane].size());
      }
    }

    add_coalesced_record(trace, row_start, lanes, row_indices_base, first_row, kIndexBytes);
    add_coalesced_record(trace, row_end, lanes, row_indices_base, first_row + 1, kIndexBytes);
    for (std::size_t j = 0; j < warp_longest; ++j) {
      std::uint32_t active = 0;
      for (std::uint32_t lane = 0; lane < tracebuf::kWarpSize; ++lane) {
        active |= (lane_columns[lane].size() > j ? 1u : 0u) << lane;
      }
      add_lane_record(trace, column, active, [&](std::uint32_t lane) {
        return indices_base + (lane_start[lane] + j) * kIndexBytes;
      });
      add_lane_record(trace, y_read, active, [&](std::uint32_t lane) {
        return y_base + std::uint64_t{lane_columns[lane][j]} * e;
      });
      add_lane_record(trace, value, active,
                      [&](std::uint32_t lane) { return val_base + (lane_start[lane] + j) * e; });
    }
    add_coalesced_record(trace, x_write, lanes, x_base, first_row, e);
  });
}

}  // namespace

const PatternDefinition& spmv_pattern() {
  static const PatternDefinition definition = {
      .info = {.name = "spmv",
               .description = "scalar CSR SpMV of the paper's Listing 2, one thread per row "
                              "(rows = blocks x threads); y[ind] depends on indices[j]",
               .options = "--nnz-per-row N (32): average non-zeros per row, +-25 % per row; "
                          "--matrix random|block-diagonal (random): columns over the whole row "
                          "or inside the 256-wide (at least) diagonal block"},
      .options = kUsesNnzPerRow | kUsesMatrix,
      .defaults = {.blocks = 64, .nnz_per_row = 32},
      .resolve = &resolve,
      .generate = &generate,
  };
  return definition;
}

}  // namespace memcarlo::synth
