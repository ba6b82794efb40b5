// Bounds checks of probed accesses (docs/host-runtime.md, "Bounds checks"). An address in the
// device window (the reserved range where device and managed memory live, and a guard below it)
// can only be device memory, so a probed access there must lie wholly inside a live device or
// managed allocation; anything else a probe sees (shared memory, the fiber's stack, __constant__
// and __device__ variables, pinned or registered host memory, the heap) is outside the window and
// not judged.
#pragma once

#include <array>
#include <cstdint>

namespace memcarlo::host::detail {

struct ThreadState;

/// Per OS thread: allocation ranges that recent probes fell in, in slots chosen by (unit, static
/// id). Every slot holds a live allocation of the running launch, so a hit proves an access in
/// bounds whichever probe filled the slot; a collision only costs a lookup.
struct BoundsCache {
  static constexpr std::uint32_t kSlots = 64;
  struct Range {
    std::uint64_t begin = 1;  // empty
    std::uint64_t end = 0;
  };
  std::array<Range, kSlots> slots{};
  std::uint64_t ranges_generation = 0;  // the allocation snapshot the slots come from

  static std::uint32_t slot(unsigned unit, unsigned static_id) {
    // Units are hashes and static ids small consecutive numbers: the ids of one unit never
    // collide.
    return (static_id ^ unit) % kSlots;
  }
  /// Empties the slots when the launch's allocation snapshot is not the one they came from.
  void use_generation(std::uint64_t generation) {
    if (generation != ranges_generation) {
      slots.fill(Range{});
      ranges_generation = generation;
    }
  }
};

/// The probe's slow path, for an address in the device window that its slot does not cover:
/// finds the allocation and fills the slot, or reports the access and ends the program (exit
/// status 70) when no live allocation holds all of [address, address + size).
void check_device_access(ThreadState& thread, unsigned unit, unsigned static_id,
                         std::uint64_t address, unsigned size);

}  // namespace memcarlo::host::detail
