// The host side of the warp rings: complete lines are consumed in position order and published
// back, incomplete ones wait, wrap-around is told apart by stamps, and concurrent producers
// (divergent groups, blocks sharing a block buffer) come out as per-warp streams in program order.
#include "ring_drainer.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <bit>
#include <map>
#include <thread>
#include <tuple>
#include <vector>

#include "host_producer.hpp"

namespace {

using cuda_backend_test::HostRings;
using cuda_backend_test::make_line;
using memcarlo::cuda::detail::BufferGeometry;
using memcarlo::cuda::detail::LaunchRecords;
using memcarlo::cuda::detail::LineDecoder;
using memcarlo::cuda::detail::RingDrainer;
using memcarlo::cuda::detail::RingLine;
using memcarlo::host::detail::LoadsRegistry;
using memcarlo::tracebuf::WarpRecord;

constexpr unsigned kUnit = 0x5u;

BufferGeometry geometry(std::uint32_t slots, std::uint32_t warps, std::uint32_t lines) {
  BufferGeometry g;
  g.slot_count = slots;
  g.warps_per_block = warps;
  g.lines_per_ring = lines;
  return g;
}

/// Lines as the sink saw them: (ring, address of lane 0).
std::vector<std::pair<std::uint64_t, std::uint64_t>> drain_all(RingDrainer& drainer) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> seen;
  drainer.drain([&](std::uint64_t ring, const RingLine& line) {
    seen.emplace_back(ring, line.addresses[0]);
  });
  return seen;
}

TEST(RingDrainer, ConsumesCompleteLinesInPositionOrderAndPublishesTheCount) {
  HostRings rings(geometry(2, 2, 4));
  ASSERT_TRUE(rings.produce(0, 0, 1, make_line(kUnit, 0, 1, 100)));
  ASSERT_TRUE(rings.produce(0, 0, 1, make_line(kUnit, 0, 1, 200)));
  ASSERT_TRUE(rings.produce(1, 0, 0, make_line(kUnit, 0, 1, 300)));
  RingDrainer drainer(rings.view());
  using Seen = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
  EXPECT_EQ(drain_all(drainer), (Seen{{1, 100}, {1, 200}, {2, 300}}));
  EXPECT_EQ(rings.view().consumed[1], 2u);
  EXPECT_EQ(rings.view().consumed[2], 1u);
  EXPECT_EQ(drainer.drain([](std::uint64_t, const RingLine&) {}), 0u);
}

TEST(RingDrainer, WaitsAtTheFirstLineNotYetComplete) {
  HostRings rings(geometry(1, 1, 4));
  ASSERT_TRUE(rings.produce(0, 0, 0, make_line(kUnit, 0, 1, 100)));
  rings.reserve_and_abandon(0, 0, 0);  // position 1: reserved, being written
  ASSERT_TRUE(rings.produce(0, 0, 0, make_line(kUnit, 0, 1, 300)));
  RingDrainer drainer(rings.view());
  EXPECT_EQ(drain_all(drainer).size(), 1u);
  EXPECT_EQ(rings.view().consumed[0], 1u);
  // The line at position 1 completes: both it and position 2 come out, in order.
  RingLine& line = rings.view().lines[1];
  line.addresses[0] = 200;
  std::atomic_ref<std::uint64_t>(line.stamp).store(2, std::memory_order_release);
  using Seen = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
  EXPECT_EQ(drain_all(drainer), (Seen{{0, 200}, {0, 300}}));
}

TEST(RingDrainer, AStampFromThePreviousLapIsNotAcceptedAfterWrapping) {
  HostRings rings(geometry(1, 1, 2));
  RingDrainer drainer(rings.view());
  for (std::uint64_t lap = 0; lap < 3; ++lap) {
    ASSERT_TRUE(rings.produce(0, 0, 0, make_line(kUnit, 0, 1, 10 * lap)));
    ASSERT_TRUE(rings.produce(0, 0, 0, make_line(kUnit, 0, 1, 10 * lap + 1)));
    EXPECT_EQ(drain_all(drainer).size(), 2u);
    // Lines 0 and 1 still hold this lap's stamps, which are not the next lap's.
    EXPECT_EQ(drain_all(drainer).size(), 0u);
  }
  EXPECT_EQ(rings.view().consumed[0], 6u);
}

TEST(RingDrainer, RequestStopMakesWaitingProducersGiveUp) {
  HostRings rings(geometry(1, 1, 4));
  RingDrainer drainer(rings.view());
  std::atomic<int> refused = 0;
  std::thread producer([&] {
    for (int i = 0; i < 100; ++i) {
      if (!rings.produce(0, 0, 0, make_line(kUnit, 0, 1, static_cast<std::uint64_t>(i)))) {
        ++refused;
      }
    }
  });
  while (std::atomic_ref<std::uint64_t>(rings.view().lines[3].stamp).load() == 0) {
    std::this_thread::yield();  // the ring is full
  }
  drainer.request_stop();
  producer.join();
  EXPECT_EQ(refused.load(), 96);
  EXPECT_EQ(*rings.view().stop, 1u);
}

class LaunchRecordsTest : public ::testing::Test {
 protected:
  LaunchRecordsTest() {
    registry_.add(kUnit, R"([
      {"id": 0, "function": "k", "expression": "a[i]", "kind": "read", "element_size": 4},
      {"id": 1, "function": "k", "expression": "b[i]", "kind": "write", "element_size": 4}
    ])");
  }

  LineDecoder decoder(std::uint64_t first, std::uint64_t count) {
    return LineDecoder(registry_.index(), 2, first, count);
  }

  using Flushed = std::vector<std::tuple<std::uint32_t, std::uint32_t, std::vector<std::uint64_t>>>;
  LaunchRecords::Flush recorder() {
    return [this](std::uint32_t block, std::uint32_t warp, std::span<const WarpRecord> records) {
      std::vector<std::uint64_t> lane0;
      for (const WarpRecord& record : records) {
        lane0.push_back(record.addresses[0]);
      }
      flushed_.emplace_back(block, warp, lane0);
    };
  }

  LoadsRegistry registry_;
  Flushed flushed_;
};

