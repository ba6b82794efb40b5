// Known facts of the synthetic patterns, read back through the trace reader: every trace is
// complete and self-describing, and each pattern's addresses, masks and record counts are the
// ones its kernel listing implies.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "memcarlo/tracebuf/reader.hpp"
#include "synth_test_util.hpp"

namespace memcarlo::synth {
namespace {

using testing::all_records;
using testing::allocation_base;
using testing::generate_and_open;
using testing::load_id;
using testing::properties;
using testing::Record;
using testing::records_of;

SynthOptions options_for(const std::string& pattern) {
  SynthOptions options;
  options.pattern = pattern;
  return options;
}

std::vector<std::string> pattern_names() {
  std::vector<std::string> names;
  for (const PatternInfo& pattern : patterns()) {
    names.emplace_back(pattern.name);
  }
  return names;
}

class EveryPattern : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryPattern, WritesACompleteTraceThatPassesEveryInvariant) {
  SynthOptions options = options_for(GetParam());
  options.blocks = 4;
  SynthSummary summary;
  const auto reader = generate_and_open(options, "every-" + GetParam(), &summary);
  EXPECT_TRUE(reader.complete());
  const auto report = tracebuf::check_invariants(reader);
  EXPECT_EQ(report.addresses_outside_allocations, 0u);
  EXPECT_TRUE(report.warnings.empty());
  EXPECT_EQ(report.records, summary.records);
  EXPECT_EQ(report.warps, summary.warp_streams);
  EXPECT_GT(summary.records, 0u);
  EXPECT_EQ(summary.blocks, 4u);

