// Strong types for the values policies must not mix up (STYLE.md 5): an SM index is not a warp
// slot, a static load id is not a counter slot, a byte address is not a line id, and cycles are
// not any of them. Enums with a fixed underlying type: free to copy, no arithmetic by accident;
// value_of() unwraps where the number itself is meant.
#pragma once

#include <cstdint>
#include <type_traits>

namespace memcarlo::sim {

enum class SmIndex : std::uint32_t {};      // an SM of the hierarchy
enum class ResidentWarp : std::uint16_t {}; // a resident warp: its slot within its SM
enum class BlockId : std::uint64_t {};      // a block (CTA): its linear id in the launch's grid
enum class StaticLoadId : std::uint32_t {}; // a load of the loads table (its PC)
enum class LineId : std::uint32_t {};       // a dense L1 line id of the line space
enum class ByteAddress : std::uint64_t {};  // a global memory byte address
enum class Cycles : std::uint64_t {};       // an SM's logical clock

template <class Id>
constexpr std::underlying_type_t<Id> value_of(Id id) {
  return static_cast<std::underlying_type_t<Id>>(id);
}

}  // namespace memcarlo::sim