TEST_F(LaunchRecordsTest, StreamsGoOutInBlockWarpOrderAndInPiecesWhenLong) {
  const BufferGeometry g = geometry(2, 2, 8);
  LaunchRecords records(decoder(4, 3), g, 4, recorder(), /*flush_records=*/2);
  auto add = [&](std::uint32_t block, std::uint32_t warp, std::uint64_t address) {
    RingLine line = make_line(kUnit, 0, 1, address);
    line.block = block;
    records.add(g.ring_of(block, 4, warp), line);
  };
  add(6, 1, 61);
  add(4, 0, 40);
  add(6, 1, 62);  // block 6 warp 1 reaches 2 records: flushed now
  add(5, 1, 50);
  add(4, 0, 41);  // block 4 warp 0 too
  add(4, 1, 45);
  add(6, 1, 63);
  records.finish();
  EXPECT_EQ(
      flushed_,
      (Flushed{{6, 1, {61, 62}}, {4, 0, {40, 41}}, {4, 1, {45}}, {5, 1, {50}}, {6, 1, {63}}}));
  EXPECT_EQ(records.counts().records, 7u);
}

TEST_F(LaunchRecordsTest, CountsWhatItDrops) {
  const BufferGeometry g = geometry(1, 1, 8);
  LaunchRecords records(decoder(0, 1), g, 0, recorder());
  RingLine partly_shared = make_line(kUnit, 0, 0x1, 0);
  partly_shared.group_mask = 0x7;  // two lanes had shared-memory addresses
  records.add(0, partly_shared);
  records.add(0, make_line(kUnit, 9, 1, 0));
  RingLine outside = make_line(kUnit, 0, 1, 0);
  outside.block = 3;
  records.add(0, outside);
  records.finish();
  EXPECT_EQ(records.counts().records, 1u);
  EXPECT_EQ(records.counts().non_global_lanes, 2u);
  EXPECT_EQ(records.counts().unknown_load_lines, 1u);
  EXPECT_EQ(records.counts().malformed_lines, 1u);
}

// Producers run concurrently with the drainer on small rings (so they often wait for room):
// every warp of 12 blocks in 4 shared block buffers, two producer threads per warp standing for
// divergent groups of one warp, each writing an increasing sequence. Every stream must come out
// complete, and each group's sequence in order.
TEST_F(LaunchRecordsTest, ConcurrentProducersComeOutAsPerWarpStreamsInProgramOrder) {
  constexpr std::uint32_t kBlocks = 12;
  constexpr std::uint32_t kWarps = 2;
  constexpr std::uint64_t kFirst = 100;
  constexpr std::uint64_t kPerGroup = 300;
  const BufferGeometry g = geometry(4, kWarps, 4);
  HostRings rings(g);
  RingDrainer drainer(rings.view());
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint64_t>> streams;
  LaunchRecords records(
      decoder(kFirst, kBlocks), g, kFirst,
      [&](std::uint32_t block, std::uint32_t warp, std::span<const WarpRecord> piece) {
        for (const WarpRecord& record : piece) {
          const int lane = std::countr_zero(record.active_mask);
          streams[{block, warp}].push_back(record.addresses[static_cast<std::size_t>(lane)]);
        }
      },
      64);
  std::atomic<bool> done = false;
  std::thread drain_thread([&] {
    auto sink = [&](std::uint64_t ring, const RingLine& line) { records.add(ring, line); };
    while (!done.load()) {
      if (drainer.drain(sink) == 0) {
        std::this_thread::yield();
      }
    }
    drainer.drain(sink);
  });
  std::vector<std::thread> producers;
  for (std::uint32_t block = 0; block < kBlocks; ++block) {
    for (std::uint32_t warp = 0; warp < kWarps; ++warp) {
      for (std::uint64_t group = 0; group < 2; ++group) {
        producers.emplace_back([&, block, warp, group] {
          for (std::uint64_t i = 0; i < kPerGroup; ++i) {
            // The group's lowest lane carries (group, i); the groups' lanes are disjoint.
            RingLine line = make_line(kUnit, 1, group == 0 ? 0x0000ffffu : 0xffff0000u, 0);
            line.addresses[group == 0 ? 0 : 16] = group << 32 | i;
            ASSERT_TRUE(rings.produce(kFirst + block, kFirst, warp, line));
          }
        });
      }
    }
  }
  for (std::thread& producer : producers) {
    producer.join();
  }
  done = true;
  drain_thread.join();
  records.finish();
  ASSERT_EQ(streams.size(), std::size_t{kBlocks} * kWarps);
  for (const auto& [key, sequence] : streams) {
    ASSERT_EQ(sequence.size(), 2 * kPerGroup) << "block " << key.first << " warp " << key.second;
    std::uint64_t next[2] = {0, 0};
    for (const std::uint64_t value : sequence) {
      const std::uint64_t group = value >> 32;
      EXPECT_EQ(value & 0xffffffffu, next[group])
          << "block " << key.first << " warp " << key.second;
      next[group] = (value & 0xffffffffu) + 1;
    }
  }
  EXPECT_EQ(records.counts().records, std::uint64_t{kBlocks} * kWarps * 2 * kPerGroup);
  EXPECT_EQ(records.counts().malformed_lines, 0u);
}

}  // namespace
