// The device probe's ring protocol (tracebuf/cuda/src/device_probe.cu) played by host threads,
// so that the drain side can be tested without a GPU: reserve a position, wait for room, fill the
// line, publish its stamp with release semantics.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "ring_drainer.hpp"

namespace cuda_backend_test {

using memcarlo::cuda::detail::BufferGeometry;
using memcarlo::cuda::detail::RingLine;
using memcarlo::cuda::detail::RingState;
using memcarlo::cuda::detail::RingView;

/// A host allocation laid out like the pinned trace buffer, plus the device-side ring state.
class HostRings {
 public:
  explicit HostRings(const BufferGeometry& geometry)
      : memory_(static_cast<std::byte*>(std::aligned_alloc(64, round_up(geometry.host_bytes())))),
        states_(geometry.ring_count()) {
    std::fill_n(memory_.get(), geometry.host_bytes(), std::byte{0});
    view_ = memcarlo::cuda::detail::ring_view(memory_.get(), geometry);
  }

  [[nodiscard]] const RingView& view() const { return view_; }

  /// Writes `content` as the next record of `warp` of `block`. Returns false if the stop flag
  /// made the producer give up.
  bool produce(std::uint64_t block, std::uint64_t first, std::uint32_t warp, RingLine content) {
    const BufferGeometry& geometry = view_.geometry;
    const std::uint64_t ring = geometry.ring_of(block, first, warp);
    const std::uint64_t position =
        std::atomic_ref<unsigned long long>(states_[ring].reserved).fetch_add(1);
    while (
        position -
            std::atomic_ref<std::uint64_t>(view_.consumed[ring]).load(std::memory_order_acquire) >=
        geometry.lines_per_ring) {
      if (std::atomic_ref<std::uint32_t>(*view_.stop).load(std::memory_order_acquire) != 0) {
        return false;
      }
      std::this_thread::yield();
    }
    RingLine& line =
        view_.lines[ring * geometry.lines_per_ring + position % geometry.lines_per_ring];
    content.block = static_cast<std::uint32_t>(block);
    content.stamp = line.stamp;  // not ours to write yet
    line = content;
    std::atomic_ref<std::uint64_t>(line.stamp).store(position + 1, std::memory_order_release);
    return true;
  }

  /// Reserves a position and never completes it (a producer that gave up after reserving).
  void reserve_and_abandon(std::uint64_t block, std::uint64_t first, std::uint32_t warp) {
    const std::uint64_t ring = view_.geometry.ring_of(block, first, warp);
    std::atomic_ref<unsigned long long>(states_[ring].reserved).fetch_add(1);
  }

 private:
  struct Free {
    void operator()(std::byte* p) const { std::free(p); }
  };
  static std::size_t round_up(std::uint64_t bytes) { return (bytes + 63) / 64 * 64; }

  std::unique_ptr<std::byte, Free> memory_;
  std::vector<RingState> states_;
  RingView view_;
};

/// A line with one active lane per bit of `mask`, lane l at `base + 4 * l`.
inline RingLine make_line(std::uint32_t tu, std::uint32_t local_id, std::uint32_t mask,
                          std::uint64_t base, std::uint8_t element_size = 4) {
  RingLine line{};
  line.tu = tu;
  line.local_id = local_id;
  line.active_mask = mask;
  line.group_mask = mask;
  line.element_size = element_size;
  for (std::uint32_t lane = 0; lane < 32; ++lane) {
    if ((mask >> lane & 1u) != 0) {
      line.addresses[lane] = base + 4 * lane;
    }
  }
  return line;
}

}  // namespace cuda_backend_test
