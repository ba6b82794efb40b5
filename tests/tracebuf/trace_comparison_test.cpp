// The comparison of a host-backend and a cuda-backend trace (`memcarlo trace compare`): equal up
// to where the allocations lie and to barrier counts, and each kind of difference reported with
// its place.
#include "memcarlo/tracebuf/trace_comparison.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "memcarlo/tracebuf/writer.hpp"

namespace {

using memcarlo::tracebuf::compare_traces;
using memcarlo::tracebuf::CompareOptions;
using memcarlo::tracebuf::LaunchInfo;
using memcarlo::tracebuf::LoadInfo;
using memcarlo::tracebuf::TraceMeta;
using memcarlo::tracebuf::TraceReader;
using memcarlo::tracebuf::TraceWriter;
using memcarlo::tracebuf::WarpRecord;

/// Two warps of one launch: a coalesced read at `base`, then a half-warp write with `barriers`.
std::string write_trace(const std::string& name, std::uint64_t base, std::uint8_t barriers,
                        const std::function<void(std::vector<WarpRecord>&)>& edit = {}) {
  const std::string path =
      ::testing::TempDir() + "trace_compare_" + name + "_" + std::to_string(::getpid()) + ".mct";
  TraceWriter writer(path, TraceMeta{});
  std::vector<LoadInfo> loads(2);
  loads[0].id = 0;
  loads[0].expression = "in[i]";
  loads[1].id = 1;
  loads[1].expression = "out[i]";
  writer.write_loads(loads);
  LaunchInfo launch;
  launch.kernel = "k";
  launch.grid = {1, 1, 1};
  launch.block = {64, 1, 1};
  launch.snapshot_block_count = 1;
  const std::uint32_t index = writer.begin_launch(launch);
  for (std::uint32_t warp = 0; warp < 2; ++warp) {
    std::vector<WarpRecord> records(2);
    records[0].static_id = 0;
    records[0].active_mask = ~0u;
    records[1].static_id = 1;
    records[1].active_mask = 0xffffu;
    records[1].barriers = barriers;
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
      records[0].addresses[lane] = base + 128 * warp + 4 * lane;
      records[1].addresses[lane] = base + 0x10000 + 128 * warp + 4 * lane;
    }
    if (edit && warp == 1) {
      edit(records);
    }
    writer.write_warp_records(index, 0, warp, records);
  }
  writer.finish();
  return path;
}

TEST(TraceComparison, EqualUpToAllocationAddressesAndBarrierCounts) {
  const std::string host = write_trace("host", 0x200000000000, 1);
  const std::string gpu = write_trace("gpu", 0x7f1234500000, 0);
  const auto comparison = compare_traces(TraceReader::open(host), TraceReader::open(gpu));
  EXPECT_TRUE(comparison.equal()) << comparison.differences.front();
  EXPECT_EQ(comparison.records_compared, 4u);
  EXPECT_EQ(comparison.barrier_differences, 2u);
  EXPECT_FALSE(
      compare_traces(TraceReader::open(host), TraceReader::open(gpu), /*compare_barriers=*/true)
          .equal());
  std::filesystem::remove(host);
  std::filesystem::remove(gpu);
}

TEST(TraceComparison, ADifferentMaskIsReportedWithItsLaunchBlockWarpAndRecord) {
  const std::string expected = write_trace("expected_mask", 0x1000000, 0);
  const std::string actual = write_trace("actual_mask", 0x1000000, 0, [](auto& records) {
    records[1].active_mask = 0xff;  // the write split into two records on the GPU
  });
  const auto comparison = compare_traces(TraceReader::open(expected), TraceReader::open(actual));
  ASSERT_EQ(comparison.differences.size(), 1u);
  EXPECT_NE(comparison.differences[0].find("launch 0 ('k') block 0 warp 1 record 1"),
            std::string::npos)
      << comparison.differences[0];
  std::filesystem::remove(expected);
  std::filesystem::remove(actual);
}

TEST(TraceComparison, ALaneAddressOffsetAndAMissingRecordAreDifferences) {
  const std::string expected = write_trace("expected_lane", 0x1000000, 0);
  const std::string shifted = write_trace("shifted_lane", 0x1000000, 0,
                                          [](auto& records) { records[0].addresses[5] += 4; });
  const std::string shorter =
      write_trace("shorter", 0x1000000, 0, [](auto& records) { records.pop_back(); });
  EXPECT_FALSE(compare_traces(TraceReader::open(expected), TraceReader::open(shifted)).equal());
  const auto comparison = compare_traces(TraceReader::open(expected), TraceReader::open(shorter));
  ASSERT_EQ(comparison.differences.size(), 1u);
  EXPECT_NE(comparison.differences[0].find("2 records expected, 1 found"), std::string::npos);
  for (const std::string& path : {expected, shifted, shorter}) {
    std::filesystem::remove(path);
  }
}

// A GPU that ran the half-warp write of warp 1 in two goes (Volta's independent thread
// scheduling): two records where the host has one; per lane, the same accesses.
TEST(TraceComparison, PerLaneARegroupedWarpAgreesAndALaneThatDiffersIsNamed) {
  const std::string expected = write_trace("expected_split", 0x1000000, 0);
  const std::string split = write_trace("split", 0x1000000, 0, [](auto& records) {
    records[1].active_mask = 0xff00;
    auto low = records[1];
    low.active_mask = 0xff;
    records.push_back(low);
  });
  const std::string moved = write_trace("moved", 0x1000000, 0, [](auto& records) {
    records[1].active_mask = 0xff00;
    auto low = records[1];
    low.active_mask = 0xff;
    low.addresses[3] += 128;
    records.push_back(low);
  });
  const TraceReader reference = TraceReader::open(expected);
  EXPECT_FALSE(compare_traces(reference, TraceReader::open(split)).equal());
  const auto regrouped =
      compare_traces(reference, TraceReader::open(split), CompareOptions{.per_lane = true});
  EXPECT_TRUE(regrouped.equal()) << regrouped.differences.front();
  EXPECT_EQ(regrouped.regrouped_warps, 1u);
  const auto differing =
      compare_traces(reference, TraceReader::open(moved), CompareOptions{.per_lane = true});
  ASSERT_EQ(differing.differences.size(), 1u);
  EXPECT_NE(differing.differences[0].find("launch 0 ('k') block 0 warp 1 lane 3 access 1: "
                                          "expected {id 1, size 4, barriers 0, offset 140},"),
            std::string::npos)
      << differing.differences[0];
  EXPECT_EQ(differing.regrouped_warps, 0u);
  for (const std::string& path : {expected, split, moved}) {
    std::filesystem::remove(path);
  }
}

}  // namespace