  std::uint64_t lanes = 0;
  std::uint64_t transactions = 0;
  for (const Record& record : all_records(reader)) {
    lanes += record.lanes();
    transactions += record.distinct_lines();
    const tracebuf::LoadInfo& load = reader.loads().at(record.static_id);
    EXPECT_EQ(record.element_size, load.element_size) << load.expression;
    for (const auto& [lane, address] : record.addresses) {
      EXPECT_EQ(address % load.element_size, 0u) << load.expression << " lane " << lane;
    }
  }
  EXPECT_EQ(lanes, summary.lane_accesses);
  EXPECT_EQ(transactions, summary.line_transactions);
}

TEST_P(EveryPattern, RecordsThePatternItsParametersAndTheCanonicalCommand) {
  SynthOptions options = options_for(GetParam());
  options.blocks = 2;
  options.seed = 99;
  const auto reader = generate_and_open(options, "meta-" + GetParam());
  EXPECT_EQ(reader.meta().backend, "synthetic");
  EXPECT_EQ(reader.meta().command, canonical_command(options));
  EXPECT_NE(reader.meta().command.find("--pattern " + GetParam()), std::string::npos);
  const auto json = properties(reader);
  EXPECT_EQ(json["pattern"], GetParam());
  EXPECT_EQ(json["parameters"]["blocks"], 2);
  EXPECT_EQ(json["parameters"]["threads"], 256);
  EXPECT_EQ(json["parameters"]["elem_size"], 4);
  EXPECT_EQ(json["parameters"]["seed"], 99);
  EXPECT_TRUE(json["listing"].is_array());
  EXPECT_EQ(json["kernel"], reader.launches().at(0).info.kernel);
}

TEST_P(EveryPattern, LoadsTableNamesEachAccessInTheListing) {
  const auto reader = generate_and_open(options_for(GetParam()), "loads-" + GetParam());
  const auto json = properties(reader);
  const auto& listing = json["listing"];
  const std::string kernel = reader.launches().at(0).info.kernel;
  std::set<std::string> arrays;
  for (const auto& allocation : reader.allocations()) {
    arrays.insert(allocation.name);
  }
  ASSERT_FALSE(reader.loads().empty());
  for (std::size_t i = 0; i < reader.loads().size(); ++i) {
    const tracebuf::LoadInfo& load = reader.loads()[i];
    EXPECT_EQ(load.id, i);
    EXPECT_EQ(load.function, kernel);
    EXPECT_EQ(load.kernels, std::vector<std::string>{kernel});
    EXPECT_EQ(load.file, "synthetic/" + GetParam() + ".cu");
    ASSERT_GE(load.line, 1u);
    ASSERT_LE(load.line, listing.size());
    const std::string line = listing[load.line - 1];
    ASSERT_GE(load.column, 1u);
    EXPECT_EQ(line.substr(load.column - 1, load.expression.size()), load.expression);
    EXPECT_TRUE(arrays.contains(load.base)) << load.base;
    EXPECT_FALSE(load.element_type.empty());
    EXPECT_EQ(load.address_space, "global");
    EXPECT_GE(load.sequence, 0);
    for (std::uint32_t dependence : load.depends_on) {
      EXPECT_LT(dependence, load.id) << "a load depends on an earlier one";
    }
  }
}

TEST_P(EveryPattern, ArraysAreAlignedAndDisjointAndTheSnapshotCoversEveryBlock) {
  SynthOptions options = options_for(GetParam());
  options.blocks = 3;
  const auto reader = generate_and_open(options, "arrays-" + GetParam());
  auto allocations = reader.allocations();
  std::sort(allocations.begin(), allocations.end(),
            [](const auto& a, const auto& b) { return a.base < b.base; });
  for (std::size_t i = 0; i < allocations.size(); ++i) {
    EXPECT_EQ(allocations[i].base % 256, 0u) << allocations[i].name;
    EXPECT_GT(allocations[i].size, 0u) << allocations[i].name;
    if (i > 0) {
      EXPECT_LE(allocations[i - 1].base + allocations[i - 1].size, allocations[i].base);
    }
  }
  ASSERT_EQ(reader.launches().size(), 1u);
  const auto& launch = reader.launches()[0];
  EXPECT_EQ(launch.info.snapshot_first_block, 0u);
  EXPECT_EQ(launch.info.snapshot_block_count, 3u);
  std::set<std::uint32_t> blocks;
  for (const auto& stream : launch.warps) {
    blocks.insert(stream.block);
  }
  EXPECT_EQ(blocks, (std::set<std::uint32_t>{0, 1, 2}));
}

INSTANTIATE_TEST_SUITE_P(Synth, EveryPattern, ::testing::ValuesIn(pattern_names()),
                         [](const auto& test) { return test.param; });

TEST(Registry, ListsTheTenPatternsWithDescriptions) {
  EXPECT_EQ(pattern_names(),
            (std::vector<std::string>{"stream", "stride", "gather", "reuse", "spmv", "matmul",
                                      "stencil2d", "chain", "rows", "syrk"}));
  for (const PatternInfo& pattern : patterns()) {
    EXPECT_FALSE(pattern.description.empty()) << pattern.name;
    EXPECT_EQ(pattern.description.find('\n'), std::string_view::npos) << pattern.name;
    EXPECT_FALSE(pattern.options.empty()) << pattern.name;
  }
}

TEST(StreamPattern, LanesAreConsecutiveElementsAndEveryLineIsReadOnce) {
  SynthOptions options = options_for("stream");
  options.blocks = 3;
  options.threads = 96;
  options.iterations = 2;
  const auto reader = generate_and_open(options, "stream");
  const auto records = all_records(reader);
  const std::uint32_t in = load_id(reader, "in[i]");
  const std::uint32_t out = load_id(reader, "out[i]");
  const std::uint64_t in_base = allocation_base(reader, "in");
  EXPECT_EQ(records.size(), 3u * 3 * 2 * 2);  // blocks x warps x iterations x (read, write)
  EXPECT_EQ(reader.loads()[in].kind, tracebuf::AccessKind::kRead);
  EXPECT_EQ(reader.loads()[out].kind, tracebuf::AccessKind::kWrite);
  EXPECT_NE(reader.loads()[in].sequence, reader.loads()[out].sequence);

  std::set<std::uint64_t> lines_read;
  std::size_t k = 0;
  for (const Record& record : records_of(records, in)) {
    EXPECT_EQ(record.mask, 0xFFFFFFFFu);
    EXPECT_EQ(record.distinct_lines(), 1u) << "one transaction per request";
    const std::uint64_t first_thread = record.block * 96u + record.warp * 32u;
    const std::uint64_t iteration = k++ % 2;
    for (const auto& [lane, address] : record.addresses) {
      EXPECT_EQ(address, in_base + (first_thread + lane + iteration * 3 * 96) * 4);
    }
    const bool fresh = lines_read.insert(record.addresses.begin()->second / 128).second;
    EXPECT_TRUE(fresh) << "every read is a compulsory miss";
  }
}

TEST(StreamPattern, PartialLastWarpHasOnlyTheBlocksThreadsActive) {
  SynthOptions options = options_for("stream");
  options.blocks = 2;
  options.threads = 80;
  options.iterations = 1;
  const auto reader = generate_and_open(options, "stream-partial");
  for (const Record& record : all_records(reader)) {
    EXPECT_EQ(record.mask, record.warp == 2 ? 0xFFFFu : 0xFFFFFFFFu);
  }
}

TEST(StreamPattern, EightByteElementsNeedTwoTransactionsPerRequest) {
  SynthOptions options = options_for("stream");
  options.blocks = 1;
  options.element_size = 8;
  const auto reader = generate_and_open(options, "stream-double");
  for (const Record& record : all_records(reader)) {
    EXPECT_EQ(record.distinct_lines(), 2u);
    EXPECT_EQ(record.addresses.at(1) - record.addresses.at(0), 8u);
  }
}

TEST(StridePattern, StrideTwoFloatsAreEightBytesApartInTwoLines) {
  SynthOptions options = options_for("stride");
  options.blocks = 2;
  options.stride = 2;
  options.iterations = 3;
  const auto reader = generate_and_open(options, "stride");
  const auto records = all_records(reader);
  const std::uint32_t read = load_id(reader, "a[i * K]");
  const std::uint64_t a_base = allocation_base(reader, "a");
  const auto reads = records_of(records, read);
  EXPECT_EQ(reads.size(), 2u * 8 * 3);
  std::size_t k = 0;
  for (const Record& record : reads) {
    EXPECT_EQ(record.distinct_lines(), 2u) << "2 transactions per request";
    const std::uint64_t thread = record.block * 256u + record.warp * 32u + (k++ % 3) * 2 * 256;
    for (const auto& [lane, address] : record.addresses) {
      EXPECT_EQ(address, a_base + (thread + lane) * 2 * 4);
    }
  }
  EXPECT_EQ(records_of(records, load_id(reader, "out[g]")).size(), 2u * 8);
}

TEST(StridePattern, TransactionsPerRequestGrowWithTheStrideUpToThirtyTwo) {
  for (const auto& [stride, lines] : {std::pair{1u, 1u}, {4u, 4u}, {32u, 32u}, {100u, 32u}}) {
    SynthOptions options = options_for("stride");
    options.blocks = 1;
    options.threads = 32;
    options.stride = stride;
    const auto reader = generate_and_open(options, "stride-" + std::to_string(stride));
    for (const Record& record : records_of(all_records(reader), load_id(reader, "a[i * K]"))) {
      EXPECT_EQ(record.distinct_lines(), lines) << "stride " << stride;
    }
  }
}

TEST(ChainPattern, EachThreadsLoadsFollowTheChainsStridesAndTheLoopStride) {
  SynthOptions options = options_for("chain");
  options.blocks = 2;
  options.iterations = 3;
  const auto reader = generate_and_open(options, "chain");
  const auto records = all_records(reader);
  const std::array<std::int64_t, 4> offsets = {0, -400, 40000, 39600};  // -400, 40400, -400
  const std::array<const char*, 4> expressions = {"p[0]", "p[s1]", "p[s1 + s2]", "p[s1 + s2 + s3]"};
  std::vector<std::uint64_t> first;  // each load's first lane-0 address
  for (std::size_t i = 0; i < 4; ++i) {
    const auto loads = records_of(records, load_id(reader, expressions[i]));
    ASSERT_EQ(loads.size(), 2u * 8 * 3) << expressions[i];
    first.push_back(loads[0].addresses.begin()->second);
    std::size_t k = 0;
    for (const Record& record : loads) {
      const std::uint64_t thread = record.block * 256u + record.warp * 32u;
      for (const auto& [lane, address] : record.addresses) {
        EXPECT_EQ(address, first[i] + (thread + lane) * 4 + (k % 3) * 40000) << expressions[i];
      }
      ++k;
    }
    EXPECT_EQ(static_cast<std::int64_t>(first[i] - first[0]), offsets[i]) << expressions[i];
  }
  options.chain = std::vector<std::int64_t>{3};
  EXPECT_THROW(validate(options), OptionError);  // not a multiple of the element size
  options.chain = std::vector<std::int64_t>{4, 4, 4, 4};
  EXPECT_THROW(validate(options), OptionError);  // more strides than the listing has loads
  EXPECT_EQ(parse_chain("-400,40400,-400"), (std::vector<std::int64_t>{-400, 40400, -400}));
  EXPECT_FALSE(parse_chain("-400,,4").has_value());
}

TEST(GatherPattern, AddressesAreElementAlignedInsideTheFootprint) {
  SynthOptions options = options_for("gather");
  options.blocks = 4;
  options.footprint = 64 * 1024;
  options.element_size = 8;
  options.iterations = 5;
  const auto reader = generate_and_open(options, "gather");
  const std::uint64_t base = allocation_base(reader, "a");
  const auto reads = records_of(all_records(reader), load_id(reader, "a[idx]"));
  EXPECT_EQ(reads.size(), 4u * 8 * 5);
  std::set<std::uint64_t> distinct;
  for (const Record& record : reads) {
    for (const auto& [lane, address] : record.addresses) {
      EXPECT_GE(address, base);
      EXPECT_LT(address, base + 64 * 1024);
      EXPECT_EQ((address - base) % 8, 0u);
      distinct.insert(address);
    }
  }
  // 5120 uniform draws over 8192 elements leave about 3900 distinct ones.
  EXPECT_GT(distinct.size(), 3500u);
  EXPECT_LT(distinct.size(), 4300u);
}

TEST(ReusePattern, EveryWarpReadsEveryLineOncePerPass) {
  SynthOptions options = options_for("reuse");
  options.blocks = 3;
  options.threads = 64;
  options.footprint = 1024;  // 8 lines
  options.iterations = 3;
  const auto reader = generate_and_open(options, "reuse");
  const auto records = all_records(reader);
  EXPECT_EQ(records.size(), 3u * 2 * 3 * 8);  // blocks x warps x passes x requests per pass
  EXPECT_EQ(properties(reader)["facts"]["lines"], 8);
  std::map<std::uint64_t, int> reads_per_line;
  for (const Record& record : records) {
    EXPECT_EQ(record.mask, 0xFFFFFFFFu);
    EXPECT_EQ(record.distinct_lines(), 1u);
    ++reads_per_line[record.addresses.begin()->second / 128];
  }
  ASSERT_EQ(reads_per_line.size(), 8u);
  for (const auto& [line, reads] : reads_per_line) {
    EXPECT_EQ(reads, 3 * 2 * 3) << "n = blocks x warps x passes";
  }
}

TEST(ReusePattern, TwoByteElementsReadEachLineTwicePerPassAndTheTailIsMasked) {
  SynthOptions options = options_for("reuse");
  options.blocks = 1;
  options.threads = 32;
  options.element_size = 2;
  options.footprint = 200;  // 100 elements: requests of 32, 32, 32 and 4
  options.iterations = 1;
  const auto reader = generate_and_open(options, "reuse-half");
  const auto records = all_records(reader);
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[3].mask, 0xFu);
  EXPECT_EQ(records[0].distinct_lines(), 1u);
  EXPECT_EQ(records[0].addresses.begin()->second / 128, records[1].addresses.begin()->second / 128);
}

