// Every prefetcher but `none` behind one SM side: prefetch::Boxed<P> holds a prefetcher of the
// contract of prefetch/prefetcher.hpp and makes its hooks virtual calls of AnyPrefetcher, so the
// SM side with a prefetcher is compiled once per L1 policy whatever the number of prefetchers
// (the `none` SM side has no prefetch code at all).
//
// What keeps the call cheap: the SM side hands over the access as it knows it (AccessEvent: the
// transaction, SM, warp slot, hit, clock and the throttle's counts), and Boxed<P>::on_access,
// compiled per prefetcher with P's hook inlined, builds the L1Access there; so the fields P
// does not read (the access site, the warp's block, the load) are never loaded, as when the
// hook was inlined into its own SM side. The storage hooks (before_fill, on_fill, on_evict,
// on_prefetch_used) are found by concepts at compile time as before, and the SM side calls
// only those the boxed prefetcher has (AnyPrefetcher::hooks(), one test of a member per fill).
#pragma once

#include <cstdint>
#include <memory>
#include <utility>

#include "line_space.hpp"
#include "memcarlo/sim/compiled_trace.hpp"
#include "memcarlo/sim/prefetch/prefetcher.hpp"
#include "residency.hpp"

namespace memcarlo::sim::prefetch {

/// One L1 access of a load as the SM side hands it to a boxed prefetcher.
struct AccessEvent {
  const Transaction* transaction;
  std::uint32_t sm;
  std::uint32_t slot;  // the warp's slot within the SM
  bool hit;
  std::uint64_t clock;
  std::uint32_t prefetched_lines;  // L1Access's throttle fields
  std::uint32_t l1_lines;
  std::uint64_t l2_reads;
};

/// Where the other fields of an L1Access come from: the trial's trace, residency and line
/// space, and the prefetch stream (fixed for the trial; bound by the SM side).
struct AccessSources {
  const CompiledTrace* trace = nullptr;
  Residency* residency = nullptr;
  const LineSpace* line_space = nullptr;
  RandomStream* random = nullptr;
};

/// The SM side's sink and victim choice, as plain function pointers (no virtual table).
struct AnySink {
  void (*issue)(AnySink& self, ByteAddress address);
  void prefetch(ByteAddress address) { issue(*this, address); }
};
struct AnyEvict {
  void (*free)(AnyEvict& self, std::uint64_t allowed, std::uint32_t count);
  void operator()(std::uint64_t allowed, std::uint32_t count) { free(*this, allowed, count); }
};

/// A prefetcher whose type the SM side does not know.
class AnyPrefetcher {
 public:
  /// The optional storage hooks a prefetcher has (hooks()).
  static constexpr std::uint8_t kChoosesVictims = 1;
  static constexpr std::uint8_t kSeesFills = 2;
  static constexpr std::uint8_t kSeesEvictions = 4;
  static constexpr std::uint8_t kSeesPrefetchUse = 8;

  AnyPrefetcher(std::uint32_t max_requests, std::uint8_t hooks)
      : max_requests_(max_requests), hooks_(hooks) {}
  virtual ~AnyPrefetcher() = default;
  AnyPrefetcher(const AnyPrefetcher&) = delete;
  AnyPrefetcher& operator=(const AnyPrefetcher&) = delete;

  [[nodiscard]] std::uint32_t max_requests() const { return max_requests_; }
  [[nodiscard]] std::uint8_t hooks() const { return hooks_; }
  void bind(const AccessSources& sources) { sources_ = sources; }

  virtual void begin_launch(std::uint32_t sm_count, const LaunchTrace& launch) = 0;
  virtual void on_access(const AccessEvent& event, AnySink& sink) = 0;
  virtual void before_fill(const L1Set& /*set*/, AnyEvict& /*evict*/) {}
  virtual void on_fill(const L1Fill& /*fill*/) {}
  virtual void on_evict(const L1Way& /*way*/, bool /*unused_prefetch*/) {}
  virtual void on_prefetch_used(const L1Way& /*way*/) {}

 protected:
  AccessSources sources_;

