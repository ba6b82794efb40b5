// Trace format v2: several Annotations chunks, concatenated in file order; v1 traces still read
// (with v1's rule: the last Annotations chunk is the trace's annotations).
#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "memcarlo/tracebuf/crc32c.hpp"
#include "memcarlo/tracebuf/errors.hpp"
#include "memcarlo/tracebuf/format.hpp"
#include "memcarlo/tracebuf/reader.hpp"
#include "memcarlo/tracebuf/writer.hpp"
#include "trace_test_util.hpp"

namespace memcarlo::tracebuf {
namespace {

using testing::read_file;
using testing::temp_path;
using testing::write_file;

/// Annotations [a], launch 0, [b, c], launch 1, [d]: as the runtimes write them.
void write_annotated_trace(const std::string& path) {
  TraceWriter writer(path, TraceMeta{});
  writer.write_loads(std::vector<LoadInfo>{testing::make_load(0, AccessKind::kRead, "a[i]")});
  writer.write_annotations(R"([{"kind": "a", "payload": {}}])");
  LaunchInfo launch;
  launch.block = {32, 1, 1};
  launch.snapshot_block_count = 1;
  writer.begin_launch(launch);
  writer.write_warp_records(0, 0, 0, std::vector<WarpRecord>{testing::coalesced(0, 0x1000)});
  writer.write_annotations(
      R"([{"kind": "b", "since_launch": 1, "payload": {}}, {"kind": "c", "payload": {"x": 1}}])");
  writer.begin_launch(launch);
  writer.write_annotations(R"([{"kind": "d", "payload": []}])");
  writer.finish();
}

std::vector<std::string> kinds(const TraceReader& reader) {
  std::vector<std::string> out;
  for (const nlohmann::json& record : nlohmann::json::parse(reader.annotations_json())) {
    out.push_back(record.at("kind").get<std::string>());
  }
  return out;
}

void set_version(std::vector<char>& bytes, std::uint16_t version) {
  FileHeader header;
  std::memcpy(&header, bytes.data(), sizeof header);
  header.format_version = version;
  header.header_crc = crc32c(&header, offsetof(FileHeader, header_crc));
  std::memcpy(bytes.data(), &header, sizeof header);
}

TEST(TraceFormatV2, WriterWritesVersion2) {
  EXPECT_EQ(kFormatVersion, 2);
  const auto path = temp_path("v2-version");
  write_annotated_trace(path);
  EXPECT_EQ(TraceReader::open(path).format_version(), 2);
  std::remove(path.c_str());
}

TEST(TraceFormatV2, SeveralAnnotationsChunksConcatenateInFileOrder) {
  const auto path = temp_path("v2-chunks");
  write_annotated_trace(path);
  const TraceReader reader = TraceReader::open(path);
  EXPECT_EQ(kinds(reader), (std::vector<std::string>{"a", "b", "c", "d"}));
  const nlohmann::json records = nlohmann::json::parse(reader.annotations_json());
  EXPECT_EQ(records[1]["since_launch"], 1);
  EXPECT_EQ(records[2]["payload"]["x"], 1);
  std::remove(path.c_str());
}

TEST(TraceFormatV2, NoAnnotationsChunkGivesAnEmptyArray) {
  const auto path = temp_path("v2-none");
  testing::write_small_trace(path);
  EXPECT_EQ(nlohmann::json::parse(TraceReader::open(path).annotations_json()),
            nlohmann::json::array());
  std::remove(path.c_str());
}

TEST(TraceFormatV2, TruncatedTraceKeepsTheChunksWrittenBeforeTheKill) {
  const auto path = temp_path("v2-killed");
  {
    TraceWriter writer(path, TraceMeta{});
    writer.write_annotations(R"([{"kind": "a", "payload": {}}])");
    LaunchInfo launch;
    launch.block = {32, 1, 1};
    launch.snapshot_block_count = 1;
    writer.begin_launch(launch);
    writer.write_annotations(R"([{"kind": "b", "payload": {}}])");
    // No finish(): the End chunk is missing, as after a kill.
  }
  const TraceReader reader = TraceReader::open(path, ReadOptions{.allow_truncated = true});
  EXPECT_FALSE(reader.complete());
  EXPECT_EQ(kinds(reader), (std::vector<std::string>{"a", "b"}));
  std::remove(path.c_str());
}

TEST(TraceFormatV2, Version1TraceReadsWithTheLastAnnotationsChunk) {
  const auto path = temp_path("v1-patched");
  write_annotated_trace(path);
  auto bytes = read_file(path);
  set_version(bytes, 1);
  write_file(path, bytes);
  const TraceReader reader = TraceReader::open(path);
  EXPECT_EQ(reader.format_version(), 1);
  EXPECT_TRUE(reader.complete());
  EXPECT_EQ(reader.launches().size(), 2u);
  EXPECT_EQ(kinds(reader), (std::vector<std::string>{"d"}));
  std::remove(path.c_str());
}

TEST(TraceFormatV2, CommittedVersion1SeedStillReads) {
  const std::string seed = std::string(MEMCARLO_SOURCE_DIR) + "/tests/fuzz/corpus/trace/s1.mct";
  const auto bytes = read_file(seed);
  ASSERT_GE(bytes.size(), sizeof(FileHeader)) << seed;
  FileHeader header;
  std::memcpy(&header, bytes.data(), sizeof header);
  ASSERT_EQ(header.format_version, 1) << seed << " is no longer a v1 trace";
  const TraceReader reader = TraceReader::open(seed);
  EXPECT_EQ(reader.format_version(), 1);
  EXPECT_TRUE(reader.complete());
  EXPECT_GT(reader.total_records(), 0u);
}

TEST(TraceFormatV2, VersionsOutsideOneToTwoAreRefused) {
  for (const std::uint16_t version : {std::uint16_t{0}, std::uint16_t{3}}) {
    const auto path = temp_path("v-out");
    testing::write_small_trace(path);
    auto bytes = read_file(path);
    set_version(bytes, version);
    write_file(path, bytes);
    try {
      (void)TraceReader::open(path);
      ADD_FAILURE() << "version " << version << " accepted";
    } catch (const TraceError& e) {
      EXPECT_EQ(e.kind(), TraceError::Kind::kVersion);
      EXPECT_NE(std::string(e.what()).find("versions 1 to 2"), std::string::npos) << e.what();
    }
    std::remove(path.c_str());
  }
}

TEST(TraceFormatV2, AnAnnotationsChunkThatIsNotAnArrayIsAFormatErrorAtItsOffset) {
  const auto path = temp_path("v2-notarray");
  testing::write_small_trace(path, /*finish=*/false);
  auto bytes = read_file(path);
  const std::uint64_t chunk_offset = bytes.size();
  const std::string payload = R"({"kind": "a"})";
  ChunkHeader header{};
  header.magic = kChunkMagic;
  header.type = static_cast<std::uint16_t>(ChunkType::kAnnotations);
  header.payload_size = payload.size();
  header.payload_crc = crc32c(payload.data(), payload.size());
  header.header_crc = crc32c(&header, offsetof(ChunkHeader, header_crc));
  const char* raw = reinterpret_cast<const char*>(&header);
  bytes.insert(bytes.end(), raw, raw + sizeof header);
  bytes.insert(bytes.end(), payload.begin(), payload.end());
  bytes.resize((bytes.size() + 7) / 8 * 8, '\0');
  write_file(path, bytes);
  try {
    (void)TraceReader::open(path, ReadOptions{.allow_truncated = true});
    ADD_FAILURE() << "a non-array Annotations chunk was accepted";
  } catch (const TraceError& e) {
    EXPECT_EQ(e.kind(), TraceError::Kind::kFormat);
    EXPECT_EQ(e.offset(), chunk_offset + sizeof(ChunkHeader));
    EXPECT_NE(std::string(e.what()).find("Annotations chunk"), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace memcarlo::tracebuf
