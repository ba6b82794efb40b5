// TAFE's threadblock order (block_order.hpp).
#include "memcarlo/footprint/block_order.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "memcarlo/footprint/relations.hpp"

namespace memcarlo::footprint {
namespace {

/// a x b, clamped to the int64 range (only the order of the coefficients matters).
std::int64_t saturating_product(std::int64_t a, std::int64_t b) {
  std::int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) {
    return (a < 0) != (b < 0) ? INT64_MIN / 2 : INT64_MAX / 2;
  }
  return product;
}

}  // namespace

BlockOrder tafe_block_order(std::span<const tracebuf::LoadInfo> loads, const std::string& kernel,
                            const tracebuf::Dim3& block,
                            const std::map<std::string, std::int64_t>& arguments) {
  BlockOrder order;
  for (const Relation& relation : derive_relations(loads)) {
    const tracebuf::LoadInfo& load = loads[relation.load];
    if (relation.kind != RelationKind::kTidDep ||
        std::find(load.kernels.begin(), load.kernels.end(), kernel) == load.kernels.end()) {
      continue;
    }
    std::array<std::int64_t, 3> coefficients = {0, 0, 0};
    bool uses_block = false;
    for (const Form::Term& term : relation.offset.terms) {
      for (int axis = 0; axis < 3; ++axis) {
        const std::string name = std::string("blockIdx.") + "xyz"[axis];
        if (std::find(term.symbols.begin(), term.symbols.end(), name) == term.symbols.end()) {
          continue;
        }
        std::int64_t value = term.coefficient;
        for (const std::string& symbol : term.symbols) {
          std::int64_t factor = kUnknownParameterValue;
          if (symbol == name)
            continue;
          if (symbol == "blockDim.x")
            factor = block.x;
          else if (symbol == "blockDim.y")
            factor = block.y;
          else if (symbol == "blockDim.z")
            factor = block.z;
          else if (const auto found = arguments.find(symbol); found != arguments.end())
            factor = found->second;
          value = saturating_product(value, factor);
        }
        if (__builtin_add_overflow(coefficients[axis], value, &coefficients[axis])) {
          coefficients[axis] = value < 0 ? INT64_MIN / 2 : INT64_MAX / 2;
        }
        uses_block = true;
      }
    }
    if (!uses_block)
      continue;  // a scalar or thread-only access says nothing about blocks
    for (std::int64_t& c : coefficients)
      c = c == INT64_MIN ? INT64_MAX : c < 0 ? -c : c;
    order.coefficients = coefficients;
    std::stable_sort(
        order.fastest_first.begin(), order.fastest_first.end(),
        [&](std::uint8_t a, std::uint8_t b) { return coefficients[a] < coefficients[b]; });
    order.from_relation = true;
    order.load = relation.load;
    return order;
  }
  return order;
}

std::optional<BlockOrder> registered_block_order(std::span<const TafRegistration> registrations) {
  for (const TafRegistration& registration : registrations) {
    if (!registration.ready || registration.type != "TID_DEP" ||
        (registration.m[3] == 0 && registration.m[4] == 0 && registration.m[5] == 0)) {
      continue;
    }
    BlockOrder order;
    for (int axis = 0; axis < 3; ++axis) {
      const std::int64_t m = registration.m[3 + axis];
      order.coefficients[axis] = m == INT64_MIN ? INT64_MAX : m < 0 ? -m : m;
    }
    std::stable_sort(order.fastest_first.begin(), order.fastest_first.end(),
                     [&](std::uint8_t a, std::uint8_t b) {
                       return order.coefficients[a] < order.coefficients[b];
                     });
    order.from_relation = true;
    order.from_registration = true;
    return order;
  }
  return std::nullopt;
}

BlockOrder tafe_block_order(std::span<const tracebuf::LoadInfo> loads, const std::string& kernel,
                            const tracebuf::Dim3& block,
                            const std::map<std::string, std::int64_t>& arguments,
                            std::span<const TafRegistration> registrations) {
  if (std::optional<BlockOrder> hand = registered_block_order(registrations)) {
    return *hand;
  }
  return tafe_block_order(loads, kernel, block, arguments);
}

std::uint64_t order_key(const BlockOrder& order, std::uint64_t block_id,
                        const tracebuf::Dim3& grid) {
  const std::array<std::uint64_t, 3> extent = {grid.x, grid.y, grid.z};
  const std::array<std::uint64_t, 3> coordinate = {block_id % grid.x, block_id / grid.x % grid.y,
                                                   block_id / (std::uint64_t{grid.x} * grid.y)};
  const auto [fast, middle, slow] = order.fastest_first;
  return coordinate[fast] + extent[fast] * (coordinate[middle] + extent[middle] * coordinate[slow]);
}

std::vector<std::uint32_t> tafe_block_modules(const BlockOrder& order,
                                              const std::vector<std::uint64_t>& block_ids,
                                              const tracebuf::Dim3& grid, std::uint32_t modules) {
  std::vector<std::uint32_t> position(block_ids.size());
  std::iota(position.begin(), position.end(), 0u);
  std::stable_sort(position.begin(), position.end(), [&](std::uint32_t a, std::uint32_t b) {
    return order_key(order, block_ids[a], grid) < order_key(order, block_ids[b], grid);
  });
  std::vector<std::uint32_t> out(block_ids.size(), 0);
  const std::uint64_t count = block_ids.size();
  for (std::uint32_t m = 0; m < modules; ++m) {  // the chunk bounds of `distributed`
    for (std::uint64_t k = m * count / modules; k < (m + 1) * count / modules; ++k) {
      out[position[k]] = m;
    }
  }
  return out;
}

}  // namespace memcarlo::footprint
