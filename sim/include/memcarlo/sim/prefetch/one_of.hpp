// Several prefetchers behind one SM side: prefetch::OneOf<P...> is a prefetcher (the contract of
// prefetcher.hpp) that holds one of P... chosen at run time and forwards each hook to it with
// one switch on the alternative (std::visit). The SM side is compiled once for all of them
// instead of once each, at the cost of that switch per L1 access of a load; each alternative's
// hooks still inline into it. Prefetchers with the L1 storage hooks (Snake) are left out of it
// by List::visit_grouped, so that the others pay nothing for those hooks.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <variant>

#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/prefetch/prefetcher.hpp"

namespace memcarlo::sim::prefetch {

/// Whether prefetcher P has any of the optional L1 storage hooks.
template <class P>
concept HasStorageHooks =
    ChoosesVictims<P> || SeesFills<P> || SeesEvictions<P> || SeesPrefetchUse<P>;

template <class... Ps>
class OneOf {
  static_assert(sizeof...(Ps) > 0);
  static_assert(((Ps::kMaxRequests > 0) && ...), "none is not grouped: kMaxRequests 0");
  static_assert((!HasStorageHooks<Ps> && ...), "a prefetcher with L1 storage hooks is not grouped");

 public:
  static constexpr std::uint32_t kMaxRequests = std::max({Ps::kMaxRequests...});

  template <class P>
  explicit OneOf(P prefetcher) : active_(std::in_place_type<P>, std::move(prefetcher)) {}

  void begin_launch(std::uint32_t sm_count, const LaunchTrace& launch) {
    std::visit(
        [&](auto& p) {
          if constexpr (requires { p.begin_launch(sm_count, launch); }) {
            p.begin_launch(sm_count, launch);
          } else {
            p.begin_launch(sm_count);
          }
        },
        active_);
  }

  template <class Sink>
  void on_access(const L1Access& access, Sink& sink) {
    std::visit(
        [&](auto& p) {
          using P = std::decay_t<decltype(p)>;
          if constexpr (P::kMaxRequests == kMaxRequests) {
            p.on_access(access, sink);
          } else {
            Limited<Sink> limited{sink, P::kMaxRequests};  // as its own SM side would
            p.on_access(access, limited);
          }
        },
        active_);
  }

  /// The alternative held (for a test that reads a prefetcher's state).
  [[nodiscard]] const std::variant<Ps...>& active() const { return active_; }

 private:
  /// A sink that passes on at most `left` prefetches: the alternative's own kMaxRequests.
  template <class Sink>
  struct Limited {
    Sink& sink;
    std::uint32_t left;
    void prefetch(ByteAddress address) {
      if (left == 0) {
        return;
      }
      --left;
      sink.prefetch(address);
    }
  };

  std::variant<Ps...> active_;
};

}  // namespace memcarlo::sim::prefetch
