// Record encoding: picks the most compact of stride, 32-bit delta and absolute address forms.
#include "memcarlo/tracebuf/record.hpp"

#include <limits>

namespace memcarlo::tracebuf {

std::uint64_t RecordView::active_address(unsigned k) const {
  std::uint32_t mask = header_.active_mask;
  for (unsigned i = 0; i < k; ++i) {
    mask &= mask - 1;
  }
  return lane_address(static_cast<unsigned>(std::countr_zero(mask)), k);
}

WarpRecord RecordView::to_record() const {
  WarpRecord record;
  record.static_id = static_id();
  record.kind = kind();
  record.element_size = static_cast<std::uint8_t>(element_size());
  record.barriers = static_cast<std::uint8_t>(barriers());
  record.active_mask = active_mask();
  for_each_address([&](unsigned lane, std::uint64_t address) { record.addresses[lane] = address; });
  return record;
}

std::size_t encode_record(const WarpRecord& record, std::byte* out) {
  RecordHeader header{};
  header.static_id = record.static_id;
  header.active_mask = record.active_mask;
  header.kind = static_cast<std::uint8_t>(record.kind);
  header.element_size = record.element_size;
  header.barriers = record.barriers;

  const std::uint32_t mask = record.active_mask;
  const unsigned first_lane = static_cast<unsigned>(std::countr_zero(mask | 0x80000000u));
  const std::uint64_t first = record.addresses[first_lane];

  // Stride form: every active lane at first + (lane - first_lane) * stride, stride fits in int32.
  bool strided = mask != 0;
  std::int64_t stride = 0;
  bool stride_known = false;
  std::uint32_t rest = mask & (mask - 1);
  while (strided && rest != 0) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(rest));
    rest &= rest - 1;
    const auto diff = static_cast<std::int64_t>(record.addresses[lane] - first);
    const auto lanes = static_cast<std::int64_t>(lane - first_lane);
    if (!stride_known) {
      if (diff % lanes != 0) {
        strided = false;
        break;
      }
      stride = diff / lanes;
      stride_known = true;
    } else if (diff != stride * lanes) {
      strided = false;
    }
  }
  if (strided && stride >= std::numeric_limits<std::int32_t>::min() &&
      stride <= std::numeric_limits<std::int32_t>::max()) {
    header.encoding = static_cast<std::uint8_t>(AddressEncoding::kStride);
    header.stride = static_cast<std::int32_t>(stride);
    header.base = first - static_cast<std::uint64_t>(stride * first_lane);
    std::memcpy(out, &header, sizeof header);
    return sizeof header;
  }

  // Delta form: every active address within int32 of the first one.
  bool fits32 = true;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const auto diff = static_cast<std::int64_t>(record.addresses[std::countr_zero(m)] - first);
    if (diff < std::numeric_limits<std::int32_t>::min() ||
        diff > std::numeric_limits<std::int32_t>::max()) {
      fits32 = false;
      break;
    }
  }
  const unsigned lanes = static_cast<unsigned>(std::popcount(mask));
  std::byte* payload = out + sizeof header;
  if (fits32) {
    header.encoding = static_cast<std::uint8_t>(AddressEncoding::kDelta32);
    header.base = first;
    unsigned k = 0;
    for (std::uint32_t m = mask; m != 0; m &= m - 1, ++k) {
      const auto delta =
          static_cast<std::int32_t>(static_cast<std::int64_t>(record.addresses[std::countr_zero(m)] - first));
      std::memcpy(payload + 4 * k, &delta, 4);
    }
    const std::size_t bytes = record_payload_bytes(AddressEncoding::kDelta32, lanes);
    std::memset(payload + 4 * k, 0, bytes - 4 * k);
    std::memcpy(out, &header, sizeof header);
    return sizeof header + bytes;
  }

  header.encoding = static_cast<std::uint8_t>(AddressEncoding::kAbsolute64);
  header.base = first;
  unsigned k = 0;
  for (std::uint32_t m = mask; m != 0; m &= m - 1, ++k) {
    std::memcpy(payload + 8 * k, &record.addresses[std::countr_zero(m)], 8);
  }
  std::memcpy(out, &header, sizeof header);
  return sizeof header + 8 * lanes;
}

}  // namespace memcarlo::tracebuf
