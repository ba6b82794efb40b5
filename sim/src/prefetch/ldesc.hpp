// ldesc: the Locality Descriptor-guided prefetcher (Vijaykumar et al., ISCA'18, §4.2 Figure 11
// and §4.5). Only for INTER-THREAD data, whose lines many threads wait on, and only on an L1
// miss: NEARBY data → the next line; COACCESSED REGULAR data → the line `distance` strides
// ahead, where stride = the descriptor's stride x element_size bytes and
//   distance = L1 bytes / (active D-Tiles x D-Tile width in bytes), at least 1
// (the paper's "L1_size / (number_of_active_tiles * data_tile_width) * stride": fewer strides
// ahead when more tiles share the L1). The active D-Tiles of an SM are the distinct ones among
// its last kActiveWindow triggers. A target outside the descriptor's data structure is not
// prefetched; nothing for other data, nor in launches without descriptors.
//
// Decided per launch, looked up per access: begin_launch builds the launch's sorted range table
// (ldesc/l1_roles.hpp) and each descriptor's action; on_access finds the descriptor covering the
// missed line's first byte by binary search.
#pragma once

#include <array>
#include <vector>

#include "common.hpp"
#include "ldesc/l1_roles.hpp"
#include "memcarlo/sim/compiled_trace.hpp"

namespace memcarlo::sim::prefetch {

class LdescPrefetcher {
 public:
  static constexpr std::string_view kName = "ldesc";
  static constexpr std::uint32_t kMaxRequests = 1;
  /// Triggers per SM whose D-Tiles count as active.
  static constexpr std::uint32_t kActiveWindow = 16;

  explicit LdescPrefetcher(const HierarchyConfig& config) : line_(config.l1.line) {}

  /// A launch without descriptors (the engine calls the overload below).
  void begin_launch(std::uint32_t sm_count) { begin(sm_count, {}); }
  void begin_launch(std::uint32_t sm_count, const LaunchTrace& launch) {
    begin(sm_count, launch.descriptors);
  }

  template <class Sink>
  void on_access(const L1Access& access, Sink& sink) {
    if (access.hit || ranges_.empty()) {
      return;
    }
    const std::uint64_t address = value_of(access.line_address);
    const std::uint32_t found = ranges_.find(address);
    if (found == ldesc::RangeTable::kNone) {
      return;
    }
    const Action& action = actions_[found];
    std::uint64_t target = 0;
    switch (action.kind) {
      case Kind::kNothing:
        return;
      case Kind::kNextLine:
        target = address + line_;
        break;
      case Kind::kStride: {
        const std::uint64_t active = active_tiles(value_of(access.sm), tile_key(found, address));
        const std::uint64_t l1_bytes = std::uint64_t{access.l1_lines} * line_;
        const std::uint64_t distance =
            std::max<std::uint64_t>(1, l1_bytes / (active * action.tile_width_bytes));
        target = advance(address, action.stride_bytes, static_cast<std::int64_t>(distance));
        break;
      }
    }
    if (target >= action.begin && target < action.end) {
      sink.prefetch(ByteAddress{target});
    }
  }

 private:
  enum class Kind : std::uint8_t { kNothing, kNextLine, kStride };
  struct Action {
    Kind kind = Kind::kNothing;
    std::uint64_t begin = 0;  // the data structure's bytes
    std::uint64_t end = 0;
    std::int64_t stride_bytes = 0;
    std::uint64_t tile_width_bytes = 1;  // D-Tile x extent x element size
    std::uint32_t element_size = 1;
    tracebuf::Dim3 shape;
    tracebuf::Dim3 tile;
    tracebuf::Dim3 tiles;  // D-Tiles per dimension
  };
  struct Recent {
    std::array<std::uint64_t, kActiveWindow> tiles{};
    std::uint32_t count = 0;
    std::uint32_t next = 0;
  };

  void begin(std::uint32_t sm_count, const std::vector<tracebuf::LocalityDescriptor>& list) {
    ranges_.build(list);
    actions_.assign(list.size(), Action{});
    for (std::size_t i = 0; i < list.size(); ++i) {
      const tracebuf::LocalityDescriptor& d = list[i];
      Action& a = actions_[i];
      a.begin = d.address;
      a.end = d.address + d.size;
      if (d.type == tracebuf::LocalityType::kInterThread) {
        if (d.sharing == tracebuf::SharingType::kNearby) {
          a.kind = Kind::kNextLine;
        } else if (d.pattern == tracebuf::AccessPattern::kRegular && d.stride != 0) {
          a.kind = Kind::kStride;
        }
      }
      a.stride_bytes = d.stride * static_cast<std::int64_t>(d.element_size);
      a.element_size = std::max<std::uint32_t>(d.element_size, 1);
      a.shape = d.shape;
      a.tile = d.data_tile;
      a.tiles = d.data_tiles();
      a.tile_width_bytes =
          std::max<std::uint64_t>(std::uint64_t{d.data_tile.x} * a.element_size, 1);
    }
    recent_.assign(sm_count, Recent{});
  }

  /// The D-Tile of descriptor `which` that holds `address`, as a key unique in the launch.
  [[nodiscard]] std::uint64_t tile_key(std::uint32_t which, std::uint64_t address) const {
    const Action& a = actions_[which];
    const std::uint64_t element = (address - a.begin) / a.element_size;
    const std::uint64_t x = element % std::max<std::uint64_t>(a.shape.x, 1);
    const std::uint64_t rest = element / std::max<std::uint64_t>(a.shape.x, 1);
    const std::uint64_t y = rest % std::max<std::uint64_t>(a.shape.y, 1);
    const std::uint64_t z = rest / std::max<std::uint64_t>(a.shape.y, 1);
    const std::uint64_t tile = (z / std::max<std::uint64_t>(a.tile.z, 1) * a.tiles.y +
                                y / std::max<std::uint64_t>(a.tile.y, 1)) *
                                   a.tiles.x +
                               x / std::max<std::uint64_t>(a.tile.x, 1);
    return std::uint64_t{which} << 40 | tile;
  }

  /// Records a trigger on `tile` at SM `sm`; returns the distinct D-Tiles of its last triggers.
  std::uint64_t active_tiles(std::uint32_t sm, std::uint64_t tile) {
    Recent& r = recent_[sm];
    r.tiles[r.next] = tile;
    r.next = (r.next + 1) % kActiveWindow;
    r.count = std::min(r.count + 1, kActiveWindow);
    std::uint64_t distinct = 0;
    for (std::uint32_t i = 0; i < r.count; ++i) {
      bool seen = false;
      for (std::uint32_t j = 0; j < i && !seen; ++j) {
        seen = r.tiles[j] == r.tiles[i];
      }
      distinct += seen ? 0 : 1;
    }
    return distinct;
  }

  std::uint64_t line_;
  ldesc::RangeTable ranges_;
  std::vector<Action> actions_;  // per descriptor of the launch, priority order
  std::vector<Recent> recent_;   // per SM
};

using Ldesc = LdescPrefetcher;  // the name the build's list gives ldesc.hpp

}  // namespace memcarlo::sim::prefetch
