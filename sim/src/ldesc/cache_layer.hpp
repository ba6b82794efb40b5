// ldesc.cache as an L1 layer over the replacement policy (l1_layer.hpp): a line's role
// (l1_roles.hpp: bypass, soft or hard pin, normal) decides whether it enters the SM's L1 and
// which ways its fill may take. The SM side calls it on every L1 fill; it is compiled into two
// SM sides per inlined L1 policy: the one without a prefetcher (trial_ldesc_cache.cpp, always
// on) and the prefetching one (trial_prefetching.cpp, as PerTrial<CacheLayer>: on when the
// trial uses it).
#pragma once

#include <algorithm>
#include <cstdint>

#include "ldesc/l1_roles.hpp"
#include "line_space.hpp"

namespace memcarlo::sim::ldesc {

class CacheLayer {
 public:
  using Role = L1Role;
  static constexpr bool kPins = true;

  CacheLayer(const CompiledTrace& trace, const HierarchyConfig& config, const LineSpace& line_space)
      : trace_(trace), line_space_(line_space), priorities_(config) {}

  /// Whether a trial needs the layer: the key is on and some launch has descriptors (otherwise
  /// the plain SM sides run, bit for bit the same as without it).
  [[nodiscard]] static bool wanted(const CompiledTrace& trace, const HierarchyConfig& config) {
    return config.l1.enabled && cache_enabled(config) &&
           std::any_of(trace.launches.begin(), trace.launches.end(),
                       [](const LaunchTrace& launch) { return !launch.descriptors.empty(); });
  }

  [[nodiscard]] static constexpr bool active() { return true; }

  void begin_launch(const CompiledTrace& trace, const LaunchTrace& launch, std::uint32_t sm_count,
                    std::uint32_t sets, std::uint32_t ways) {
    priorities_.begin_launch(trace, launch, sm_count, sets, ways);
  }

  /// The role of `line` in SM `sm`'s L1 at `clock`, after the unpinning timer had its say.
  MEMCARLO_HOT Role admit(const PrivateCacheView& l1, std::uint32_t sm, std::uint32_t line,
                          std::uint64_t clock) {
    priorities_.tick(l1, sm, clock);
    return line < trace_.l1_line_count()
               ? priorities_.traced_role(line)
               : priorities_.untraced_role(value_of(line_space_.address_of(LineId{line})));
  }

  /// NO-REUSE data: no way for it, demanded or prefetched.
  [[nodiscard]] static constexpr bool bypasses(Role role) { return role == L1Role::kBypass; }

  /// Places the line by the priorities of the set's roles (L1Priorities::fill).
  template <bool kNoteEvicted, class View>
  MEMCARLO_HOT std::size_t fill(const View& l1, std::uint32_t sm, std::uint32_t set,
                                std::uint32_t line, Holder holder, RandomStream& random, Role role,
                                WayFlags* evicted) {
    return priorities_.template fill<kNoteEvicted>(l1, sm, set, line, holder, random, role,
                                                   evicted);
  }

 private:
  const CompiledTrace& trace_;
  const LineSpace& line_space_;
  L1Priorities priorities_;
};

}  // namespace memcarlo::sim::ldesc
