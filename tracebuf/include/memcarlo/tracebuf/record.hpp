// Warp records: the owning form a producer builds (WarpRecord) and the zero-copy view a reader
// hands out (RecordView), which decodes lane addresses in place from the mapped file.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "memcarlo/tracebuf/format.hpp"
#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::tracebuf {

/// One dynamic warp-level memory instruction, as a producer hands it to the writer.
struct WarpRecord {
  std::uint32_t static_id = 0;
  AccessKind kind = AccessKind::kRead;
  std::uint8_t element_size = 4;
  std::uint8_t barriers = 0;  // __syncthreads crossed since the previous record of this warp
  std::uint32_t active_mask = 0;
  std::array<std::uint64_t, kWarpSize> addresses{};  // indexed by lane; inactive lanes ignored
};

/// A record inside a mapped trace. Cheap to copy; valid while the reader lives.
class RecordView {
 public:
  RecordView() = default;
  explicit RecordView(const std::byte* at) : at_(at) { std::memcpy(&header_, at, sizeof header_); }

  [[nodiscard]] std::uint32_t static_id() const { return header_.static_id; }
  [[nodiscard]] AccessKind kind() const { return static_cast<AccessKind>(header_.kind); }
  [[nodiscard]] std::uint32_t element_size() const { return header_.element_size; }
  [[nodiscard]] std::uint32_t barriers() const { return header_.barriers; }
  [[nodiscard]] std::uint32_t active_mask() const { return header_.active_mask; }
  [[nodiscard]] unsigned active_lanes() const { return std::popcount(header_.active_mask); }
  [[nodiscard]] AddressEncoding encoding() const {
    return static_cast<AddressEncoding>(header_.encoding);
  }
  /// Address of the k-th active lane in ascending lane order (k < active_lanes()).
  [[nodiscard]] std::uint64_t active_address(unsigned k) const;
  /// Calls f(lane, address) for each active lane in ascending lane order.
  template <class F>
  void for_each_address(F&& f) const {
    std::uint32_t mask = header_.active_mask;
    for (unsigned k = 0; mask != 0; ++k) {
      const unsigned lane = static_cast<unsigned>(std::countr_zero(mask));
      mask &= mask - 1;
      f(lane, lane_address(lane, k));
    }
  }
  /// Total size in the stream, header and payload.
  [[nodiscard]] std::size_t size_bytes() const {
    return sizeof(RecordHeader) + record_payload_bytes(encoding(), active_lanes());
  }
  /// Copies the record into its owning form.
  [[nodiscard]] WarpRecord to_record() const;

 private:
  [[nodiscard]] std::uint64_t lane_address(unsigned lane, unsigned k) const {
    const std::byte* payload = at_ + sizeof(RecordHeader);
    switch (encoding()) {
      case AddressEncoding::kStride:
        return header_.base + static_cast<std::uint64_t>(static_cast<std::int64_t>(lane) *
                                                         header_.stride);
      case AddressEncoding::kDelta32: {
        std::int32_t delta;
        std::memcpy(&delta, payload + 4 * k, 4);
        return header_.base + static_cast<std::uint64_t>(static_cast<std::int64_t>(delta));
      }
      case AddressEncoding::kAbsolute64: {
        std::uint64_t address;
        std::memcpy(&address, payload + 8 * k, 8);
        return address;
      }
    }
    return 0;
  }

  const std::byte* at_ = nullptr;
  RecordHeader header_{};
};

/// Encodes a record into `out` (appending), choosing the most compact encoding. Returns bytes added.
std::size_t encode_record(const WarpRecord& record, std::byte* out);
/// Upper bound of encode_record's output for any record.
inline constexpr std::size_t kMaxEncodedRecordBytes = sizeof(RecordHeader) + 8 * kWarpSize;

}  // namespace memcarlo::tracebuf
