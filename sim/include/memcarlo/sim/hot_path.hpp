// Helpers for the replay's hot path. MEMCARLO_HOT forces inlining of the small cache and policy
// hooks: a call would make the caller keep their views in memory and reload them after every
// store. Byte-sized values of the hot tables (way indices, recency links, sector masks) are enums
// rather than std::uint8_t: a store through a character type may alias any object, so after each
// one the compiler must reload every value it had in a register.
#pragma once

#include <cstdint>

#if defined(__GNUC__)
#define MEMCARLO_HOT [[gnu::always_inline]] inline
#define MEMCARLO_INLINE_LAMBDA __attribute__((always_inline))  // after a lambda's parameters
#else
#define MEMCARLO_HOT inline
#define MEMCARLO_INLINE_LAMBDA
#endif

namespace memcarlo::sim {

/// Asks the CPU for the cache line at `address` ahead of a load that will need it (a hint: no
/// effect on results, and none at all where the compiler has no builtin). Named so that
/// "prefetch" in this code always means a GPU prefetcher's. GCC 12 has dropped such hints as dead
/// code before: check the binary (objdump -d | grep prefetch) before trusting an experiment.
inline void load_ahead(const void* address) {
#if defined(__GNUC__)
  __builtin_prefetch(address);
#else
  (void)address;
#endif
}

}  // namespace memcarlo::sim

namespace memcarlo::sim {

/// No way: a line a cache does not hold, or no way replacement may pick.
inline constexpr std::uint32_t kNoWay = 0xFF;

/// A way (or recency-list node) index.
enum class WayIndex : std::uint8_t {};
/// A set of sectors of a line, bit i for sector i.
enum class SectorMask : std::uint8_t {};

constexpr WayIndex way_index(std::uint32_t way) { return static_cast<WayIndex>(way); }
constexpr std::uint32_t index_of(WayIndex way) { return static_cast<std::uint32_t>(way); }
constexpr SectorMask sector_mask(std::uint32_t bits) { return static_cast<SectorMask>(bits); }
constexpr std::uint32_t bits_of(SectorMask mask) { return static_cast<std::uint32_t>(mask); }

constexpr SectorMask& operator|=(SectorMask& mask, std::uint32_t bits) {
  mask = sector_mask(bits_of(mask) | bits);
  return mask;
}

}  // namespace memcarlo::sim
