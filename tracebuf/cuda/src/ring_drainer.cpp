// Consuming ring lines and ordering the decoded records per warp (see ring_drainer.hpp).
#include "ring_drainer.hpp"

#include <bit>
#include <utility>

namespace memcarlo::cuda::detail {

RingView ring_view(void* host_base, const BufferGeometry& geometry) {
  auto* bytes = static_cast<std::byte*>(host_base);
  RingView view;
  view.geometry = geometry;
  view.lines = reinterpret_cast<RingLine*>(bytes);
  view.consumed = reinterpret_cast<std::uint64_t*>(bytes + geometry.consumed_offset());
  view.stop = reinterpret_cast<std::uint32_t*>(bytes + geometry.stop_offset());
  return view;
}

RingDrainer::RingDrainer(RingView view) : view_(view), next_(view.geometry.ring_count(), 0) {}

void RingDrainer::request_stop() {
  std::atomic_ref<std::uint32_t>(*view_.stop).store(1, std::memory_order_release);
}

LaunchRecords::LaunchRecords(LineDecoder decoder, BufferGeometry geometry,
                             std::uint64_t snapshot_first, Flush flush, std::size_t flush_records)
    : decoder_(std::move(decoder)),
      geometry_(geometry),
      snapshot_first_(snapshot_first),
      flush_(std::move(flush)),
      flush_records_(flush_records == 0 ? 1 : flush_records) {}

void LaunchRecords::add(std::uint64_t ring, const RingLine& line) {
  tracebuf::WarpRecord record;
  switch (decoder_.decode(line, record)) {
    case LineDecoder::Outcome::kUnknownLoad:
      ++counts_.unknown_load_lines;
      return;
    case LineDecoder::Outcome::kMalformed:
      ++counts_.malformed_lines;
      return;
    case LineDecoder::Outcome::kRecord:
      break;
  }
  // The decoder checked that the block is in the snapshot; the ring names the warp (a block
  // buffer holds one ring per warp of the block, see BufferGeometry::ring_of).
  const std::uint64_t warp = ring % geometry_.warps_per_block;
  const std::uint64_t key = (line.block - snapshot_first_) * geometry_.warps_per_block + warp;
  counts_.non_global_lanes +=
      static_cast<std::uint64_t>(std::popcount(line.group_mask & ~line.active_mask));
  ++counts_.records;
  Stream& stream = *streams_.try_emplace(key).first;
  stream.second.push_back(record);
  if (stream.second.size() >= flush_records_) {
    flush_stream(stream);
  }
}

void LaunchRecords::finish() {
  for (Stream& stream : streams_) {
    if (!stream.second.empty()) {
      flush_stream(stream);
    }
  }
}

void LaunchRecords::flush_stream(Stream& stream) {
  const std::uint32_t warps = geometry_.warps_per_block;
  const auto block = static_cast<std::uint32_t>(snapshot_first_ + stream.first / warps);
  const auto warp = static_cast<std::uint32_t>(stream.first % warps);
  flush_(block, warp, stream.second);
  stream.second.clear();
}

}  // namespace memcarlo::cuda::detail