// rows, N = 64 floats: lane l of warp w reads a[(32w + l) * 64 + k] at step k, so a record's
// lanes are 256 bytes apart (32 lines) and a thread's addresses step 4 bytes: its line repeats
// for 32 steps.
TEST(RowsPattern, LanesAreARowApartAndEachThreadWalksItsOwnRow) {
  SynthOptions options = options_for("rows");
  options.blocks = 2;
  options.threads = 64;
  options.size = 64;
  const auto reader = generate_and_open(options, "rows");
  const std::uint32_t a = load_id(reader, "a[g * N + k]");
  const std::uint32_t out = load_id(reader, "out[g]");
  const std::uint64_t a_base = allocation_base(reader, "a");
  const auto records = all_records(reader);
  EXPECT_EQ(records.size(), 2u * 2 * (64 + 1));  // blocks x warps x (N reads + the store)
  std::size_t k = 0;
  for (const Record& record : records) {
    if (record.static_id == out) {
      EXPECT_EQ(record.distinct_lines(), 1u);
      k = 0;
      continue;
    }
    ASSERT_EQ(record.static_id, a);
    const std::uint64_t first_thread = record.block * 64u + record.warp * 32u;
    EXPECT_EQ(record.addresses.at(0), a_base + (first_thread * 64 + k) * 4);
    EXPECT_EQ(record.addresses.at(1) - record.addresses.at(0), 256u);
    EXPECT_EQ(record.distinct_lines(), 32u);
    ++k;
  }
}

