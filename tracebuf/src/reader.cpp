// Trace reader: maps the file read-only, walks and verifies every chunk (framing, checksums,
// record structure), and indexes the per-warp streams without copying any record.
#include "memcarlo/tracebuf/reader.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

#include "memcarlo/tracebuf/crc32c.hpp"
#include "memcarlo/tracebuf/format.hpp"
#include "memcarlo/tracebuf/metadata.hpp"

namespace memcarlo::tracebuf {

struct TraceReader::State {
  std::string path;
  const std::byte* data = nullptr;
  std::uint64_t size = 0;
  std::uint16_t version = 0;
  TraceMeta meta;
  std::vector<LoadInfo> loads;
  std::vector<Allocation> allocations;
  std::string annotations = "[]";
  std::vector<LaunchStreams> launches;
  bool complete = false;
  std::uint64_t truncated_at = 0;
  std::string truncation_reason;
  std::uint64_t total_records = 0;

  ~State() {
    if (data != nullptr && size > 0) {
      ::munmap(const_cast<std::byte*>(data), size);
    }
  }
};

namespace {

const char* chunk_name(std::uint16_t type) {
  switch (static_cast<ChunkType>(type)) {
    case ChunkType::kMeta:
      return "Meta";
    case ChunkType::kLoads:
      return "Loads";
    case ChunkType::kAllocations:
      return "Allocations";
    case ChunkType::kAnnotations:
      return "Annotations";
    case ChunkType::kLaunch:
      return "Launch";
    case ChunkType::kWarpRecords:
      return "WarpRecords";
    case ChunkType::kEnd:
      return "End";
  }
  return "unknown";
}

std::string hex(std::uint32_t v) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "0x%08x", v);
  return buffer;
}

/// Signals a torn tail: accepted as the end of a readable prefix when truncation is allowed.
struct Truncation {
  std::uint64_t offset;
  std::string reason;
};

class ChunkWalker {
 public:
  explicit ChunkWalker(TraceReader::State& state) : s_(state) {}

  void run() {
    read_file_header();
    std::uint64_t offset = sizeof(FileHeader);
    bool seen_meta = false;
    bool seen_loads = false;
    bool seen_end = false;
    while (offset < s_.size) {
      if (seen_end) {
        fail(TraceError::Kind::kFormat, offset, "data after the End chunk");
      }
      ChunkHeader header{};
      const std::uint64_t remaining = s_.size - offset;
      if (remaining < sizeof header) {
        throw Truncation{offset, "torn chunk header (" + std::to_string(remaining) +
                                     " of 24 bytes present)"};
      }
      std::memcpy(&header, s_.data + offset, sizeof header);
      if (header.magic != kChunkMagic) {
        fail(TraceError::Kind::kFormat, offset,
             "expected a chunk header (magic MCCK), found " + hex(header.magic));
      }
      if (crc32c(&header, offsetof(ChunkHeader, header_crc)) != header.header_crc) {
        fail(TraceError::Kind::kChecksum, offset, "chunk header checksum mismatch");
      }
      if (header.flags != 0) {
        fail(TraceError::Kind::kFormat, offset, "chunk flags must be 0 in format v1");
      }
      if (header.payload_size > kMaxChunkPayload) {
        fail(TraceError::Kind::kFormat, offset,
             "chunk claims " + std::to_string(header.payload_size) + " payload bytes (limit " +
                 std::to_string(kMaxChunkPayload) + ")");
      }
      const std::uint64_t padded = (header.payload_size + 7) & ~std::uint64_t{7};
      if (remaining - sizeof header < padded) {
        throw Truncation{offset, std::string(chunk_name(header.type)) + " chunk claims " +
                                     std::to_string(header.payload_size) + " payload bytes, only " +
                                     std::to_string(remaining - sizeof header) + " remain"};
      }
      const std::byte* payload = s_.data + offset + sizeof header;
      if (crc32c(payload, header.payload_size) != header.payload_crc) {
        fail(TraceError::Kind::kChecksum, offset,
             std::string(chunk_name(header.type)) + " chunk payload checksum mismatch");
      }
      const std::uint64_t payload_offset = offset + sizeof header;
      const std::string_view text(reinterpret_cast<const char*>(payload), header.payload_size);
      const auto type = static_cast<ChunkType>(header.type);
      if (!seen_meta && type != ChunkType::kMeta) {
        fail(TraceError::Kind::kFormat, offset, "the first chunk must be Meta, found " +
                                                    std::string(chunk_name(header.type)));
      }
      try {
        switch (type) {
          case ChunkType::kMeta:
            if (seen_meta) {
              fail(TraceError::Kind::kFormat, offset, "a second Meta chunk");
            }
            s_.meta = meta_from_json(text);
            seen_meta = true;
            break;
          case ChunkType::kLoads:
            if (seen_loads) {
              fail(TraceError::Kind::kFormat, offset, "a second Loads chunk");
            }
            s_.loads = loads_from_json(text);
            seen_loads = true;
            break;
          case ChunkType::kAllocations: {
            auto more = allocations_from_json(text);
            s_.allocations.insert(s_.allocations.end(), more.begin(), more.end());
            break;
          }
          case ChunkType::kAnnotations:
            read_annotations(text);
            break;
          case ChunkType::kLaunch: {
            LaunchStreams launch;
            launch.info = launch_from_json(text);
            if (launch.info.index != s_.launches.size()) {
              fail(TraceError::Kind::kFormat, offset,
                   "Launch chunk has index " + std::to_string(launch.info.index) + ", expected " +
                       std::to_string(s_.launches.size()));
            }
            s_.launches.push_back(std::move(launch));
            break;
          }
          case ChunkType::kWarpRecords:
            read_warp_records(payload, header.payload_size, payload_offset);
            break;
          case ChunkType::kEnd:
            seen_end = true;
            break;
          default:
            fail(TraceError::Kind::kFormat, offset,
                 "unknown chunk type " + std::to_string(header.type));
        }
      } catch (const MetadataError& e) {
        fail(TraceError::Kind::kFormat, payload_offset,
             std::string(chunk_name(header.type)) + " chunk: " + e.what());
      }
      offset += sizeof header + padded;
    }
    if (!seen_end) {
      throw Truncation{offset, "no End chunk: the producer did not finish the trace"};
    }
    s_.complete = true;
  }

