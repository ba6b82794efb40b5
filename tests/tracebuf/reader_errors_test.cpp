// Malformed traces: each is rejected with the kind of error, the byte offset and a reason.
#include <gtest/gtest.h>

#include <cstring>

#include "memcarlo/tracebuf/crc32c.hpp"
#include "memcarlo/tracebuf/format.hpp"
#include "memcarlo/tracebuf/reader.hpp"
#include "trace_test_util.hpp"

namespace memcarlo::tracebuf {
namespace {

using testing::read_file;
using testing::temp_path;
using testing::write_file;

TraceError open_error(const std::string& path, ReadOptions options = {}) {
  try {
    TraceReader::open(path, options);
  } catch (const TraceError& e) {
    return e;
  }
  ADD_FAILURE() << "expected a TraceError for " << path;
  return TraceError(TraceError::Kind::kIo, path, 0, "none");
}

TEST(TraceErrors, TruncatedFileNamesTheOffsetOfTheTornChunk) {
  const auto path = temp_path("truncated");
  testing::write_small_trace(path);
  auto bytes = read_file(path);
  bytes.resize(bytes.size() - 40);  // cut into the last chunks
  write_file(path, bytes);
  const TraceError e = open_error(path);
  EXPECT_EQ(e.kind(), TraceError::Kind::kTruncated);
  EXPECT_GT(e.offset(), 0u);
  EXPECT_LT(e.offset(), bytes.size());
  EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
}

TEST(TraceErrors, TruncatedFileIsReadableAsAPrefixWhenAllowed) {
  const auto path = temp_path("prefix");
  testing::write_small_trace(path, /*finish=*/false);
  EXPECT_EQ(open_error(path).kind(), TraceError::Kind::kTruncated);
  const auto reader = TraceReader::open(path, ReadOptions{.allow_truncated = true});
  EXPECT_FALSE(reader.complete());
  EXPECT_EQ(reader.total_records(), 16u);
  EXPECT_NE(reader.truncation_reason().find("End chunk"), std::string::npos);
}

TEST(TraceErrors, FlippedPayloadByteIsAChecksumError) {
  const auto path = temp_path("checksum");
  testing::write_small_trace(path);
  auto bytes = read_file(path);
  bytes[bytes.size() / 2] ^= 0x10;
  write_file(path, bytes);
  const TraceError e = open_error(path, ReadOptions{.allow_truncated = true});
  EXPECT_EQ(e.kind(), TraceError::Kind::kChecksum) << e.what();
  EXPECT_LT(e.offset(), bytes.size());
}

TEST(TraceErrors, OtherFormatVersionIsRefusedByName) {
  const auto path = temp_path("version");
  testing::write_small_trace(path);
  auto bytes = read_file(path);
  FileHeader header;
  std::memcpy(&header, bytes.data(), sizeof header);
  header.format_version = 7;
  header.header_crc = crc32c(&header, offsetof(FileHeader, header_crc));
  std::memcpy(bytes.data(), &header, sizeof header);
  write_file(path, bytes);
  const TraceError e = open_error(path);
  EXPECT_EQ(e.kind(), TraceError::Kind::kVersion);
  EXPECT_NE(std::string(e.what()).find("version 7"), std::string::npos) << e.what();
}

TEST(TraceErrors, NotATraceAtAll) {
  const auto path = temp_path("garbage");
  write_file(path, std::vector<char>(100, 'x'));
  EXPECT_EQ(open_error(path).kind(), TraceError::Kind::kFormat);
  write_file(path, std::vector<char>(5, 'x'));
  EXPECT_EQ(open_error(path).kind(), TraceError::Kind::kTruncated);
  EXPECT_EQ(open_error(temp_path("does-not-exist")).kind(), TraceError::Kind::kIo);
}

TEST(TraceInvariants, RecordWithAnIdOutsideTheLoadsTableIsReportedAtItsOffset) {
  const auto path = temp_path("badid");
  {
    TraceWriter writer(path, TraceMeta{});
    writer.write_loads(std::vector<LoadInfo>{testing::make_load(0, AccessKind::kRead, "a[i]")});
    LaunchInfo launch;
    launch.block = {32, 1, 1};
    launch.snapshot_block_count = 1;
    writer.begin_launch(launch);
    writer.write_warp_records(0, 0, 0, std::vector<WarpRecord>{testing::coalesced(0, 0x1000),
                                                               testing::coalesced(5, 0x1000)});
    writer.finish();
  }
  const auto reader = TraceReader::open(path);
  try {
    check_invariants(reader);
    FAIL() << "expected an invariant error";
  } catch (const TraceError& e) {
    EXPECT_EQ(e.kind(), TraceError::Kind::kInvariant);
    EXPECT_NE(std::string(e.what()).find("static id 5"), std::string::npos) << e.what();
    // The second record starts 24 bytes after the first.
    const auto first = reader.launches()[0].warps[0].segments[0].file_offset;
    EXPECT_EQ(e.offset(), first + sizeof(RecordHeader));
  }
}

TEST(TraceInvariants, WarpOutsideTheSnapshotOrLanesBeyondTheBlockAreErrors) {
  const auto path = temp_path("snapshot");
  {
    TraceWriter writer(path, TraceMeta{});
    writer.write_loads(std::vector<LoadInfo>{testing::make_load(0, AccessKind::kRead, "a[i]")});
    LaunchInfo launch;
    launch.grid = {8, 1, 1};
    launch.block = {48, 1, 1};  // the second warp has 16 lanes
    launch.snapshot_first_block = 2;
    launch.snapshot_block_count = 2;
    writer.begin_launch(launch);
    writer.write_warp_records(0, 2, 1, std::vector<WarpRecord>{testing::coalesced(0, 0x1000)});
    writer.finish();
  }
  const auto reader = TraceReader::open(path);
  try {
    check_invariants(reader);
    FAIL() << "expected an invariant error";
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("beyond the block's 48 threads"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace memcarlo::tracebuf