TEST(MatmulPattern, ARowIsBroadcastAndBIsCoalesced) {
  SynthOptions options = options_for("matmul");
  options.size = 64;
  const auto reader = generate_and_open(options, "matmul");
  const auto& launch = reader.launches().at(0).info;
  EXPECT_EQ(launch.block, (tracebuf::Dim3{32, 8, 1}));
  EXPECT_EQ(launch.grid, (tracebuf::Dim3{2, 8, 1}));
  EXPECT_EQ(launch.snapshot_block_count, 16u);
  const auto records = all_records(reader);
  const std::uint32_t a = load_id(reader, "A[row * N + k]");
  const std::uint32_t b = load_id(reader, "B[k * N + col]");
  const std::uint32_t c = load_id(reader, "C[row * N + col]");
  EXPECT_EQ(records.size(), 16u * 8 * (2 * 64 + 1));
  const std::uint64_t a_base = allocation_base(reader, "A");
  const std::uint64_t b_base = allocation_base(reader, "B");
  std::size_t k = 0;
  for (const Record& record : records) {
    if (record.static_id == a) {
      std::set<std::uint64_t> addresses;
      for (const auto& [lane, address] : record.addresses) {
        addresses.insert(address);
      }
      const std::uint64_t row = record.block / 2 * 8 + record.warp;
      EXPECT_EQ(addresses, (std::set<std::uint64_t>{a_base + (row * 64 + k) * 4}));
    } else if (record.static_id == b) {
      const std::uint64_t column = record.block % 2 * 32;
      EXPECT_EQ(record.addresses.at(0), b_base + (k * 64 + column) * 4);
      EXPECT_EQ(record.addresses.at(31) - record.addresses.at(0), 31u * 4);
      EXPECT_EQ(record.distinct_lines(), 1u);
      k = (k + 1) % 64;
    } else {
      EXPECT_EQ(record.static_id, c);
      EXPECT_EQ(record.kind, tracebuf::AccessKind::kWrite);
    }
  }
}

