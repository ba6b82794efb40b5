// Zero-copy trace reader: maps the file, validates every chunk's framing and checksum on open, and
// exposes metadata plus per-warp record streams that decode in place.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "memcarlo/tracebuf/errors.hpp"
#include "memcarlo/tracebuf/model.hpp"
#include "memcarlo/tracebuf/record.hpp"

namespace memcarlo::tracebuf {

/// The records of one warp, possibly spread over several chunks.
class WarpStream {
 public:
  struct Segment {
    const std::byte* begin;  // first record
    const std::byte* end;    // one past the last record
    std::uint32_t record_count;
    std::uint64_t file_offset;  // of the first record, for messages
  };

  std::uint32_t launch = 0;
  std::uint32_t block = 0;  // linear block id in the grid
  std::uint32_t warp = 0;
  std::uint64_t record_count = 0;
  std::vector<Segment> segments;

  /// Calls f(RecordView) for every record in program order.
  template <class F>
  void for_each(F&& f) const {
    for (const Segment& segment : segments) {
      const std::byte* at = segment.begin;
      for (std::uint32_t i = 0; i < segment.record_count; ++i) {
        RecordView view(at);
        f(view);
        at += view.size_bytes();
      }
    }
  }
};

struct LaunchStreams {
  LaunchInfo info;
  std::vector<WarpStream> warps;  // sorted by (block, warp)
};

struct ReadOptions {
  /// Accept a file without an End chunk, or with a torn last chunk, as its complete prefix.
  bool allow_truncated = false;
};

class TraceReader {
 public:
  struct State;  // implementation detail (reader.cpp)

  /// Opens and validates framing, checksums and record structure. Throws TraceError.
  static TraceReader open(const std::string& path, ReadOptions options = {});

  TraceReader(TraceReader&&) noexcept;
  TraceReader& operator=(TraceReader&&) noexcept;
  ~TraceReader();

  [[nodiscard]] const std::string& path() const;
  [[nodiscard]] std::uint16_t format_version() const;
  [[nodiscard]] const TraceMeta& meta() const;
  [[nodiscard]] const std::vector<LoadInfo>& loads() const;
  [[nodiscard]] const std::vector<Allocation>& allocations() const;
  [[nodiscard]] const std::string& annotations_json() const;  // "[]" if none
  [[nodiscard]] const std::vector<LaunchStreams>& launches() const;
  /// False when the file had no End chunk or a torn tail (only with allow_truncated).
  [[nodiscard]] bool complete() const;
  /// When incomplete: the byte offset where the readable prefix ends and why.
  [[nodiscard]] std::uint64_t truncated_at() const;
  [[nodiscard]] const std::string& truncation_reason() const;
  [[nodiscard]] std::uint64_t total_records() const;
  [[nodiscard]] std::uint64_t file_size() const;
  /// The whole file, for digests.
  [[nodiscard]] std::span<const std::byte> bytes() const;

 private:
  explicit TraceReader(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

/// Invariants beyond framing: every record's static id is in the loads table, kinds and sizes are
/// valid, the (launch, block, warp) is inside the launch's snapshot and block shape, segments are
/// numbered without gaps, and lanes addresses lie in known allocations when any are listed
/// (reported as a warning count, not an error, since producers may omit allocations).
struct CheckReport {
  std::uint64_t records = 0;
  std::uint64_t warps = 0;
  std::uint64_t addresses_outside_allocations = 0;
  std::vector<std::string> warnings;
};
/// Throws TraceError (kind kInvariant) naming the offset of the first violating record.
CheckReport check_invariants(const TraceReader& reader);

}  // namespace memcarlo::tracebuf
