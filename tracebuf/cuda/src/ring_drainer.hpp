// The host side of the warp rings: consuming complete lines in ring order (RingDrainer), and
// sorting the decoded records into per-(block, warp) streams in program order that go to the trace
// writer in bounded pieces (LaunchRecords).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <span>
#include <vector>

#include "buffer_geometry.hpp"
#include "line_decoder.hpp"
#include "memcarlo/tracebuf/record.hpp"
#include "ring_buffer_layout.h"

namespace memcarlo::cuda::detail {

/// The rings of one launch as the host sees them: the pinned allocation of BufferGeometry's
/// layout (or plain memory in tests).
struct RingView {
  BufferGeometry geometry;
  RingLine* lines = nullptr;
  std::uint64_t* consumed = nullptr;
  std::uint32_t* stop = nullptr;
};

/// Views `host_base`, an allocation of geometry.host_bytes() bytes aligned to 64.
RingView ring_view(void* host_base, const BufferGeometry& geometry);

/// Consumes complete lines. Single consumer: one thread at a time calls drain().
///
/// Contract with the producers (device_probe.cu): a producer reserves position p of ring r,
/// waits until p - consumed[r] < lines_per_ring, fills line p % lines_per_ring and then stores
/// stamp = p + 1 with release semantics at system scope. The drainer reads the stamp with acquire
/// semantics, copies the line, and only then advances consumed[r] (release), so a producer never
/// overwrites a line that is still being copied. Lines of a ring are consumed in position order;
/// the positions a warp reserves increase in its program order, so each warp's records come out
/// in program order.
class RingDrainer {
 public:
  explicit RingDrainer(RingView view);

  /// Hands every complete line at the head of every ring to sink(ring, line) (a copy that lives
  /// for the call), then publishes the new consumed counts. Returns the number of lines.
  template <class Sink>
  std::uint64_t drain(Sink&& sink) {
    const std::uint32_t lines_per_ring = view_.geometry.lines_per_ring;
    std::uint64_t total = 0;
    RingLine copy;
    for (std::uint64_t ring = 0; ring < next_.size(); ++ring) {
      std::uint64_t position = next_[ring];
      RingLine* base = view_.lines + ring * lines_per_ring;
      for (;;) {
        RingLine& line = base[position % lines_per_ring];
        if (std::atomic_ref<std::uint64_t>(line.stamp).load(std::memory_order_acquire) !=
            position + 1) {
          break;
        }
        std::memcpy(&copy, &line, sizeof copy);
        sink(ring, static_cast<const RingLine&>(copy));
        ++position;
      }
      if (position != next_[ring]) {
        total += position - next_[ring];
        next_[ring] = position;
        std::atomic_ref<std::uint64_t>(view_.consumed[ring])
            .store(position, std::memory_order_release);
      }
    }
    return total;
  }

  /// The cut-off: probes give up from now on (those waiting on a full ring at once, the others
  /// within kStopPollInterval reservations).
  void request_stop();

  /// Lines consumed so far, per ring.
  [[nodiscard]] std::span<const std::uint64_t> consumed() const { return next_; }

 private:
  RingView view_;
  std::vector<std::uint64_t> next_;  // our copy of consumed[]
};

/// Counts of what happened to the lines of one launch.
struct LineCounts {
  std::uint64_t records = 0;
  std::uint64_t unknown_load_lines = 0;
  std::uint64_t malformed_lines = 0;
  std::uint64_t non_global_lanes = 0;  // lanes of a group whose address was not global memory
};

/// The records of one traced launch, sorted into (block, warp) streams. A stream is flushed to
/// `flush` when it holds `flush_records` records and at finish(); finish() flushes in (block,
/// warp) order. Every flush of a stream continues it (TraceWriter::write_warp_records).
class LaunchRecords {
 public:
  using Flush = std::function<void(std::uint32_t block, std::uint32_t warp,
                                   std::span<const tracebuf::WarpRecord> records)>;
  static constexpr std::size_t kDefaultFlushRecords = 4096;

  LaunchRecords(LineDecoder decoder, BufferGeometry geometry, std::uint64_t snapshot_first,
                Flush flush, std::size_t flush_records = kDefaultFlushRecords);

  /// One line consumed from `ring`.
  void add(std::uint64_t ring, const RingLine& line);
  /// Flushes every non-empty stream, in (block, warp) order.
  void finish();

  [[nodiscard]] const LineCounts& counts() const { return counts_; }

 private:
  using Stream = std::map<std::uint64_t, std::vector<tracebuf::WarpRecord>>::value_type;
  void flush_stream(Stream& stream);

  LineDecoder decoder_;
  BufferGeometry geometry_;
  std::uint64_t snapshot_first_;
  Flush flush_;
  std::size_t flush_records_;
  // By (block - first) * warps_per_block + warp: iteration order is (block, warp) order.
  std::map<std::uint64_t, std::vector<tracebuf::WarpRecord>> streams_;
  LineCounts counts_;
};

}  // namespace memcarlo::cuda::detail
