// Trace writer: appends checksummed chunks to a file so that a killed producer leaves a readable
// prefix. Thread-safe: records of different warps may be written from different threads.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <tuple>

#include "memcarlo/tracebuf/model.hpp"
#include "memcarlo/tracebuf/record.hpp"

namespace memcarlo::tracebuf {

class TraceWriter {
 public:
  /// Creates (truncates) `path` and writes the file header and the Meta chunk.
  /// Throws TraceError (kind kIo) if the file cannot be written.
  TraceWriter(const std::string& path, const TraceMeta& meta);
  ~TraceWriter();  // closes without an End chunk unless finish() was called
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  void write_loads(std::span<const LoadInfo> loads);
  void write_allocations(std::span<const Allocation> allocations);
  /// A JSON array text; validated to be an array.
  void write_annotations(const std::string& json_array);
  /// Writes a Launch chunk and returns its index (used by write_warp_records).
  std::uint32_t begin_launch(LaunchInfo launch);
  /// Appends records of one warp, in that warp's program order. Successive calls for the same
  /// (launch, block, warp) continue its stream. Splits into chunks of about kTargetChunkPayload.
  void write_warp_records(std::uint32_t launch, std::uint32_t block, std::uint32_t warp,
                          std::span<const WarpRecord> records);
  /// Writes the End chunk and closes the file. Further writes throw.
  void finish();

  [[nodiscard]] std::uint64_t records_written() const;
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  void write_chunk(ChunkType type, std::span<const std::byte> payload);
  void write_json_chunk(ChunkType type, const std::string& json);
  void write_raw(const void* data, std::size_t size);

  std::string path_;
  int fd_ = -1;
  std::uint64_t offset_ = 0;
  std::uint32_t launch_count_ = 0;
  std::uint64_t records_ = 0;
  std::uint64_t chunks_ = 0;
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint32_t> segments_;
  mutable std::mutex mutex_;
};

}  // namespace memcarlo::tracebuf
