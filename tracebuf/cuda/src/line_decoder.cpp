// Ring line -> WarpRecord (see line_decoder.hpp).
#include "line_decoder.hpp"

#include <bit>
#include <utility>

namespace memcarlo::cuda::detail {

LineDecoder::LineDecoder(std::shared_ptr<const host::detail::LoadsIndex> loads,
                         std::uint32_t traced_load_count, std::uint64_t snapshot_first,
                         std::uint64_t snapshot_count)
    : loads_(std::move(loads)),
      traced_load_count_(traced_load_count),
      snapshot_first_(snapshot_first),
      snapshot_count_(snapshot_count) {}

LineDecoder::Outcome LineDecoder::decode(const RingLine& line, tracebuf::WarpRecord& out) const {
  if (line.active_mask == 0 || (line.active_mask & ~line.group_mask) != 0 ||
      line.block - snapshot_first_ >= snapshot_count_) {  // a block below first wraps around
    return Outcome::kMalformed;
  }
  const std::uint32_t global_id =
      loads_ ? loads_->global_id(line.tu, line.local_id) : host::detail::kUnknownLoad;
  if (global_id >= traced_load_count_ || global_id >= loads_->kinds().size()) {
    return Outcome::kUnknownLoad;
  }
  out.static_id = global_id;
  out.kind = loads_->kinds()[global_id];
  out.element_size = line.element_size;
  out.barriers = line.barriers;
  out.active_mask = line.active_mask;
  out.addresses.fill(0);
  for (std::uint32_t mask = line.active_mask; mask != 0; mask &= mask - 1) {
    const int lane = std::countr_zero(mask);
    out.addresses[static_cast<std::size_t>(lane)] = line.addresses[lane];
  }
  return Outcome::kRecord;
}

}  // namespace memcarlo::cuda::detail
