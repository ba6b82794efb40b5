// Layers over the L1's replacement policy: which lines may enter the L1 (admission: a line may
// bypass it) and which ways a fill may take (victim choice: pins). A layer is the third template
// argument of the SM side (sm_l1.hpp), which calls it on every L1 fill; the engine knows no
// layer but NoL1Layer. Contract of a layer type L:
//   using Role = <a byte enum>                      a line's class for the layer; Role{}: plain
//   static constexpr bool kPins                     whether it ever pins ways (a fill without
//                                                   pins does not test the set's pinned mask)
//   L(const CompiledTrace&, const HierarchyConfig&, const LineSpace&)
//   bool active() const                             whether it acts in this trial (false: every
//                                                   line is Role{} and fills are the cache's)
//   void begin_launch(const CompiledTrace&, const LaunchTrace&, std::uint32_t sm_count,
//                     std::uint32_t sets, std::uint32_t ways)     after the L1's reset
//   Role admit(const PrivateCacheView&, std::uint32_t sm, std::uint32_t line,
//              std::uint64_t clock)                 before a fill of `line` (a load miss, a store
//                                                   that allocates, a prefetch)
//   static bool bypasses(Role)                      the line takes no way (a load's miss is
//                                                   served from the L2 as with the L1 off)
//   template <bool kNoteEvicted, class View>
//   std::size_t fill(const View&, sm, set, line, Holder, RandomStream&, Role, WayFlags* evicted)
//                                                   places the line as PrivateCaches::View::fill
//                                                   does, its victim chosen by the layer
// The Locality Descriptors' bypass and pinning (ldesc.cache) are the one layer today:
// ldesc::CacheLayer (ldesc/cache_layer.hpp). PerTrial<L> decides per trial, with one test of a
// member per fill, so that the prefetching SM side is compiled once, with or without the layer.
#pragma once

#include <cstdint>

#include "line_space.hpp"
#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/config.hpp"
#include "memcarlo/sim/private_caches.hpp"

namespace memcarlo::sim {

/// No layer: every line enters by the replacement policy, and no fill tests for pins.
struct NoL1Layer {
  enum class Role : std::uint8_t { kNormal };
  static constexpr bool kPins = false;

  NoL1Layer(const CompiledTrace& /*trace*/, const HierarchyConfig& /*config*/,
            const LineSpace& /*line_space*/) {}
  [[nodiscard]] static constexpr bool active() { return false; }
  void begin_launch(const CompiledTrace& /*trace*/, const LaunchTrace& /*launch*/,
                    std::uint32_t /*sm_count*/, std::uint32_t /*sets*/, std::uint32_t /*ways*/) {}
  MEMCARLO_HOT static Role admit(const PrivateCacheView& /*l1*/, std::uint32_t /*sm*/,
                                 std::uint32_t /*line*/, std::uint64_t /*clock*/) {
    return Role::kNormal;
  }
  [[nodiscard]] static constexpr bool bypasses(Role /*role*/) { return false; }
  template <bool kNoteEvicted, class View>
  MEMCARLO_HOT static std::size_t fill(const View& l1, std::uint32_t sm, std::uint32_t set,
                                       std::uint32_t line, Holder holder, RandomStream& random,
                                       Role /*role*/, WayFlags* evicted) {
    return l1.template fill<kNoteEvicted, false>(sm, set, line, holder, random, evicted);
  }
};

/// Layer L when the trial asks for it (`on`, decided once per trial), else no layer: one test
/// of a member per fill.
template <class L>
class PerTrial {
 public:
  using Role = typename L::Role;
  static constexpr bool kPins = L::kPins;

  PerTrial(const CompiledTrace& trace, const HierarchyConfig& config, const LineSpace& line_space,
           bool on)
      : layer_(trace, config, line_space), on_(on) {}
  [[nodiscard]] bool active() const { return on_; }
  void begin_launch(const CompiledTrace& trace, const LaunchTrace& launch, std::uint32_t sm_count,
                    std::uint32_t sets, std::uint32_t ways) {
    layer_.begin_launch(trace, launch, sm_count, sets, ways);
  }
  MEMCARLO_HOT Role admit(const PrivateCacheView& l1, std::uint32_t sm, std::uint32_t line,
                          std::uint64_t clock) {
    return on_ ? layer_.admit(l1, sm, line, clock) : Role{};
  }
  [[nodiscard]] static constexpr bool bypasses(Role role) { return L::bypasses(role); }
  template <bool kNoteEvicted, class View>
  MEMCARLO_HOT std::size_t fill(const View& l1, std::uint32_t sm, std::uint32_t set,
                                std::uint32_t line, Holder holder, RandomStream& random, Role role,
                                WayFlags* evicted) {
    if (on_) {
      return layer_.template fill<kNoteEvicted>(l1, sm, set, line, holder, random, role, evicted);
    }
    return l1.template fill<kNoteEvicted, false>(sm, set, line, holder, random, evicted);
  }

 private:
  L layer_;
  bool on_;
};

}  // namespace memcarlo::sim
