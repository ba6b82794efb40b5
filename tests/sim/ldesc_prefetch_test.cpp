// Known answers of the ldesc prefetcher (prefetch.policy=ldesc, paper §4.5): the addresses it
// asks for, by hand, on accesses built one by one (NEARBY: the next line; COACCESSED REGULAR:
// L1 bytes / (active D-Tiles x D-Tile width) strides ahead; nothing for other data, for hits,
// past the data structure, or without descriptors), then its counts in whole trials.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "memcarlo/sim/hierarchy_loader.hpp"
#include "prefetch/ldesc.hpp"
#include "trace_builder.hpp"

namespace memcarlo::sim {
namespace {

using prefetch::LdescPrefetcher;
using testing::run_one;
using testing::TraceBuilder;
using tracebuf::AccessKind;
using tracebuf::LocalityDescriptor;

constexpr std::uint64_t kLine = 128;

/// What a prefetcher asked for.
struct RecordingSink {
  std::vector<std::uint64_t> addresses;
  void prefetch(ByteAddress address) { addresses.push_back(value_of(address)); }
};

/// Calls on_access for a miss (or hit) of SM `sm` on `address`'s line with an L1 of `l1_lines`.
std::vector<std::uint64_t> asked(LdescPrefetcher& prefetcher, std::uint64_t address,
                                 bool hit = false, std::uint32_t l1_lines = 8,
                                 std::uint32_t sm = 0) {
  RandomStream random;
  const std::uint64_t line = address / kLine * kLine;
  const prefetch::L1Access access{SmIndex{sm},
                                  ResidentWarp{0},
                                  StaticLoadId{0},
                                  ByteAddress{line},
                                  ByteAddress{address},
                                  4,
                                  true,
                                  true,
                                  hit,
                                  BlockId{0},
                                  0,
                                  1,
                                  Cycles{0},
                                  0,
                                  l1_lines,
                                  0,
                                  random};
  RecordingSink sink;
  prefetcher.on_access(access, sink);
  return sink.addresses;
}

/// A 2D array of 1024 x 64 four-byte elements (4 KiB rows) at 1 MiB: D-Tiles of 32 x 64
/// elements (128 bytes wide), read down their columns: stride 1024 elements = 4 KiB.
LocalityDescriptor coaccessed_regular() {
  LocalityDescriptor d;
  d.address = 0x100000;
  d.size = 1024 * 64 * 4;
  d.element_size = 4;
  d.shape = {1024, 64, 1};
  d.type = tracebuf::LocalityType::kInterThread;
  d.data_tile = {32, 64, 1};
  d.compute_tile = {1, 1, 1};
  d.sharing = tracebuf::SharingType::kCoaccessed;
  d.pattern = tracebuf::AccessPattern::kRegular;
  d.stride = 1024;
  return d;
}

LocalityDescriptor nearby() {
  LocalityDescriptor d;
  d.address = 0x400000;
  d.size = 8 * kLine;
  d.element_size = 4;
  d.shape = {8 * 32, 1, 1};
  d.data_tile = d.shape;
  d.type = tracebuf::LocalityType::kInterThread;
  d.sharing = tracebuf::SharingType::kNearby;
  return d;
}

LdescPrefetcher started(const std::vector<LocalityDescriptor>& descriptors) {
  LdescPrefetcher prefetcher(load_hierarchy("fermi-c2050", {}));
  LaunchTrace launch;
  launch.descriptors = descriptors;
  prefetcher.begin_launch(2, launch);
  return prefetcher;
}

TEST(LdescPrefetcherAddresses, NearbyAsksForTheNextLineOnAMissInsideTheDataStructure) {
  LdescPrefetcher p = started({nearby()});
  EXPECT_EQ(asked(p, 0x400000), std::vector<std::uint64_t>{0x400080});
  EXPECT_EQ(asked(p, 0x400000 + 3 * kLine + 20), std::vector<std::uint64_t>{0x400200});
  EXPECT_TRUE(asked(p, 0x400000, /*hit=*/true).empty());
  EXPECT_TRUE(asked(p, 0x400000 + 7 * kLine).empty());  // its next line is not the structure's
  EXPECT_TRUE(asked(p, 0x500000).empty());              // no descriptor
}

TEST(LdescPrefetcherAddresses, CoaccessedRegularAsksTheL1ShareOfItsTileInStridesAhead) {
  LdescPrefetcher p = started({coaccessed_regular()});
  // An L1 of 8 lines (1 KiB), one active D-Tile of 128 bytes: 1024 / 128 = 8 strides of 4 KiB.
  EXPECT_EQ(asked(p, 0x100000), std::vector<std::uint64_t>{0x100000 + 8 * 4096});
  // The same tile again (still one active): 8 strides from row 2.
  EXPECT_EQ(asked(p, 0x100000 + 2 * 4096), std::vector<std::uint64_t>{0x100000 + 10 * 4096});
  // A second tile (bytes 128.. of each row) becomes active: 1024 / (2 x 128) = 4 strides.
  EXPECT_EQ(asked(p, 0x100000 + 128), std::vector<std::uint64_t>{0x100000 + 128 + 4 * 4096});
  // On another SM only its own triggers count: one tile, 8 strides.
  EXPECT_EQ(asked(p, 0x100000 + 128, false, 8, 1),
            std::vector<std::uint64_t>{0x100000 + 128 + 8 * 4096});
  // An L1 of 128 lines (16 KiB) on SM 1 with one tile... now two there: 16384 / 256 = 64
  // strides, 256 KiB ahead: past the array's 64 rows, not asked for.
  EXPECT_TRUE(asked(p, 0x100000, false, 128, 1).empty());
  // SM 0 has two active tiles now: 4 strides from row 60 is past the 64 rows.
  EXPECT_TRUE(asked(p, 0x100000 + 60 * 4096).empty());
  EXPECT_TRUE(asked(p, 0x100000, /*hit=*/true).empty());
}

TEST(LdescPrefetcherAddresses, NothingForOtherData) {
  LocalityDescriptor irregular = coaccessed_regular();
  irregular.pattern = tracebuf::AccessPattern::kIrregular;
  LocalityDescriptor intra = coaccessed_regular();
  intra.type = tracebuf::LocalityType::kIntraThread;
  LocalityDescriptor no_reuse = coaccessed_regular();
  no_reuse.type = tracebuf::LocalityType::kNoReuse;
  for (const LocalityDescriptor& d : {irregular, intra, no_reuse}) {
    LdescPrefetcher p = started({d});
    EXPECT_TRUE(asked(p, 0x100000).empty()) << tracebuf::to_string(d.type);
  }
  LdescPrefetcher none = started({});
  EXPECT_TRUE(asked(none, 0x100000).empty());
  LdescPrefetcher before_any(load_hierarchy("fermi-c2050", {}));
  before_any.begin_launch(1);
  EXPECT_TRUE(asked(before_any, 0x100000).empty());
}

TEST(LdescPrefetcherAddresses, TheHigherPriorityDescriptorDecidesWhereTheyOverlap) {
  // A NEARBY descriptor inside the COACCESSED REGULAR array, given first (higher priority).
  LocalityDescriptor inner = nearby();
  inner.address = 0x100000;
  LdescPrefetcher p = started({inner, coaccessed_regular()});
  EXPECT_EQ(asked(p, 0x100000), std::vector<std::uint64_t>{0x100080});
  EXPECT_EQ(asked(p, 0x100000 + 4096), std::vector<std::uint64_t>{0x100000 + 9 * 4096});
}

// ---- In whole trials (one SM of the C2050: 16 KiB L1, 128-byte lines) --------------------

std::string descriptor_file(const std::string& name, const std::string& json) {
  const auto dir = std::filesystem::temp_directory_path() / "memcarlo-tests";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / (name + "-" + std::to_string(::getpid()) + ".json")).string();
  std::ofstream(path) << json;
  return path;
}

std::uint64_t total(const TrialResult& result, std::string_view name) {
  for (std::uint32_t c = 0; c < kPrefetchCounters.size(); ++c) {
    if (kPrefetchCounters[c].name == name) {
      return result.group_total(kPrefetchGroup, c);
    }
  }
  ADD_FAILURE() << "no prefetch counter " << name;
  return 0;
}

TEST(LdescPrefetcherTrials, NextLineForNearbyDataAndNothingForTheRest) {
  // One warp reads 8 consecutive lines of a NEARBY array, then 8 of an array without a
  // descriptor. The NEARBY lines 0, 2, 4, 6 miss and bring 1, 3, 5, 7 (next-line's answer);
  // the other array gets no prefetch.
  TraceBuilder trace(1, 32);
  const std::uint32_t near = trace.add_load(AccessKind::kRead, "near[i]");
  const std::uint32_t other = trace.add_load(AccessKind::kRead, "other[i]");
  for (std::uint64_t line = 0; line < 8; ++line) {
    trace.coalesced(0, 0, near, 0x400000 + line * kLine);
  }
  for (std::uint64_t line = 0; line < 8; ++line) {
    trace.coalesced(0, 0, other, 0x600000 + line * kLine);
  }
  const std::string path = trace.write("ldesc-prefetch-nearby");
  const std::string file =
      descriptor_file("prefetch-nearby",
                      R"({"descriptors": [{"address": "0x400000", "size": 1024, "element_size": 4,
          "type": "INTER-THREAD", "sharing": "NEARBY", "compute_tile": [1, 1, 1]}]})");
  const TrialResult r = run_one(
      path, load_hierarchy("fermi-c2050",
                           {"sm.count=1", "prefetch.policy=ldesc", "ldesc.descriptors=" + file}));
  EXPECT_EQ(total(r, "issued"), 4u);
  EXPECT_EQ(total(r, "useful"), 4u);
  EXPECT_EQ(r.loads[near].l1_hits, 4u);
  EXPECT_EQ(r.loads[other].l1_hits, 0u);
  // Without descriptors the ldesc prefetcher does nothing.
  const TrialResult bare =
      run_one(path, load_hierarchy("fermi-c2050", {"sm.count=1", "prefetch.policy=ldesc"}));
  EXPECT_EQ(total(bare, "issued"), 0u);
  EXPECT_EQ(bare.loads[near].l1_hits, 0u);
}

