// TAFE's threadblock mapping (§5.1): blocks in row-, column- or depth-major order by the
// block-id coefficients of the first registered array, then split evenly over the modules. The
// tafe CTA scheduler and the tafe page placement both use it, so that pages follow the blocks.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "memcarlo/footprint/footprint.hpp"
#include "memcarlo/tracebuf/model.hpp"

namespace memcarlo::footprint {

struct BlockOrder {
  std::array<std::uint8_t, 3> fastest_first = {0, 1, 2};  // axes (0 x, 1 y, 2 z), fastest first
  std::array<std::int64_t, 3> coefficients = {0, 0, 0};   // |elements per unit of blockIdx.*|
  bool from_relation = false;  // false: no TID_DEP access of the kernel, launch (x-major) order
  std::uint32_t load = 0;      // the access whose coefficients decided
  bool from_registration = false;  // a hand taf_register (TID_DEP) decided, not the loads table
};

/// A kernel argument the trace does not record counts as this large in a coefficient: such a
/// parameter is usually a row length (`a[row * n + col]`), larger than any launch dimension.
inline constexpr std::int64_t kUnknownParameterValue = std::int64_t{1} << 20;

/// The order for a launch of `kernel`: the first (lowest id) access of the kernel whose relation
/// is TID_DEP stands for the first registered array; the axis with the smallest coefficient varies
/// fastest (ties: x before y before z).
BlockOrder tafe_block_order(std::span<const tracebuf::LoadInfo> loads, const std::string& kernel,
                            const tracebuf::Dim3& block,
                            const std::map<std::string, std::int64_t>& arguments = {});

/// TAFE's own rule when the program registered its arrays by hand: the first ready TID_DEP
/// registration (in call order) whose coefficients of blockIdx.x/y/z (m[3..5]) are not all zero
/// decides, the smallest |coefficient| varying fastest. nullopt when there is none.
std::optional<BlockOrder> registered_block_order(std::span<const TafRegistration> registrations);

/// registered_block_order when the launch has such a registration, else tafe_block_order from
/// the loads table (what the tafe scheduler and placement use once they are given the launch's
/// recorded_registrations).
BlockOrder tafe_block_order(std::span<const tracebuf::LoadInfo> loads, const std::string& kernel,
                            const tracebuf::Dim3& block,
                            const std::map<std::string, std::int64_t>& arguments,
                            std::span<const TafRegistration> registrations);

/// Position of linear block `block_id` of `grid` in that order.
std::uint64_t order_key(const BlockOrder& order, std::uint64_t block_id,
                        const tracebuf::Dim3& grid);

/// The module of each of `block_ids` (a launch's traced blocks): sorted by order_key, cut into
/// `modules` contiguous equal chunks (chunk m: positions [m·B/M, (m+1)·B/M)).
std::vector<std::uint32_t> tafe_block_modules(const BlockOrder& order,
                                              const std::vector<std::uint64_t>& block_ids,
                                              const tracebuf::Dim3& grid, std::uint32_t modules);

}  // namespace memcarlo::footprint
