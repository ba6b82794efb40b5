// Algorithm 2 of the Locality Descriptor paper (see numa_mapping.hpp).
#include "numa_mapping.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>
#include <string>

#include "clustering.hpp"

namespace memcarlo::sim::ldesc {
namespace {

std::uint32_t component(const Dim3& d, int i) {
  return i == 0 ? d.x : i == 1 ? d.y : d.z;
}

/// The traversed grid dimensions in rank order (rank 1 first).
std::vector<int> traversal(const LocalityDescriptor& d) {
  std::vector<int> dims;
  for (std::uint32_t rank = 1; rank <= 3; ++rank) {
    for (int k = 0; k < 3; ++k) {
      if (component(d.compute_data_map, k) == rank) {
        dims.push_back(k);
      }
    }
  }
  return dims;
}

/// Adds the bytes of [begin, begin + length) to `bytes` per zone.
void add_range(std::uint64_t begin, std::uint64_t length, std::uint32_t bit, std::uint32_t zones,
               std::vector<std::uint64_t>& bytes) {
  const std::uint64_t chunk = std::uint64_t{1} << bit;
  const std::uint64_t period = chunk * zones;
  std::uint64_t at = begin;
  std::uint64_t end = begin + length;
  // Head: up to the next period boundary.
  while (at < end && at % period != 0) {
    const std::uint64_t next = std::min(end, (at / chunk + 1) * chunk);
    bytes[zone_of(at, bit, zones)] += next - at;
    at = next;
  }
  // Whole periods: every zone gets one chunk each.
  const std::uint64_t periods = (end - at) / period;
  for (auto& b : bytes) {
    b += periods * chunk;
  }
  at += periods * period;
  while (at < end) {
    const std::uint64_t next = std::min(end, (at / chunk + 1) * chunk);
    bytes[zone_of(at, bit, zones)] += next - at;
    at = next;
  }
}

/// Per C-Tile of `d` (linear over the grid's C-Tiles), the bytes of its D-Tile per zone.
std::vector<std::vector<std::uint64_t>> bytes_by_compute_tile(const LocalityDescriptor& d,
                                                              const Dim3& grid, std::uint32_t bit,
                                                              std::uint32_t zones) {
  const std::uint64_t tiles = d.data_tiles().volume();
  std::vector<std::vector<std::uint64_t>> out(tiles);
  for (std::uint64_t t = 0; t < tiles; ++t) {
    out[compute_tile_of_data_tile(d, grid, t)] = tile_bytes_per_zone(d, t, bit, zones);
  }
  return out;
}

/// The C-Tile of `d` that holds block (x, y, z).
std::uint64_t compute_tile_of_block(const LocalityDescriptor& d, const Dim3& grid, std::uint32_t x,
                                    std::uint32_t y, std::uint32_t z) {
  const Dim3 count = tiles_over(grid, d.compute_tile);
  return (std::uint64_t{z / d.compute_tile.z} * count.y + y / d.compute_tile.y) * count.x +
         x / d.compute_tile.x;
}

/// COMP_UTIL: weight x the local share of the bytes the blocks' D-Tiles hold.
template <typename ZoneOfBlock>
double utility(double weight, const LocalityDescriptor& d, const Dim3& grid,
               const std::vector<std::vector<std::uint64_t>>& bytes, ZoneOfBlock&& zone_of_block) {
  std::uint64_t local = 0;
  std::uint64_t total = 0;
  for (std::uint32_t z = 0; z < grid.z; ++z) {
    for (std::uint32_t y = 0; y < grid.y; ++y) {
      for (std::uint32_t x = 0; x < grid.x; ++x) {
        const auto& per_zone = bytes[compute_tile_of_block(d, grid, x, y, z)];
        local += per_zone[zone_of_block(x, y, z)];
        for (std::uint64_t b : per_zone) {
          total += b;
        }
      }
    }
  }
  return total == 0 ? 0.0 : weight * static_cast<double>(local) / static_cast<double>(total);
}

}  // namespace

std::uint32_t NumaMapping::zone_of_block(std::uint32_t x, std::uint32_t y, std::uint32_t z,
                                         const Dim3& grid) const {
  const Dim3 count = tiles_over(grid, partition_tile);
  const std::uint64_t tile =
      (std::uint64_t{z / partition_tile.z} * count.y + y / partition_tile.y) * count.x +
      x / partition_tile.x;
  return zone_of_tile[tile];
}

std::vector<std::uint64_t> tile_bytes_per_zone(const LocalityDescriptor& d, std::uint64_t tile,
                                               std::uint32_t bit, std::uint32_t zones) {
  std::vector<std::uint64_t> bytes(zones, 0);
  const Dim3 count = d.data_tiles();
  const std::uint64_t tx = tile % count.x;
  const std::uint64_t ty = tile / count.x % count.y;
  const std::uint64_t tz = tile / (std::uint64_t{count.x} * count.y);
  const std::uint64_t x0 = tx * d.data_tile.x;
  const std::uint64_t width = std::min<std::uint64_t>(d.data_tile.x, d.shape.x - x0);
  for (std::uint64_t z = tz * d.data_tile.z;
       z < std::min<std::uint64_t>((tz + 1) * d.data_tile.z, d.shape.z); ++z) {
    for (std::uint64_t y = ty * d.data_tile.y;
         y < std::min<std::uint64_t>((ty + 1) * d.data_tile.y, d.shape.y); ++y) {
      const std::uint64_t element = (z * d.shape.y + y) * d.shape.x + x0;
      add_range(d.address + element * d.element_size, width * d.element_size, bit, zones, bytes);
    }
  }
  return bytes;
}

std::uint64_t compute_tile_of_data_tile(const LocalityDescriptor& d, const Dim3& grid,
                                        std::uint64_t tile) {
  const Dim3 count = tiles_over(grid, d.compute_tile);
  std::array<std::uint64_t, 3> coordinate{0, 0, 0};
  for (int k : traversal(d)) {
    const std::uint32_t n = component(count, k);
    coordinate[static_cast<std::size_t>(k)] = tile % n;
    tile /= n;
  }
  return (coordinate[2] * count.y + coordinate[1]) * count.x + coordinate[0];
}

std::uint64_t data_tile_of_compute_tile(const LocalityDescriptor& d, const Dim3& grid,
                                        std::uint64_t compute_tile) {
  const Dim3 count = tiles_over(grid, d.compute_tile);
  const std::array<std::uint64_t, 3> coordinate{compute_tile % count.x,
                                                compute_tile / count.x % count.y,
                                                compute_tile / (std::uint64_t{count.x} * count.y)};
  std::uint64_t tile = 0;
  std::uint64_t scale = 1;
  for (int k : traversal(d)) {
    tile += coordinate[static_cast<std::size_t>(k)] * scale;
    scale *= component(count, k);
  }
  return tile;
}

NumaMapping map_to_zones(const std::vector<LocalityDescriptor>& descriptors, const Dim3& grid,
                         std::uint32_t zones) {
  if (descriptors.empty()) {
    throw std::invalid_argument("map_to_zones: no Locality Descriptor");
  }
  if (zones < 2 || !std::has_single_bit(zones)) {
    throw std::invalid_argument("map_to_zones: " + std::to_string(zones) +
                                " zones; the address bits index a power of two of them");
  }
  const auto n = static_cast<double>(descriptors.size());
  const LocalityDescriptor& first = descriptors.front();
  const std::uint64_t first_tiles = tiles_over(grid, first.compute_tile).volume();
  NumaMapping best;
  bool have = false;
  for (std::uint32_t hi = kLowestZoneBit; hi <= kHighestZoneBit; ++hi) {
    // NUMA_PART: each C-Tile in the zone that holds most of its D-Tile (the lowest on a tie).
    const auto first_bytes = bytes_by_compute_tile(first, grid, hi, zones);
    std::vector<std::uint32_t> zone_of_tile(first_tiles, 0);
    for (std::uint64_t c = 0; c < first_tiles; ++c) {
      const auto& per_zone = first_bytes[c];
      zone_of_tile[c] = static_cast<std::uint32_t>(
          std::max_element(per_zone.begin(), per_zone.end()) - per_zone.begin());
    }
    const auto zone_of_block = [&](std::uint32_t x, std::uint32_t y, std::uint32_t z) {
      return zone_of_tile[compute_tile_of_block(first, grid, x, y, z)];
    };
    double total = utility(n, first, grid, first_bytes, zone_of_block);
    std::vector<std::uint32_t> bits{hi};
    for (std::size_t i = 1; i < descriptors.size(); ++i) {
      std::uint32_t chosen = kLowestZoneBit;
      double chosen_utility = 0;
      for (std::uint32_t lo = kLowestZoneBit; lo <= kHighestZoneBit; ++lo) {
        const double u =
            utility(n - static_cast<double>(i), descriptors[i], grid,
                    bytes_by_compute_tile(descriptors[i], grid, lo, zones), zone_of_block);
        if (u > chosen_utility) {
          chosen = lo;
          chosen_utility = u;
        }
      }
      bits.push_back(chosen);
      total += chosen_utility;
    }
    if (!have || total > best.utility) {
      have = true;
      best.bits = std::move(bits);
      best.partition_tile = first.compute_tile;
      best.zone_of_tile = std::move(zone_of_tile);
      best.utility = total;
    }
  }
  return best;
}

}  // namespace memcarlo::sim::ldesc
