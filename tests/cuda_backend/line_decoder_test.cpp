// Decoding ring lines into trace records: the (translation unit, local id) -> trace-wide id
// mapping of the loads registry shared with the host backend, kinds from the loads table, lane
// addresses, and rejection of lines that cannot be right.
#include "line_decoder.hpp"

#include <gtest/gtest.h>

#include "host_producer.hpp"

namespace {

using cuda_backend_test::make_line;
using memcarlo::cuda::detail::LineDecoder;
using memcarlo::cuda::detail::RingLine;
using memcarlo::host::detail::LoadsRegistry;
using memcarlo::tracebuf::AccessKind;
using memcarlo::tracebuf::WarpRecord;

constexpr unsigned kFirstUnit = 0xa1u;
constexpr unsigned kSecondUnit = 0x0bu;  // sorts before the first: order is registration order

class LineDecoderTest : public ::testing::Test {
 protected:
  LineDecoderTest() {
    registry_.add(kFirstUnit, R"([
      {"id": 0, "function": "k", "expression": "a[i]", "kind": "read", "element_size": 4},
      {"id": 1, "function": "k", "expression": "b[i]", "kind": "write", "element_size": 8}
    ])");
    registry_.add(kSecondUnit, R"([
      {"id": 0, "function": "g", "expression": "h[v]", "kind": "atomic", "element_size": 4},
      {"id": 2, "function": "g", "expression": "c[i]", "kind": "rmw", "element_size": 4}
    ])");
  }

  LineDecoder decoder(std::uint32_t traced_loads = 4) {
    return LineDecoder(registry_.index(), traced_loads, /*snapshot_first=*/10,
                       /*snapshot_count=*/5);
  }

  static RingLine line_in_block(RingLine line, std::uint32_t block) {
    line.block = block;
    return line;
  }

  LoadsRegistry registry_;
};

TEST_F(LineDecoderTest, IdsOfLaterUnitsFollowTheEarlierUnitsTables) {
  WarpRecord record;
  ASSERT_EQ(decoder().decode(line_in_block(make_line(kFirstUnit, 1, 0x3, 0x1000), 10), record),
            LineDecoder::Outcome::kRecord);
  EXPECT_EQ(record.static_id, 1u);
  EXPECT_EQ(record.kind, AccessKind::kWrite);
  ASSERT_EQ(decoder().decode(line_in_block(make_line(kSecondUnit, 0, 0x3, 0x1000), 10), record),
            LineDecoder::Outcome::kRecord);
  EXPECT_EQ(record.static_id, 2u);
  EXPECT_EQ(record.kind, AccessKind::kAtomic);
  // Local ids need not be dense: the second unit's id 2 is its second entry.
  ASSERT_EQ(decoder().decode(line_in_block(make_line(kSecondUnit, 2, 0x3, 0x1000), 10), record),
            LineDecoder::Outcome::kRecord);
  EXPECT_EQ(record.static_id, 3u);
  EXPECT_EQ(record.kind, AccessKind::kReadModifyWrite);
}

TEST_F(LineDecoderTest, LaneAddressesMaskSizeAndBarriersAreCopied) {
  RingLine line = line_in_block(make_line(kFirstUnit, 0, 0x80000005u, 0x7f0000001000, 16), 14);
  line.addresses[1] = 0xdead;  // an inactive lane's slot holds whatever was there
  line.barriers = 2;
  WarpRecord record;
  ASSERT_EQ(decoder().decode(line, record), LineDecoder::Outcome::kRecord);
  EXPECT_EQ(record.active_mask, 0x80000005u);
  EXPECT_EQ(record.element_size, 16u);
  EXPECT_EQ(record.barriers, 2u);
  EXPECT_EQ(record.addresses[0], 0x7f0000001000u);
  EXPECT_EQ(record.addresses[1], 0u);
  EXPECT_EQ(record.addresses[2], 0x7f0000001008u);
  EXPECT_EQ(record.addresses[31], 0x7f000000107cu);
}

TEST_F(LineDecoderTest, UnknownUnitsIdsAndLateTablesAreNotTraced) {
  WarpRecord record;
  EXPECT_EQ(decoder().decode(line_in_block(make_line(0x99, 0, 1, 0), 10), record),
            LineDecoder::Outcome::kUnknownLoad);
  EXPECT_EQ(decoder().decode(line_in_block(make_line(kFirstUnit, 7, 1, 0), 10), record),
            LineDecoder::Outcome::kUnknownLoad);
  EXPECT_EQ(decoder().decode(line_in_block(make_line(kSecondUnit, 1, 1, 0), 10), record),
            LineDecoder::Outcome::kUnknownLoad);  // a hole in the unit's ids
  // The second unit registered after the trace's Loads chunk was written (2 loads in it).
  EXPECT_EQ(decoder(2).decode(line_in_block(make_line(kSecondUnit, 0, 1, 0), 10), record),
            LineDecoder::Outcome::kUnknownLoad);
  EXPECT_EQ(LineDecoder(nullptr, 0, 0, 1).decode(make_line(kFirstUnit, 0, 1, 0), record),
            LineDecoder::Outcome::kUnknownLoad);
}

TEST_F(LineDecoderTest, LinesThatCannotBeRightAreRejected) {
  WarpRecord record;
  EXPECT_EQ(decoder().decode(line_in_block(make_line(kFirstUnit, 0, 0, 0), 10), record),
            LineDecoder::Outcome::kMalformed);  // no lane
  RingLine outside_group = line_in_block(make_line(kFirstUnit, 0, 0x3, 0), 10);
  outside_group.group_mask = 0x1;
  EXPECT_EQ(decoder().decode(outside_group, record), LineDecoder::Outcome::kMalformed);
  EXPECT_EQ(decoder().decode(line_in_block(make_line(kFirstUnit, 0, 1, 0), 9), record),
            LineDecoder::Outcome::kMalformed);  // before the snapshot
  EXPECT_EQ(decoder().decode(line_in_block(make_line(kFirstUnit, 0, 1, 0), 15), record),
            LineDecoder::Outcome::kMalformed);  // after it
}

}  // namespace
