// Round trips through the trace writer and reader: encodings, segments, metadata.
#include <gtest/gtest.h>

#include "memcarlo/tracebuf/crc32c.hpp"
#include "memcarlo/tracebuf/metadata.hpp"
#include "memcarlo/tracebuf/reader.hpp"
#include "memcarlo/tracebuf/sha256.hpp"
#include "trace_test_util.hpp"

namespace memcarlo::tracebuf {
namespace {

using testing::coalesced;
using testing::temp_path;

TEST(Crc32c, MatchesTheStandardCheckValue) {
  // The CRC-32C check value of "123456789" (RFC 3720 appendix B.4).
  EXPECT_EQ(crc32c("123456789", 9), 0xE3069283u);
  // Incremental use gives the same result as one call.
  EXPECT_EQ(crc32c("6789", 4, crc32c("12345", 5)), 0xE3069283u);
}

TEST(RecordEncoding, CoalescedAccessUsesTheStrideFormWithNoPayload) {
  std::byte buffer[kMaxEncodedRecordBytes];
  const auto record = coalesced(3, 0x1000);
  EXPECT_EQ(encode_record(record, buffer), sizeof(RecordHeader));
  RecordView view(buffer);
  EXPECT_EQ(view.encoding(), AddressEncoding::kStride);
  EXPECT_EQ(view.active_lanes(), 32u);
  EXPECT_EQ(view.active_address(31), 0x1000u + 124);
}

TEST(RecordEncoding, PartialMaskKeepsLaneIndexedAddresses) {
  std::byte buffer[kMaxEncodedRecordBytes];
  auto record = coalesced(0, 0x4000, 0xF0F0F0F0u);
  encode_record(record, buffer);
  RecordView view(buffer);
  const WarpRecord back = view.to_record();
  for (unsigned lane = 0; lane < 32; ++lane) {
    if (record.active_mask & (1u << lane)) {
      EXPECT_EQ(back.addresses[lane], record.addresses[lane]) << "lane " << lane;
    }
  }
}

TEST(RecordEncoding, IrregularAddressesUseDeltasOrAbsoluteValues) {
  std::byte buffer[kMaxEncodedRecordBytes];
  WarpRecord gather = coalesced(0, 0);
  for (unsigned lane = 0; lane < 32; ++lane) {
    gather.addresses[lane] = 0x100000 + (lane * 7919u % 1024u) * 4;
  }
  EXPECT_EQ(encode_record(gather, buffer), sizeof(RecordHeader) + 128);
  EXPECT_EQ(RecordView(buffer).encoding(), AddressEncoding::kDelta32);
  EXPECT_EQ(RecordView(buffer).to_record().addresses, gather.addresses);

  WarpRecord far = gather;
  far.addresses[5] = 0x7F0000000000ull;  // farther than int32 from lane 0
  EXPECT_EQ(encode_record(far, buffer), sizeof(RecordHeader) + 256);
  EXPECT_EQ(RecordView(buffer).encoding(), AddressEncoding::kAbsolute64);
  EXPECT_EQ(RecordView(buffer).to_record().addresses, far.addresses);
}

TEST(RecordEncoding, NegativeStrideRoundTrips) {
  std::byte buffer[kMaxEncodedRecordBytes];
  WarpRecord record = coalesced(0, 0);
  record.active_mask = 0xFFFFFFFEu;  // lane 0 inactive: the base is extrapolated
  for (unsigned lane = 0; lane < 32; ++lane) {
    record.addresses[lane] = 0x9000 - 8 * lane;
  }
  encode_record(record, buffer);
  RecordView view(buffer);
  EXPECT_EQ(view.encoding(), AddressEncoding::kStride);
  EXPECT_EQ(view.active_address(0), 0x9000u - 8);
  EXPECT_EQ(view.active_address(30), 0x9000u - 8 * 31);
}

TEST(TraceRoundTrip, MetadataAndRecordsComeBackUnchanged) {
  const auto path = temp_path("roundtrip");
  testing::write_small_trace(path);
  const auto reader = TraceReader::open(path);
  EXPECT_TRUE(reader.complete());
  EXPECT_EQ(reader.format_version(), kFormatVersion);
  EXPECT_EQ(reader.meta().backend, "synthetic");
  ASSERT_EQ(reader.loads().size(), 2u);
  EXPECT_EQ(reader.loads()[1].kind, AccessKind::kWrite);
  EXPECT_EQ(reader.loads()[0].expression, "a[i]");
  ASSERT_EQ(reader.allocations().size(), 2u);
  EXPECT_EQ(reader.allocations()[1].name, "b");
  ASSERT_EQ(reader.launches().size(), 1u);
  const auto& launch = reader.launches()[0];
  EXPECT_EQ(launch.info.kernel, "copy");
  EXPECT_EQ(launch.info.block.x, 64u);
  ASSERT_EQ(launch.warps.size(), 8u);
  EXPECT_EQ(reader.total_records(), 16u);
  const WarpStream& stream = launch.warps[3];  // block 1, warp 1
  EXPECT_EQ(stream.block, 1u);
  EXPECT_EQ(stream.warp, 1u);
  std::vector<WarpRecord> records;
  stream.for_each([&](const RecordView& v) { records.push_back(v.to_record()); });
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].addresses[0], 0x10000u + (64 + 32) * 4);
  EXPECT_EQ(records[1].kind, AccessKind::kWrite);
  const auto report = check_invariants(reader);
  EXPECT_EQ(report.records, 16u);
  EXPECT_EQ(report.addresses_outside_allocations, 0u);
}

