// The record phase shared by the generators: the walk over the traced warps of a 1D or 2D launch
// and the filling of one record lane by lane. A generator supplies only its addresses.
#pragma once

#include <array>
#include <cstdint>
#include <utility>

#include "pattern.hpp"
#include "trace_builder.hpp"

namespace memcarlo::synth {

/// Appends a record of `access` with `active_mask` whose active lane `lane` accesses
/// `address(lane)`. Inactive lanes are not set: the trace does not store them, and `address` need
/// not be meaningful there.
template <class LaneAddress>
void add_lane_record(TraceBuilder& trace, std::uint32_t access, std::uint32_t active_mask,
                     LaneAddress&& address) {
  tracebuf::WarpRecord& record = trace.add_record(access, active_mask);
  for (std::uint32_t lane = 0; lane < tracebuf::kWarpSize; ++lane) {
    if ((active_mask >> lane) & 1u) {
      record.addresses[lane] = address(lane);
    }
  }
}

/// Appends a coalesced record of `access`: active lane `lane` accesses element
/// `first_element + lane` of the array at `base`.
inline void add_coalesced_record(TraceBuilder& trace, std::uint32_t access,
                                 std::uint32_t active_mask, std::uint64_t base,
                                 std::uint64_t first_element, std::uint64_t element_size) {
  add_lane_record(trace, access, active_mask,
                  [&](std::uint32_t lane) { return base + (first_element + lane) * element_size; });
}

/// One warp of a 1D launch (blockDim.x = threads): the lanes whose thread exists and the global
/// index of lane 0's thread, blockIdx.x * blockDim.x + 32 * warp.
struct Warp1d {
  std::uint32_t lanes = 0;
  std::uint64_t first_thread = 0;
};

/// Calls `body(warp)` for every warp of the `p.blocks` x `p.threads` launch in (block, warp)
/// order, between trace.begin_warp and trace.end_warp.
template <class WarpBody>
void for_each_warp_1d(const Parameters& p, TraceBuilder& trace, WarpBody&& body) {
  for (std::uint32_t block = 0; block < p.blocks; ++block) {
    for (std::uint32_t warp = 0; warp < warps_per_block(p.threads); ++warp) {
      const Warp1d current{
          .lanes = existing_lanes_mask(p.threads, warp),
          .first_thread =
              std::uint64_t{block} * p.threads + std::uint64_t{warp} * tracebuf::kWarpSize,
      };
      trace.begin_warp(block, warp);
      body(current);
      trace.end_warp();
    }
  }
}

/// One warp of a 2D launch (grid2d): each lane's point (row = y, column = x) of the domain, and
/// the lanes whose thread exists and passes the pattern's bounds check.
struct Warp2d {
  std::uint32_t active = 0;
  std::array<std::uint64_t, tracebuf::kWarpSize> rows{};
  std::array<std::uint64_t, tracebuf::kWarpSize> columns{};
};

/// Calls `body(warp)` for every traced warp of the 2D launch `grid` (block ids linear, x fastest)
/// in (block, warp) order, between trace.begin_warp and trace.end_warp. A lane is active when its
/// thread exists and `in_bounds(row, column)` holds; a warp with no active lane makes no access
/// and is skipped.
template <class InBounds, class WarpBody>
void for_each_warp_2d(const Parameters& p, const Grid2d& grid, TraceBuilder& trace,
                      InBounds&& in_bounds, WarpBody&& body) {
  Warp2d current;
  for (std::uint32_t block = 0; block < p.blocks; ++block) {
    const std::uint64_t block_row = std::uint64_t{block / grid.grid_x} * grid.block_y;
    const std::uint64_t block_column = std::uint64_t{block % grid.grid_x} * grid.block_x;
    for (std::uint32_t warp = 0; warp < warps_per_block(p.threads); ++warp) {
      current.active = 0;
      for (std::uint32_t lane = 0; lane < tracebuf::kWarpSize; ++lane) {
        const std::uint32_t thread = warp * tracebuf::kWarpSize + lane;
        current.rows[lane] = block_row + thread / grid.block_x;
        current.columns[lane] = block_column + thread % grid.block_x;
        if (thread < p.threads && in_bounds(current.rows[lane], current.columns[lane])) {
          current.active |= 1u << lane;
        }
      }
      if (current.active == 0) {
        continue;
      }
      trace.begin_warp(block, warp);
      body(std::as_const(current));
      trace.end_warp();
    }
  }
}

}  // namespace memcarlo::synth