TEST(LdescPrefetcherTrials, CoaccessedRegularPrefetchesAheadByTheL1ShareOfTheTile) {
  // A 1024 x 512 array of floats (4 KiB rows, 2 MiB), one D-Tile (one CTA), 4 KiB wide: one
  // warp reads the first line of rows 0..7 (down a column, stride 1024 elements). The L1
  // (16 KiB) over one active tile of 4 KiB: 4 strides ahead. Rows 0..3 miss and bring rows
  // 4..7, which hit and prefetch nothing.
  TraceBuilder trace(1, 32);
  const std::uint32_t id = trace.add_load(AccessKind::kRead, "a[k * 1024 + i]");
  for (std::uint64_t row = 0; row < 8; ++row) {
    trace.coalesced(0, 0, id, 0x1000000 + row * 4096);
  }
  const std::string path = trace.write("ldesc-prefetch-stride");
  const std::string file = descriptor_file(
      "prefetch-stride",
      R"({"descriptors": [{"address": "0x1000000", "size": 2097152, "element_size": 4,
          "shape": [1024, 512], "type": "INTER-THREAD", "sharing": "COACCESSED",
          "pattern": "REGULAR", "stride": 1024, "compute_tile": [1, 1, 1]}]})");
  const TrialResult r = run_one(
      path, load_hierarchy("fermi-c2050",
                           {"sm.count=1", "prefetch.policy=ldesc", "ldesc.descriptors=" + file}));
  EXPECT_EQ(total(r, "issued"), 4u);
  EXPECT_EQ(total(r, "useful"), 4u);
  EXPECT_EQ(total(r, "untraced_lines"), 0u);
  EXPECT_EQ(r.loads[id].l1_hits, 4u);
}

}  // namespace
}  // namespace memcarlo::sim
