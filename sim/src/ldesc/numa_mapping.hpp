// CTA partitioning and data placement across NUMA zones by Locality Descriptors (Vijaykumar et
// al., ISCA'18, §4.6, Algorithm 2). Each data structure is interleaved over the Z zones by its
// own N = log2(Z) consecutive address bits [b, b + N), b in 7..16 (granularity 2^b bytes:
// 128 B to 64 KiB). For every b of the highest-priority descriptor, NUMA_PART puts each of its
// C-Tiles in the zone that holds most of its D-Tile; COMP_UTIL scores a (partition, bits) pair;
// the other descriptors each take the b that scores best under that partition; the partition
// with the best total wins.
//
// COMP_UTIL(w, d, partition, b): w x (bytes of d's D-Tiles that the CTAs of their C-Tiles find in
// their own zone) / (all such bytes). The paper names a local/remote ratio; the local share ranks
// mappings the same way for one descriptor and stays finite when nothing is remote, so that the
// weighted sum over descriptors (line 17) is defined. The weight is the paper's N - i + 1 for the
// i-th descriptor of N (the highest priority weighs most).
#pragma once

#include <cstdint>
#include <vector>

#include "memcarlo/tracebuf/locality_descriptor.hpp"
#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::sim::ldesc {

using tracebuf::Dim3;
using tracebuf::LocalityDescriptor;

inline constexpr std::uint32_t kLowestZoneBit = 7;    // 128 B: the DRAM burst
inline constexpr std::uint32_t kHighestZoneBit = 16;  // 64 KiB: beyond, pages do the mapping

/// The zone of byte `address` when bits [bit, bit + log2(zones)) index the zone.
inline std::uint32_t zone_of(std::uint64_t address, std::uint32_t bit, std::uint32_t zones) {
  return static_cast<std::uint32_t>((address >> bit) & (zones - 1));
}

struct NumaMapping {
  std::vector<std::uint32_t> bits;  // per descriptor (in the order given): the lowest zone bit
  Dim3 partition_tile;              // the C-Tile of the highest-priority descriptor
  std::vector<std::uint32_t> zone_of_tile;  // its C-Tiles (X → Y → Z) → zone
  double utility = 0;                       // the winning total

  /// The zone of the block at (x, y, z) of the grid.
  [[nodiscard]] std::uint32_t zone_of_block(std::uint32_t x, std::uint32_t y, std::uint32_t z,
                                            const Dim3& grid) const;
};

/// Per zone, the bytes of D-Tile `tile` (linear, X → Y → Z over d.data_tiles()) under bits
/// [bit, bit + log2(zones)).
std::vector<std::uint64_t> tile_bytes_per_zone(const LocalityDescriptor& d, std::uint64_t tile,
                                               std::uint32_t bit, std::uint32_t zones);

/// The C-Tile (linear, X → Y → Z over the C-Tiles of the grid) that D-Tile `tile` maps to under
/// d.compute_data_map, and its inverse.
std::uint64_t compute_tile_of_data_tile(const LocalityDescriptor& d, const Dim3& grid,
                                        std::uint64_t tile);
std::uint64_t data_tile_of_compute_tile(const LocalityDescriptor& d, const Dim3& grid,
                                        std::uint64_t compute_tile);

/// Algorithm 2. `descriptors` in priority order (tracebuf::by_priority), checked against `grid`
/// (tracebuf::check_descriptors); `zones` a power of two >= 2. std::invalid_argument otherwise.
NumaMapping map_to_zones(const std::vector<LocalityDescriptor>& descriptors, const Dim3& grid,
                         std::uint32_t zones);

}  // namespace memcarlo::sim::ldesc
