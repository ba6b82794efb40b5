// Trace writer: frames payloads as checksummed chunks and appends them with one write each, so
// that whatever a killed producer leaves behind is a valid prefix plus at most one torn chunk.
#include "memcarlo/tracebuf/writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <vector>

#include "memcarlo/tracebuf/crc32c.hpp"
#include "memcarlo/tracebuf/errors.hpp"
#include "memcarlo/tracebuf/format.hpp"
#include "memcarlo/tracebuf/metadata.hpp"

namespace memcarlo::tracebuf {
namespace {

std::span<const std::byte> as_bytes(const std::string& s) {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}

void validate_record(const WarpRecord& record) {
  if (record.active_mask == 0) {
    throw std::invalid_argument("trace record with an empty active mask (static id " +
                                std::to_string(record.static_id) + ")");
  }
  if (record.element_size == 0) {
    throw std::invalid_argument("trace record with element size 0 (static id " +
                                std::to_string(record.static_id) + ")");
  }
  if (static_cast<std::uint8_t>(record.kind) >= kAccessKindCount) {
    throw std::invalid_argument("trace record with an unknown access kind");
  }
}

}  // namespace

TraceWriter::TraceWriter(const std::string& path, const TraceMeta& meta) : path_(path) {
  // The header and the Meta chunk are written under a temporary name that is then renamed: a
  // producer killed at any moment leaves either no trace at `path` (an older one is removed
  // first, so it cannot pass for this run's) or one that begins with a whole header and Meta
  // chunk, which `--allow-truncated` reads.
  const std::string partial = path + ".partial";
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    throw TraceError(TraceError::Kind::kIo, path, 0,
                     std::string("cannot replace the trace file: ") + std::strerror(errno));
  }
  fd_ = ::open(partial.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    throw TraceError(TraceError::Kind::kIo, path, 0,
                     std::string("cannot create trace file: ") + std::strerror(errno));
  }
  FileHeader header{};
  std::memcpy(header.magic, kFileMagic, sizeof header.magic);
  header.format_version = kFormatVersion;
  header.endian_marker = kEndianMarker;
  header.header_size = sizeof(FileHeader);
  header.header_crc = crc32c(&header, offsetof(FileHeader, header_crc));
  std::lock_guard lock(mutex_);
  write_raw(&header, sizeof header);
  TraceMeta with_version = meta;
  if (with_version.producer_version.empty()) {
    with_version.producer_version = MEMCARLO_VERSION;
  }
  write_json_chunk(ChunkType::kMeta, meta_to_json(with_version));
  if (::rename(partial.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    ::unlink(partial.c_str());
    throw TraceError(TraceError::Kind::kIo, path, 0,
                     std::string("cannot create trace file: ") + std::strerror(error));
  }
}

TraceWriter::~TraceWriter() {
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

void TraceWriter::write_raw(const void* data, std::size_t size) {
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd_, p, size);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      throw TraceError(TraceError::Kind::kIo, path_, offset_,
                       std::string("write failed: ") + std::strerror(errno));
    }
    p += n;
    size -= static_cast<std::size_t>(n);
    offset_ += static_cast<std::uint64_t>(n);
  }
}

void TraceWriter::write_chunk(ChunkType type, std::span<const std::byte> payload) {
  if (fd_ < 0) {
    throw TraceError(TraceError::Kind::kIo, path_, offset_, "write after finish()");
  }
  ChunkHeader header{};
  header.magic = kChunkMagic;
  header.type = static_cast<std::uint16_t>(type);
  header.payload_size = payload.size();
  header.payload_crc = crc32c(payload.data(), payload.size());
  header.header_crc = crc32c(&header, offsetof(ChunkHeader, header_crc));
  const std::size_t padding = (8 - payload.size() % 8) % 8;
  // One contiguous buffer and one write: a torn chunk can only be the last one.
  std::vector<std::byte> buffer(sizeof header + payload.size() + padding);
  std::memcpy(buffer.data(), &header, sizeof header);
  if (!payload.empty()) {
    std::memcpy(buffer.data() + sizeof header, payload.data(), payload.size());
  }
  write_raw(buffer.data(), buffer.size());
  ++chunks_;
}

void TraceWriter::write_json_chunk(ChunkType type, const std::string& json) {
  write_chunk(type, as_bytes(json));
}

void TraceWriter::write_loads(std::span<const LoadInfo> loads) {
  const std::string json = loads_to_json(loads);
  std::lock_guard lock(mutex_);
  write_json_chunk(ChunkType::kLoads, json);
}

void TraceWriter::write_allocations(std::span<const Allocation> allocations) {
  const std::string json = allocations_to_json(allocations);
  std::lock_guard lock(mutex_);
  write_json_chunk(ChunkType::kAllocations, json);
}

void TraceWriter::write_annotations(const std::string& json_array) {
  if (!nlohmann::json::accept(json_array) || !nlohmann::json::parse(json_array).is_array()) {
    throw std::invalid_argument("annotations must be a JSON array");
  }
  std::lock_guard lock(mutex_);
  write_json_chunk(ChunkType::kAnnotations, json_array);
}

std::uint32_t TraceWriter::begin_launch(LaunchInfo launch) {
  std::lock_guard lock(mutex_);
  launch.index = launch_count_;
  write_json_chunk(ChunkType::kLaunch, launch_to_json(launch));
  return launch_count_++;
}

void TraceWriter::write_warp_records(std::uint32_t launch, std::uint32_t block, std::uint32_t warp,
                                     std::span<const WarpRecord> records) {
  std::size_t next = 0;
  std::vector<std::byte> payload;
  while (next < records.size()) {
    // Encode outside the lock; only framing and the segment number need it.
    payload.assign(sizeof(WarpRecordsHeader), std::byte{0});
    std::uint32_t count = 0;
    while (next < records.size() && payload.size() < kTargetChunkPayload) {
      validate_record(records[next]);
      const std::size_t at = payload.size();
      payload.resize(at + kMaxEncodedRecordBytes);
      payload.resize(at + encode_record(records[next], payload.data() + at));
      ++next;
      ++count;
    }
    WarpRecordsHeader header{launch, block, warp, 0, count, 0};
    std::lock_guard lock(mutex_);
    if (launch >= launch_count_) {
      throw std::invalid_argument("write_warp_records: launch " + std::to_string(launch) +
                                  " was not begun");
    }
    header.segment = segments_[{launch, block, warp}]++;
    std::memcpy(payload.data(), &header, sizeof header);
    write_chunk(ChunkType::kWarpRecords, payload);
    records_ += count;
  }
}

void TraceWriter::finish() {
  std::lock_guard lock(mutex_);
  nlohmann::json end = {{"records", records_},
                        {"launches", launch_count_},
                        {"warp_streams", segments_.size()},
                        {"chunks", chunks_ + 1}};
  write_json_chunk(ChunkType::kEnd, end.dump());
  if (::close(fd_) != 0) {
    fd_ = -1;
    throw TraceError(TraceError::Kind::kIo, path_, offset_,
                     std::string("close failed: ") + std::strerror(errno));
  }
  fd_ = -1;
}

std::uint64_t TraceWriter::records_written() const {
  std::lock_guard lock(mutex_);
  return records_;
}

}  // namespace memcarlo::tracebuf