 private:
  std::uint32_t max_requests_;
  std::uint8_t hooks_;
};

/// Prefetcher P (kMaxRequests > 0) as an AnyPrefetcher.
template <class P>
class Boxed final : public AnyPrefetcher {
  static_assert(P::kMaxRequests > 0, "none is not boxed: it has an SM side of its own");

 public:
  explicit Boxed(P prefetcher)
      : AnyPrefetcher(P::kMaxRequests,
                      static_cast<std::uint8_t>((ChoosesVictims<P> ? kChoosesVictims : 0) |
                                                (SeesFills<P> ? kSeesFills : 0) |
                                                (SeesEvictions<P> ? kSeesEvictions : 0) |
                                                (SeesPrefetchUse<P> ? kSeesPrefetchUse : 0))),
        p_(std::move(prefetcher)) {}

  void begin_launch(std::uint32_t sm_count, const LaunchTrace& launch) override {
    if constexpr (requires { p_.begin_launch(sm_count, launch); }) {
      p_.begin_launch(sm_count, launch);  // a prefetcher that reads the launch
    } else {
      p_.begin_launch(sm_count);
    }
  }

  void on_access(const AccessEvent& e, AnySink& sink) override {
    const CompiledTrace& trace = *sources_.trace;
    const Transaction& t = *e.transaction;
    const std::uint64_t line_at = t.line < trace.l1_line_count()
                                      ? trace.l1_line_address[t.line]
                                      : value_of(sources_.line_space->address_of(LineId{t.line}));
    // A trace compiled without access sites (for `none`) shows each access as its own
    // instruction at its line's first byte, with no known stride.
    const auto index = static_cast<std::size_t>(&t - trace.transactions.data());
    const AccessSite site = index < trace.access_sites.size()
                                ? trace.access_sites[index]
                                : AccessSite{line_at, 0, AccessSite::kFirstOfInstruction, {}};
    Residency& residency = *sources_.residency;
    const BlockSlot& block = residency.block(e.sm, residency.warp(e.sm, e.slot).block_slot);
    const L1Access access{SmIndex{e.sm},
                          ResidentWarp{static_cast<std::uint16_t>(e.slot)},
                          StaticLoadId{trace.slots[t.slot()].load},
                          ByteAddress{line_at},
                          ByteAddress{site.base_address},
                          site.stride,
                          (site.flags & AccessSite::kUniformStride) != 0,
                          (site.flags & AccessSite::kFirstOfInstruction) != 0,
                          e.hit,
                          BlockId{block.block_id},
                          e.slot - block.first_warp_slot,
                          residency.warps_per_block(),
                          Cycles{e.clock},
                          e.prefetched_lines,
                          e.l1_lines,
                          e.l2_reads,
                          *sources_.random};
    Limited limited{sink, P::kMaxRequests};
    p_.on_access(access, limited);
  }

  void before_fill(const L1Set& set, AnyEvict& evict) override {
    if constexpr (ChoosesVictims<P>) {
      p_.before_fill(set, evict);
    }
  }
  void on_fill(const L1Fill& fill) override {
    if constexpr (SeesFills<P>) {
      p_.on_fill(fill);
    }
  }
  void on_evict(const L1Way& way, bool unused_prefetch) override {
    if constexpr (SeesEvictions<P>) {
      p_.on_evict(way, unused_prefetch);
    }
  }
  void on_prefetch_used(const L1Way& way) override {
    if constexpr (SeesPrefetchUse<P>) {
      p_.on_prefetch_used(way);
    }
  }

 private:
  /// The sink P sees: at most kMaxRequests prefetches per access; the rest are ignored.
  struct Limited {
    AnySink& sink;
    std::uint32_t left;
    void prefetch(ByteAddress address) {
      if (left == 0) {
        return;
      }
      --left;
      sink.prefetch(address);
    }
  };

  P p_;
};

/// The SM side's prefetcher type for every prefetcher but none: owns a boxed one.
struct Any {
  std::unique_ptr<AnyPrefetcher> boxed;
};

}  // namespace memcarlo::sim::prefetch