// syrk, N = 64, blocks of 32 x 8: A[i][k] is one address per warp (its row i = the warp's row of
// the block), A[j][k] one row per lane (j = the lane's column), 256 bytes apart; C[i][j] is read
// and written once before the k loop (scaled by beta) and once in each iteration, each lane its own
// element: 2 + 4 x 64 records per warp.
TEST(SyrkPattern, OneArrayIsReadAsARowBroadcastAndAsARowPerLane) {
  SynthOptions options = options_for("syrk");
  options.size = 64;
  const auto reader = generate_and_open(options, "syrk");
  EXPECT_EQ(reader.launches().at(0).info.grid, (tracebuf::Dim3{2, 8, 1}));
  const auto records = all_records(reader);
  const std::uint32_t row_read = load_id(reader, "A[i * N + k]");
  const std::uint32_t column_read = load_id(reader, "A[j * N + k]");
  EXPECT_EQ(records.size(), 16u * 8 * (2 + 4 * 64));
  const std::uint64_t a_base = allocation_base(reader, "A");
  const std::uint64_t c_base = allocation_base(reader, "C");
  std::size_t k = 0;
  std::map<tracebuf::AccessKind, std::size_t> c_records;
  for (const Record& record : records) {
    if (record.static_id == row_read) {
      std::set<std::uint64_t> addresses;
      for (const auto& [lane, address] : record.addresses) {
        addresses.insert(address);
      }
      const std::uint64_t i = record.block / 2 * 8 + record.warp;
      EXPECT_EQ(addresses, (std::set<std::uint64_t>{a_base + (i * 64 + k) * 4}));
    } else if (record.static_id == column_read) {
      const std::uint64_t j = record.block % 2 * 32;
      EXPECT_EQ(record.addresses.at(0), a_base + (j * 64 + k) * 4);
      EXPECT_EQ(record.addresses.at(31) - record.addresses.at(0), 31u * 64 * 4);
      EXPECT_EQ(record.distinct_lines(), 32u);
      k = (k + 1) % 64;
    } else {
      const std::uint64_t i = record.block / 2 * 8 + record.warp;
      const std::uint64_t j = record.block % 2 * 32;
      EXPECT_EQ(record.addresses.at(0), c_base + (i * 64 + j) * 4);
      EXPECT_EQ(record.addresses.at(31) - record.addresses.at(0), 31u * 4);
      ++c_records[record.kind];
    }
  }
  EXPECT_EQ(c_records[tracebuf::AccessKind::kRead], 16u * 8 * 65);
  EXPECT_EQ(c_records[tracebuf::AccessKind::kWrite], 16u * 8 * 65);
}

