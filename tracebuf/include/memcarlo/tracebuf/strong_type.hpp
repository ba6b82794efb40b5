// Strong typedefs for quantities that must not be mixed up (byte address vs line, SM vs warp id).
// A mix-up is a compile error; the wrapped value is reachable through value() when arithmetic
// across kinds is really meant.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>

namespace memcarlo {

template <class Tag, class Rep>
class StrongType {
 public:
  using rep_type = Rep;
  constexpr StrongType() = default;
  constexpr explicit StrongType(Rep value) : value_(value) {}
  [[nodiscard]] constexpr Rep value() const { return value_; }
  constexpr auto operator<=>(const StrongType&) const = default;

 private:
  Rep value_{};
};

/// A virtual byte address in the traced program's device address space.
using ByteAddress = StrongType<struct ByteAddressTag, std::uint64_t>;
/// The static id of one probed memory access in the source (an index into the loads table).
using StaticLoadId = StrongType<struct StaticLoadIdTag, std::uint32_t>;

}  // namespace memcarlo

template <class Tag, class Rep>
struct std::hash<memcarlo::StrongType<Tag, Rep>> {
  std::size_t operator()(const memcarlo::StrongType<Tag, Rep>& v) const noexcept {
    return std::hash<Rep>{}(v.value());
  }
};