  void finalize() {
    if (s_.version >= 2) {
      s_.annotations = annotation_records_.dump();
    }
    for (auto& [launch, streams] : streams_) {
      auto& warps = s_.launches.at(launch).warps;
      for (auto& [key, stream] : streams) {
        warps.push_back(std::move(stream));
      }
    }
  }

 private:
  [[noreturn]] void fail(TraceError::Kind kind, std::uint64_t offset, const std::string& what) {
    throw TraceError(kind, s_.path, offset, what);
  }

  void read_file_header() {
    FileHeader header{};
    if (s_.size < sizeof header) {
      fail(TraceError::Kind::kTruncated, 0,
           "file is " + std::to_string(s_.size) + " bytes, shorter than the 32-byte header");
    }
    std::memcpy(&header, s_.data, sizeof header);
    if (std::memcmp(header.magic, kFileMagic, sizeof kFileMagic) != 0) {
      fail(TraceError::Kind::kFormat, 0, "not a memcarlo trace (bad magic)");
    }
    if (header.endian_marker != kEndianMarker) {
      fail(TraceError::Kind::kFormat, 10, "written with a different byte order");
    }
    if (crc32c(&header, offsetof(FileHeader, header_crc)) != header.header_crc) {
      fail(TraceError::Kind::kChecksum, 28, "file header checksum mismatch");
    }
    if (header.format_version < kOldestReadableFormatVersion ||
        header.format_version > kFormatVersion) {
      fail(TraceError::Kind::kVersion, 8,
           "trace format version " + std::to_string(header.format_version) +
               "; this memcarlo reads versions " + std::to_string(kOldestReadableFormatVersion) +
               " to " + std::to_string(kFormatVersion));
    }
    if (header.header_size != sizeof(FileHeader) || header.flags != 0 || header.reserved != 0 ||
        header.reserved2 != 0) {
      fail(TraceError::Kind::kFormat, 12, "file header fields have values not defined in v1");
    }
    s_.version = header.format_version;
  }

  /// v1: the last Annotations chunk is the trace's annotations (kept verbatim). v2: every chunk
  /// is a JSON array and their records are concatenated in file order.
  void read_annotations(std::string_view text) {
    if (s_.version < 2) {
      s_.annotations = std::string(text);
      return;
    }
    nlohmann::json records = nlohmann::json::parse(text, nullptr, false);
    if (!records.is_array()) {
      throw MetadataError("expected a JSON array of annotation records");
    }
    for (nlohmann::json& record : records) {
      annotation_records_.push_back(std::move(record));
    }
  }