TEST(MatmulPattern, SixteenWideBlocksTouchTwoRowsOfA) {
  SynthOptions options = options_for("matmul");
  options.size = 32;
  options.block_width = 16;
  options.blocks = 1;
  const auto reader = generate_and_open(options, "matmul-16");
  for (const Record& record : records_of(all_records(reader), load_id(reader, "A[row * N + k]"))) {
    EXPECT_EQ(record.distinct_lines(), 2u);
    EXPECT_EQ(record.addresses.at(16) - record.addresses.at(0), 32u * 4);
  }
}

TEST(MatmulPattern, ThreadsOutsideCAreInactiveAndEmptyWarpsHaveNoStream) {
  SynthOptions options = options_for("matmul");
  options.size = 36;  // grid 2 x 5 of 32 x 8 blocks; columns 36.., rows 36.. idle
  const auto reader = generate_and_open(options, "matmul-edge");
  const auto& launch = reader.launches().at(0);
  EXPECT_EQ(launch.info.grid, (tracebuf::Dim3{2, 5, 1}));
  std::size_t streams_in_last_block = 0;
  for (const auto& stream : launch.warps) {
    if (stream.block == 9) {
      ++streams_in_last_block;  // rows 32..39: only warps 0..3 (rows 32..35) exist
    }
  }
  EXPECT_EQ(streams_in_last_block, 4u);
  for (const Record& record : all_records(reader)) {
    EXPECT_EQ(record.mask, record.block % 2 == 1 ? 0xFu : 0xFFFFFFFFu);
  }
}

TEST(Stencil2dPattern, InteriorLanesReadTheirFourNeighbours) {
  SynthOptions options = options_for("stencil2d");
  options.size = 34;  // grid 2 x 5 of 32 x 8 blocks
  const auto reader = generate_and_open(options, "stencil");
  const auto records = all_records(reader);
  const std::uint32_t center = load_id(reader, "in[y * N + x]");
  const std::uint32_t north = load_id(reader, "in[(y - 1) * N + x]");
  const std::uint32_t south = load_id(reader, "in[(y + 1) * N + x]");
  const std::uint32_t west = load_id(reader, "in[y * N + (x - 1)]");
  const std::uint32_t east = load_id(reader, "in[y * N + (x + 1)]");
  const std::uint32_t write = load_id(reader, "out[y * N + x]");
  for (std::uint32_t id : {center, north, south, west, east}) {
    EXPECT_EQ(reader.loads()[id].sequence, 0);
  }
  EXPECT_EQ(reader.loads()[write].sequence, 1);

  std::uint64_t interior_points = 0;
  for (std::size_t i = 0; i + 5 < records.size(); i += 6) {
    ASSERT_EQ(records[i].static_id, center);
    ASSERT_EQ(records[i + 5].static_id, write);
    const Record& c = records[i];
    const std::uint32_t y = c.block / 2 * 8 + c.warp;
    EXPECT_GE(y, 1u) << "row 0 is boundary: no stream";
    EXPECT_LE(y, 32u) << "rows 33.. are boundary or outside: no stream";
    for (std::size_t j = 1; j < 6; ++j) {
      EXPECT_EQ(records[i + j].mask, c.mask);
    }
    for (const auto& [lane, address] : c.addresses) {
      EXPECT_EQ(records[i + 1].addresses.at(lane), address - 34 * 4);
      EXPECT_EQ(records[i + 2].addresses.at(lane), address + 34 * 4);
      EXPECT_EQ(records[i + 3].addresses.at(lane), address - 4);
      EXPECT_EQ(records[i + 4].addresses.at(lane), address + 4);
    }
    if (c.block == 0 && c.warp == 1) {
      EXPECT_EQ(c.mask, 0xFFFFFFFEu) << "x = 0 is boundary";
    }
    if (c.block == 1 && c.warp == 1) {
      EXPECT_EQ(c.mask, 0x1u) << "only x = 32 is interior";
    }
    interior_points += c.lanes();
  }
  EXPECT_EQ(interior_points, 32u * 32);
}

}  // namespace
}  // namespace memcarlo::synth