TEST(TraceRoundTrip, LongWarpStreamsSplitIntoNumberedSegmentsInProgramOrder) {
  const auto path = temp_path("segments");
  {
    TraceWriter writer(path, TraceMeta{});
    writer.write_loads(std::vector<LoadInfo>{testing::make_load(0, AccessKind::kRead, "a[j]")});
    LaunchInfo launch;
    launch.grid = {1, 1, 1};
    launch.block = {32, 1, 1};
    launch.snapshot_block_count = 1;
    writer.begin_launch(launch);
    std::vector<WarpRecord> records;
    for (std::uint64_t i = 0; i < 60000; ++i) {  // 60000 x 24 bytes > one 1 MiB chunk
      records.push_back(coalesced(0, 0x100000 + 128 * i));
    }
    writer.write_warp_records(0, 0, 0, records);
    writer.write_warp_records(0, 0, 0, std::vector<WarpRecord>{coalesced(0, 0x42)});
    writer.finish();
  }
  const auto reader = TraceReader::open(path);
  const auto& stream = reader.launches()[0].warps.at(0);
  EXPECT_GE(stream.segments.size(), 3u);
  EXPECT_EQ(stream.record_count, 60001u);
  std::uint64_t i = 0;
  bool in_order = true;
  stream.for_each([&](const RecordView& v) {
    const std::uint64_t expected = i < 60000 ? 0x100000 + 128 * i : 0x42;
    in_order = in_order && v.active_address(0) == expected;
    ++i;
  });
  EXPECT_TRUE(in_order);
}

TEST(Metadata, LoadsTableKeepsUnknownKeysVerbatim) {
  const std::string json =
      R"([{"id":0,"kind":"rmw","expression":"a[i] += 1","depends_on":[],"sequence":2,)"
      R"("index":{"affine":true,"terms":{"threadIdx.x":1}}}])";
  const auto loads = loads_from_json(json);
  ASSERT_EQ(loads.size(), 1u);
  EXPECT_EQ(loads[0].kind, AccessKind::kReadModifyWrite);
  EXPECT_EQ(loads[0].sequence, 2);
  EXPECT_NE(loads[0].extra_json.find("threadIdx.x"), std::string::npos);
  const auto again = loads_from_json(loads_to_json(loads));
  EXPECT_EQ(again[0].extra_json, loads[0].extra_json);
}

TEST(Metadata, BadKindNamesThePathAndTheAllowedValues) {
  try {
    loads_from_json(R"([{"id":0,"kind":"load"}])");
    FAIL() << "expected a MetadataError";
  } catch (const MetadataError& e) {
    EXPECT_NE(std::string(e.what()).find("loads[0].kind"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("read, write, rmw, atomic"), std::string::npos);
  }
}

}  // namespace
}  // namespace memcarlo::tracebuf

namespace memcarlo::tracebuf {
namespace {

std::span<const std::byte> bytes_of(const std::string& s) {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}

TEST(Sha256, MatchesTheFips180Examples) {
  EXPECT_EQ(Sha256::hex(bytes_of("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256::hex(bytes_of("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256::hex(bytes_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256::hex(bytes_of(std::string(1000000, 'a'))),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

}  // namespace
}  // namespace memcarlo::tracebuf