  void read_warp_records(const std::byte* payload, std::uint64_t size, std::uint64_t offset) {
    WarpRecordsHeader header{};
    if (size < sizeof header) {
      fail(TraceError::Kind::kFormat, offset, "WarpRecords payload shorter than its header");
    }
    std::memcpy(&header, payload, sizeof header);
    if (header.launch >= s_.launches.size()) {
      fail(TraceError::Kind::kFormat, offset,
           "WarpRecords for launch " + std::to_string(header.launch) + " before its Launch chunk");
    }
    if (header.reserved != 0) {
      fail(TraceError::Kind::kFormat, offset + 20, "WarpRecords reserved field must be 0");
    }
    const std::byte* begin = payload + sizeof header;
    const std::byte* end = payload + size;
    const std::byte* at = begin;
    for (std::uint32_t i = 0; i < header.record_count; ++i) {
      const auto record_offset = offset + static_cast<std::uint64_t>(at - payload);
      if (static_cast<std::size_t>(end - at) < sizeof(RecordHeader)) {
        fail(TraceError::Kind::kFormat, record_offset,
             "record " + std::to_string(i) + " of " + std::to_string(header.record_count) +
                 " runs past the end of its chunk");
      }
      RecordHeader record{};
      std::memcpy(&record, at, sizeof record);
      if (record.active_mask == 0) {
        fail(TraceError::Kind::kFormat, record_offset, "record with an empty active mask");
      }
      if (record.kind >= kAccessKindCount) {
        fail(TraceError::Kind::kFormat, record_offset,
             "record kind " + std::to_string(record.kind) + " (expected 0..3)");
      }
      if (record.element_size == 0) {
        fail(TraceError::Kind::kFormat, record_offset, "record with element size 0");
      }
      if (record.encoding > static_cast<std::uint8_t>(AddressEncoding::kAbsolute64)) {
        fail(TraceError::Kind::kFormat, record_offset,
             "record address encoding " + std::to_string(record.encoding) + " (expected 0..2)");
      }
      const std::size_t bytes =
          sizeof record + record_payload_bytes(static_cast<AddressEncoding>(record.encoding),
                                               static_cast<unsigned>(std::popcount(record.active_mask)));
      if (static_cast<std::size_t>(end - at) < bytes) {
        fail(TraceError::Kind::kFormat, record_offset,
             "record " + std::to_string(i) + " runs past the end of its chunk");
      }
      at += bytes;
    }
    if (at != end) {
      fail(TraceError::Kind::kFormat, offset + static_cast<std::uint64_t>(at - payload),
           std::to_string(end - at) + " bytes after the last of " +
               std::to_string(header.record_count) + " records");
    }
    auto& stream = streams_[header.launch][{header.block, header.warp}];
    if (header.segment != stream.segments.size()) {
      fail(TraceError::Kind::kFormat, offset + 12,
           "warp stream (launch " + std::to_string(header.launch) + ", block " +
               std::to_string(header.block) + ", warp " + std::to_string(header.warp) +
               ") segment " + std::to_string(header.segment) + ", expected " +
               std::to_string(stream.segments.size()));
    }
    stream.launch = header.launch;
    stream.block = header.block;
    stream.warp = header.warp;
    stream.record_count += header.record_count;
    stream.segments.push_back(
        {begin, end, header.record_count, offset + sizeof(WarpRecordsHeader)});
    s_.total_records += header.record_count;
  }

  TraceReader::State& s_;
  nlohmann::json annotation_records_ = nlohmann::json::array();
  std::map<std::uint32_t, std::map<std::pair<std::uint32_t, std::uint32_t>, WarpStream>> streams_;
};

}  // namespace

TraceReader::TraceReader(std::unique_ptr<State> state) : state_(std::move(state)) {}
TraceReader::TraceReader(TraceReader&&) noexcept = default;
TraceReader& TraceReader::operator=(TraceReader&&) noexcept = default;
TraceReader::~TraceReader() = default;

TraceReader TraceReader::open(const std::string& path, ReadOptions options) {
  auto state = std::make_unique<State>();
  state->path = path;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    throw TraceError(TraceError::Kind::kIo, path, 0,
                     std::string("cannot open: ") + std::strerror(errno));
  }
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw TraceError(TraceError::Kind::kIo, path, 0, "not a regular file");
  }
  state->size = static_cast<std::uint64_t>(info.st_size);
  if (state->size > 0) {
    void* mapped = ::mmap(nullptr, state->size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapped == MAP_FAILED) {
      ::close(fd);
      throw TraceError(TraceError::Kind::kIo, path, 0,
                       std::string("cannot map: ") + std::strerror(errno));
    }
    state->data = static_cast<const std::byte*>(mapped);
  }
  ::close(fd);

  ChunkWalker walker(*state);
  try {
    walker.run();
  } catch (const Truncation& t) {
    if (!options.allow_truncated) {
      throw TraceError(TraceError::Kind::kTruncated, path, t.offset,
                       "truncated trace: " + t.reason +
                           "; --allow-truncated (memcarlo simulate, memcarlo trace check) accepts "
                           "its readable prefix");
    }
    state->complete = false;
    state->truncated_at = t.offset;
    state->truncation_reason = t.reason;
  }
  walker.finalize();
  return TraceReader(std::move(state));
}

const std::string& TraceReader::path() const { return state_->path; }
std::uint16_t TraceReader::format_version() const { return state_->version; }
const TraceMeta& TraceReader::meta() const { return state_->meta; }
const std::vector<LoadInfo>& TraceReader::loads() const { return state_->loads; }
const std::vector<Allocation>& TraceReader::allocations() const { return state_->allocations; }
const std::string& TraceReader::annotations_json() const { return state_->annotations; }
const std::vector<LaunchStreams>& TraceReader::launches() const { return state_->launches; }
bool TraceReader::complete() const { return state_->complete; }
std::uint64_t TraceReader::truncated_at() const { return state_->truncated_at; }
const std::string& TraceReader::truncation_reason() const { return state_->truncation_reason; }
std::uint64_t TraceReader::total_records() const { return state_->total_records; }
std::uint64_t TraceReader::file_size() const { return state_->size; }
std::span<const std::byte> TraceReader::bytes() const {
  return {state_->data, static_cast<std::size_t>(state_->size)};
}

}  // namespace memcarlo::tracebuf
