// The spmv pattern against the CSR structure it claims: Listing 2's loads table, one y[ind]
// record per warp iteration with lanes dropping out as their rows end, consecutive row ranges in
// indices/val, and the column distribution of the random and block-diagonal matrices.
#include <gtest/gtest.h>

#include <array>
#include <set>

#include "synth_test_util.hpp"

namespace memcarlo::synth {
namespace {

using testing::all_records;
using testing::allocation_base;
using testing::generate_and_open;
using testing::load_id;
using testing::properties;
using testing::Record;

SynthOptions spmv_options(std::uint32_t blocks, std::uint32_t threads, std::uint32_t nnz,
                          MatrixLayout matrix = MatrixLayout::kRandom) {
  SynthOptions options;
  options.pattern = "spmv";
  options.blocks = blocks;
  options.threads = threads;
  options.nnz_per_row = nnz;
  options.matrix = matrix;
  options.seed = 7;
  return options;
}

TEST(SpmvPattern, LoadsTableFollowsListingTwoWithSequencesAndTheYDependence) {
  const auto reader = generate_and_open(spmv_options(1, 32, 4), "spmv-loads");
  const auto& loads = reader.loads();
  ASSERT_EQ(loads.size(), 6u);
  const std::vector<std::string> expressions = {
      "rowIndices[myi]", "rowIndices[myi+1]", "indices[j]", "y[ind]", "val[j]", "x[myi]"};
  const std::vector<std::uint32_t> lines = {5, 6, 8, 9, 10, 12};
  const std::vector<std::int64_t> sequences = {0, 0, 1, 2, 2, 3};
  const std::vector<std::uint32_t> depths = {0, 0, 1, 1, 1, 0};
  const std::vector<std::string> bases = {"rowIndices", "rowIndices", "indices", "y", "val", "x"};
  for (std::size_t i = 0; i < loads.size(); ++i) {
    EXPECT_EQ(loads[i].expression, expressions[i]);
    EXPECT_EQ(loads[i].line, lines[i]) << expressions[i];
    EXPECT_EQ(loads[i].sequence, sequences[i]) << expressions[i];
    EXPECT_EQ(loads[i].loop_depth, depths[i]) << expressions[i];
    EXPECT_EQ(loads[i].base, bases[i]);
    EXPECT_EQ(loads[i].kind, i == 5 ? tracebuf::AccessKind::kWrite : tracebuf::AccessKind::kRead);
    EXPECT_EQ(loads[i].depends_on,
              i == 3 ? std::vector<std::uint32_t>{2} : std::vector<std::uint32_t>{});
  }
  EXPECT_EQ(loads[2].element_type, "unsigned int");
  EXPECT_EQ(loads[3].element_type, "float");
  EXPECT_EQ(loads[0].function, "spmv_csr_scalar");
}

TEST(SpmvPattern, OneYRecordPerWarpIterationAndActiveLanesSumToTheNonZeros) {
  const auto reader = generate_and_open(spmv_options(3, 96, 12), "spmv-counts");
  const std::uint64_t nonzeros = properties(reader)["facts"]["nonzeros"];
  const std::uint32_t y = load_id(reader, "y[ind]");
  const std::uint32_t indices = load_id(reader, "indices[j]");
  const std::uint32_t val = load_id(reader, "val[j]");
  std::uint64_t y_lanes = 0;
  std::uint64_t y_records = 0;
  std::uint64_t expected_y_records = 0;
  for (const auto& stream : reader.launches().at(0).warps) {
    std::vector<Record> warp;
    for (const Record& record : all_records(reader)) {
      if (record.block == stream.block && record.warp == stream.warp) {
        warp.push_back(record);
      }
    }
    // Per lane: the number of iterations it is active in (its row length); masks only shrink.
    std::array<std::uint32_t, 32> row_length{};
    std::uint32_t previous_mask = 0xFFFFFFFFu;
    for (const Record& record : warp) {
      if (record.static_id == y) {
        ++y_records;
        y_lanes += record.lanes();
        EXPECT_EQ(record.mask & ~previous_mask, 0u) << "a lane came back after its row ended";
        previous_mask = record.mask;
        for (const auto& [lane, address] : record.addresses) {
          ++row_length[lane];
        }
      }
    }
    expected_y_records += *std::max_element(row_length.begin(), row_length.end());
    // Program order: 2 row bounds, (indices, y, val) per iteration, the store.
    ASSERT_EQ((warp.size() - 3) % 3, 0u);
    for (std::size_t i = 2; i + 1 < warp.size(); i += 3) {
      EXPECT_EQ(warp[i].static_id, indices);
      EXPECT_EQ(warp[i + 1].static_id, y);
      EXPECT_EQ(warp[i + 2].static_id, val);
      EXPECT_EQ(warp[i].mask, warp[i + 1].mask);
      EXPECT_EQ(warp[i].mask, warp[i + 2].mask);
    }
  }
  EXPECT_EQ(y_records, expected_y_records);
  EXPECT_EQ(y_lanes, nonzeros);
  // Row lengths vary within +-25 % of 12.
  EXPECT_GE(properties(reader)["facts"]["shortest_row"], 9);
  EXPECT_LE(properties(reader)["facts"]["longest_row"], 15);
  EXPECT_LT(properties(reader)["facts"]["shortest_row"],
            properties(reader)["facts"]["longest_row"]);
}

TEST(SpmvPattern, RowsOccupyConsecutiveRangesOfIndicesAndVal) {
  SynthOptions options = spmv_options(2, 64, 6);
  options.element_size = 8;
  const auto reader = generate_and_open(options, "spmv-ranges");
  const auto records = all_records(reader);
  const std::uint64_t row_indices = allocation_base(reader, "rowIndices");
  const std::uint64_t indices = allocation_base(reader, "indices");
  const std::uint64_t val = allocation_base(reader, "val");
  const std::uint64_t x = allocation_base(reader, "x");
  const std::uint64_t y = allocation_base(reader, "y");
  const std::uint64_t rows = 128;

  // Reconstruct each row's first non-zero and length from indices[j]: lane addresses at
  // iteration j are indices + 4 * (start + j).
  std::vector<std::uint64_t> start(rows, ~0ull);
  std::vector<std::uint64_t> length(rows, 0);
  std::vector<std::uint64_t> last_column(rows, 0);
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> warp_iteration;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const Record& record = records[i];
    const std::uint64_t first_row = record.block * 64u + record.warp * 32u;
    switch (record.static_id) {
      case 0:
        for (const auto& [lane, address] : record.addresses) {
          EXPECT_EQ(address, row_indices + (first_row + lane) * 4);
        }
        break;
      case 1:
        for (const auto& [lane, address] : record.addresses) {
          EXPECT_EQ(address, row_indices + (first_row + lane + 1) * 4);
        }
        break;
      case 2: {
        const std::size_t j = warp_iteration[{record.block, record.warp}];
        for (const auto& [lane, address] : record.addresses) {
          const std::uint64_t row = first_row + lane;
          if (j == 0) {
            start[row] = (address - indices) / 4;
          }
          EXPECT_EQ(address, indices + (start[row] + j) * 4);
          ++length[row];
        }
        break;
      }
      case 3: {
        const std::size_t j = warp_iteration[{record.block, record.warp}];
        for (const auto& [lane, address] : record.addresses) {
          const std::uint64_t row = first_row + lane;
          const std::uint64_t column = (address - y) / 8;
          EXPECT_LT(column, rows);
          if (j > 0) {
            EXPECT_GT(column, last_column[row]) << "columns of a row are sorted and distinct";
          }
          last_column[row] = column;
        }
        break;
      }
      case 4: {
        const std::size_t j = warp_iteration[{record.block, record.warp}]++;
        for (const auto& [lane, address] : record.addresses) {
          EXPECT_EQ(address, val + (start[first_row + lane] + j) * 8);
        }
        break;
      }
      case 5:
        EXPECT_EQ(record.mask, 0xFFFFFFFFu);
        for (const auto& [lane, address] : record.addresses) {
          EXPECT_EQ(address, x + (first_row + lane) * 8);
        }
        break;
      default:
        ADD_FAILURE() << "unexpected static id " << record.static_id;
    }
  }
  EXPECT_EQ(start[0], 0u);
  for (std::uint64_t row = 1; row < rows; ++row) {
    EXPECT_EQ(start[row], start[row - 1] + length[row - 1]) << "row " << row;
  }
  EXPECT_EQ(start[rows - 1] + length[rows - 1], properties(reader)["facts"]["nonzeros"]);
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> row_and_column_of_y(
    const tracebuf::TraceReader& reader, std::uint32_t threads) {
  const std::uint64_t y = allocation_base(reader, "y");
  std::vector<std::pair<std::uint64_t, std::uint64_t>> pairs;
  for (const Record& record : all_records(reader)) {
    if (record.static_id == load_id(reader, "y[ind]")) {
      for (const auto& [lane, address] : record.addresses) {
        pairs.emplace_back(record.block * threads + record.warp * 32u + lane, (address - y) / 4);
      }
    }
  }
  return pairs;
}

TEST(SpmvPattern, BlockDiagonalColumnsStayInTheDiagonalBlockOfTheRow) {
  const auto reader =
      generate_and_open(spmv_options(8, 128, 32, MatrixLayout::kBlockDiagonal), "spmv-bd");
  const std::uint64_t width = properties(reader)["facts"]["diagonal_block"];
  EXPECT_EQ(width, 256u);
  for (const auto& [row, column] : row_and_column_of_y(reader, 128)) {
    EXPECT_EQ(column / width, row / width) << "row " << row << " column " << column;
  }
}

TEST(SpmvPattern, RandomColumnsSpreadOverTheWholeRow) {
  const auto reader = generate_and_open(spmv_options(8, 128, 32), "spmv-random");
  std::uint64_t outside_diagonal_block = 0;
  std::uint64_t total = 0;
  for (const auto& [row, column] : row_and_column_of_y(reader, 128)) {
    outside_diagonal_block += column / 256 != row / 256 ? 1 : 0;
    ++total;
  }
  // 1024 columns in 4 blocks of 256: about 3/4 of the non-zeros lie outside the row's block.
  EXPECT_GT(outside_diagonal_block, total * 2 / 3);
  EXPECT_LT(outside_diagonal_block, total * 5 / 6);
}

TEST(SpmvPattern, RowsDenserThanTheirColumnRangeStillHaveDistinctColumns) {
  // 32 rows with about 32 non-zeros each: every row is (nearly) full.
  const auto reader = generate_and_open(spmv_options(1, 32, 32), "spmv-dense");
  const auto json = properties(reader);
  EXPECT_LE(json["facts"]["longest_row"], 32);
  std::map<std::uint64_t, std::set<std::uint64_t>> columns;
  std::uint64_t count = 0;
  for (const auto& [row, column] : row_and_column_of_y(reader, 32)) {
    columns[row].insert(column);
    ++count;
  }
  std::uint64_t distinct = 0;
  for (const auto& [row, set] : columns) {
    distinct += set.size();
  }
  EXPECT_EQ(distinct, count);
  EXPECT_EQ(count, json["facts"]["nonzeros"]);
}

}  // namespace
}  // namespace memcarlo::synth
