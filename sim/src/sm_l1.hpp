// The L1 semantics of the SM side (sm_side.hpp has the issue loop): what one transaction does in
// its SM's L1 and which requests it sends to the L2. Loads probe the L1 (hits, in-flight hits,
// misses that allocate), stores write through (invalidate, update or allocate), atomics go to
// the L2; every fill goes through the L1 layer (l1_layer.hpp: admission and victim choice over
// the replacement policy; NoL1Layer without one) and, with a prefetcher, the prefetcher's
// hooks and the prefetch bookkeeping (counters, prefetched ways, the throttle's counts).
//
// Template arguments: the L1 replacement policy (its hooks inline), the prefetcher, which is
// prefetch::None (no prefetch code compiled) or prefetch::Any (every other prefetcher, boxed:
// any_prefetcher.hpp), and the layer. So the engine's SM sides are L1 policies x (none, none
// with each layer, any prefetcher with the layers decided per trial): an added prefetcher or
// replacement policy through Dynamic adds none.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <string>
#include <type_traits>
#include <vector>

#include "any_prefetcher.hpp"
#include "l1_layer.hpp"
#include "memcarlo/sim/counters.hpp"
#include "memcarlo/sim/policy_registry.hpp"
#include "memcarlo/sim/prefetch/prefetcher.hpp"
#include "memcarlo/tracebuf/model.hpp"
#include "residency.hpp"
#include "trial_state.hpp"

namespace memcarlo::sim {

template <class L1Policy, class Prefetcher, class Layer>
class SmL1 {
  static_assert(std::is_same_v<Prefetcher, prefetch::None> ||
                    std::is_same_v<Prefetcher, prefetch::Any>,
                "the SM side takes none or a boxed prefetcher (any_prefetcher.hpp)");

 protected:
  using L1View = typename PrivateCaches<L1Policy>::View;
  using Role = typename Layer::Role;
  static constexpr bool kPrefetching = std::is_same_v<Prefetcher, prefetch::Any>;
  /// Whether the layer may act (a constant false for NoL1Layer: its code is not compiled).
  static constexpr bool kLayered = !std::is_same_v<Layer, NoL1Layer>;

  enum class StorePolicy : std::uint8_t { kInvalidate, kUpdate, kAllocate };

  struct Constants {
    std::uint64_t t1;
    std::uint32_t t2;
    std::uint32_t issue_cycles;
    std::uint8_t all_chunks;
    std::uint8_t all_l1_sectors;
    bool sectored;
    bool l1_enabled;
    StorePolicy store;
  };

  /// What a bulk does to its warp, gathered in registers and applied once.
  struct Effect {
    std::uint64_t ready_time;
    std::uint32_t pending;  // fills to wait for whose time is not known yet
    std::uint32_t misses;   // new outstanding L1 misses (MSHRs)
  };

  SmL1(const CompiledTrace& trace, const HierarchyConfig& config, LaunchStreams& streams,
       TrialWorkspace::State& state, Residency& residency, PrivateCaches<L1Policy>& l1,
       Prefetcher prefetcher, Layer layer)
      : trace_(trace),
        config_(config),
        streams_(streams),
        s_(state),
        residency_(residency),
        l1_(l1),
        prefetcher_(std::move(prefetcher)),
        layer_(std::move(layer)) {
    if constexpr (kPrefetching) {
      boxed_ = prefetcher_.boxed.get();
      boxed_->bind({&trace, &residency, &state.line_space, &streams.prefetch});
      hooks_ = boxed_->hooks();
      requests_per_transaction_ = 2 + boxed_->max_requests();
      prefetch_rows_ = state.counter_groups.enable(kPrefetchGroup, trace.slots.size());
    }
    k_.l1_enabled = config.l1.enabled;
    k_.sectored = config.l1.sector < config.l1.line;
    k_.t1 = config.l1.latency;
    k_.t2 = config.l2.latency;
    k_.issue_cycles = config.sm.issue_cycles;
    k_.all_chunks = static_cast<std::uint8_t>((1u << (config.l1.line / config.l2.sector)) - 1);
    k_.all_l1_sectors = static_cast<std::uint8_t>((1u << config.l1.sectors_per_line()) - 1);
    const std::string& policy = config.l1.store_policy;
    if (policy == "no_allocate_invalidate") {
      k_.store = StorePolicy::kInvalidate;
    } else if (policy == "no_allocate_update") {
      k_.store = StorePolicy::kUpdate;
    } else if (policy == "allocate") {
      k_.store = StorePolicy::kAllocate;
    } else {
      throw UnknownPolicy("l1.store_policy: unknown policy \"" + policy +
                          "\"; expected one of no_allocate_invalidate, no_allocate_update, "
                          "allocate");
    }
    // L2-sector chunks covering each set of L1 sectors.
    const std::uint32_t per_sector = config.l1.sector / config.l2.sector;
    const std::uint32_t group = (1u << per_sector) - 1;
    for (std::uint32_t sectors = 0; sectors < 256; ++sectors) {
      std::uint32_t chunks = 0;
      for (std::uint32_t m = sectors; m != 0; m &= m - 1) {
        chunks |= group << (static_cast<std::uint32_t>(std::countr_zero(m)) * per_sector);
      }
      chunks_of_[sectors] = static_cast<std::uint8_t>(chunks);
    }
    l1_sectors_of_ = l1_sectors_of_chunks(config);
  }

  /// Before `launch`: the launch's L1 (an adaptive L1 loses the ways its carveout takes), the
  /// layer's and the prefetcher's launch state.
  void begin_l1_launch(const LaunchTrace& launch) {
    if (k_.l1_enabled) {
      l1_.reset(config_.sm.count, config_.l1.sets(), launch.occupancy.l1_ways, s_.lines);
      if constexpr (kLayered) {
        if (layer_.active()) {
          layer_.begin_launch(trace_, launch, config_.sm.count, config_.l1.sets(),
                              launch.occupancy.l1_ways);
        }
      }
    }
    if constexpr (kPrefetching) {
      prefetch_slot_.assign(l1_.cells(), 0);
      prefetched_lines_.assign(config_.sm.count, 0);
      l2_reads_.assign(config_.sm.count, 0);
      l1_lines_ = static_cast<std::uint32_t>(l1_.cells() / std::max(config_.sm.count, 1u));
      l1_ways_ = launch.occupancy.l1_ways;
      if ((hooks_ & prefetch::AnyPrefetcher::kChoosesVictims) != 0) {
        l1_way_mask_ = l1_ways_ >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << l1_ways_) - 1;
      }
      boxed_->begin_launch(config_.sm.count, launch);
    }
  }

  /// Requests one transaction may emit: a read-modify-write's load and store, and the
  /// prefetches after its load. The epoch's request buffer reserves this much per transaction.
  [[nodiscard]] std::size_t requests_per_transaction() const {
    if constexpr (kPrefetching) {
      return requests_per_transaction_;
    } else {
      return 2;
    }
  }

  MEMCARLO_HOT static L2Request request(const Transaction& t, RequestKind kind,
                                        std::uint32_t sectors, std::uint32_t waiter,
                                        std::uint32_t sm, std::size_t l1_way, std::uint64_t clock,
                                        const Constants& k) {
    return {clock,
            k.t2,
            t.line,
            t.slot(),
            static_cast<std::uint32_t>(l1_way),
            static_cast<std::uint16_t>(waiter),
            static_cast<std::uint16_t>(sm),
            kind,
            sector_mask(sectors),
            0};  // not from DRAM (yet)
  }

  MEMCARLO_HOT void load(const Constants& k, const L1View& l1, Holder holder,
                         AccessCounters* counters, std::uint32_t sm, std::uint32_t slot,
                         const Transaction& t, std::uint64_t clock, L2Request*& out,
                         Effect& effect) {
    if (!k.l1_enabled) {
      *out++ = request(t, RequestKind::kDemandFill, t.l2_sectors, slot, sm, 0, clock, k);
      ++effect.pending;
      return;
    }
    AccessCounters& c = counters[t.slot()];
    const std::uint32_t l1_sectors = l1_sectors_of_[t.l2_sectors];
    const auto requested = static_cast<std::uint32_t>(std::popcount(l1_sectors));
    ++c.l1_accesses;
    c.l1_sectors += requested;
    std::uint32_t missing;
    std::size_t at;
    if (l1.holds(holder, t.line)) [[unlikely]] {
      const std::size_t row = l1.row(sm, t.l1_set);
      const std::uint32_t way = l1.find(row, t.line);
      at = row + way;
      missing = l1_sectors & ~bits_of(l1.valid[at]);
      l1.touch(sm, t.l1_set, way);
      if constexpr (kPrefetching) {
        used_prefetched_way(l1, sm, at, t.slot(), clock);
      }
      if (missing == 0) {
        ++c.l1_hits;
        c.l1_sector_hits += requested;
        const std::uint64_t fill_time = l1.fill_time[at];
        if constexpr (kPrefetching) {
          on_access(sm, slot, t, true, clock, out, effect);
        }
        if (fill_time > clock) {
          ++c.l1_inflight_hits;
          if (fill_time == kPendingFill) {  // its latency is counted when the fill is known
            s_.waits.push_back({clock, t.slot(), t.line, static_cast<std::uint32_t>(at),
                                static_cast<std::uint16_t>(sm), static_cast<std::uint16_t>(slot)});
            ++effect.pending;
            return;
          }
        }
        const std::uint64_t ready = std::max(fill_time, clock + k.t1);
        effect.ready_time = std::max(effect.ready_time, ready);
        // Read here, not kept in a register: hits are the rare case on most traces.
        ++s_.latency_counts[std::size_t{t.slot()} * latency::kRowSize +
                            latency::index_of(fill_time > clock ? latency::Level::kL1Inflight
                                                                : latency::Level::kL1Hit,
                                              ready - clock)];
        return;
      }
      c.l1_sector_hits += requested - static_cast<std::uint32_t>(std::popcount(missing));
      l1.valid[at] |= missing;
    } else {
      const Role role = layer_.admit(l1, sm, t.line, clock);
      if (Layer::bypasses(role)) {  // never true without a layer (compiled away)
        bypass(k, sm, slot, t, clock, out, effect);
        return;
      }
      before_fill(l1, sm, t.l1_set, true, clock);
      at = fill_l1(l1, sm, t.l1_set, t.line, holder, role, false);
      missing = k.sectored ? l1_sectors : k.all_l1_sectors;
      if (at != kNoCell) [[likely]] {
        l1.valid[at] = sector_mask(missing);
      }
    }
    if (at != kNoCell) [[likely]] {
      l1.fill_time[at] = kPendingFill;
    }
    *out++ = request(t, RequestKind::kDemandFill, k.sectored ? chunks_of_[missing] : k.all_chunks,
                     slot, sm, at, clock, k);
    ++effect.pending;
    ++effect.misses;
    if constexpr (kPrefetching) {
      on_access(sm, slot, t, false, clock, out, effect);
    }
  }

  /// A store writes through to the L2. In the L1 it invalidates the line, or updates it where
  /// present, or allocates it; either way only sectors it writes in full become valid (a sector
  /// partly written and not valid before stays invalid, so a later load fetches it: lazy fetch
  /// on read).
  MEMCARLO_HOT void store(const Constants& k, const L1View& l1, Holder holder,
                          AccessCounters* counters, std::uint32_t sm, const Transaction& t,
                          std::uint64_t clock, L2Request*& out) {
    if (k.l1_enabled) {
      AccessCounters& c = counters[t.slot()];
      const std::uint32_t l1_sectors = l1_sectors_of_[t.l2_sectors];
      c.l1_store_sectors += static_cast<std::uint32_t>(std::popcount(l1_sectors));
      if (l1.holds(holder, t.line)) {
        const std::size_t row = l1.row(sm, t.l1_set);
        const std::uint32_t way = l1.find(row, t.line);
        c.l1_store_sector_hits +=
            static_cast<std::uint32_t>(std::popcount(l1_sectors & bits_of(l1.valid[row + way])));
        if (k.store == StorePolicy::kInvalidate) {
          if constexpr (kPrefetching) {
            if ((bits_of(l1.flags[row + way]) & kPrefetchedWay) != 0) {
              unused_prefetch_left(sm);
            }
          }
          l1.invalidate_way(sm, t.l1_set, way);
        } else {
          l1.valid[row + way] |= t.l1_full_sectors;
        }
      } else if (k.store == StorePolicy::kAllocate) {
        const Role role = layer_.admit(l1, sm, t.line, clock);
        if (!Layer::bypasses(role)) {  // always true without a layer
          before_fill(l1, sm, t.l1_set, true, clock);
          const std::size_t at = fill_l1(l1, sm, t.l1_set, t.line, holder, role, false);
          if (at != kNoCell) [[likely]] {
            l1.valid[at] = sector_mask(t.l1_full_sectors);
            l1.fill_time[at] = clock;
          }
        }
      }
    }
    *out++ = request(t, RequestKind::kStore, t.l2_sectors, kNoWaiter, sm, 0, clock, k);
  }

  /// An atomic is performed at the L2 and leaves the L1 alone; a warp waits for its old value.
  MEMCARLO_HOT void atomic(const Constants& k, AccessCounters* counters, std::uint32_t sm,
                           std::uint32_t slot, const Transaction& t, std::uint64_t clock,
                           L2Request*& out, Effect& effect) {
    if (k.l1_enabled) {
      counters[t.slot()].l1_store_sectors +=
          static_cast<std::uint32_t>(std::popcount(l1_sectors_of_[t.l2_sectors]));
    }
    *out++ = request(t, RequestKind::kAtomic, t.l2_sectors, slot, sm, 0, clock, k);
    ++effect.pending;
  }

  /// A load's miss the layer bypasses (ldesc's NO-REUSE data): the L2 serves the sectors it
  /// touches, as with the L1 off, and no way is allocated (an MSHR is, until the data arrives).
  /// The prefetcher sees a miss.
  void bypass(const Constants& k, std::uint32_t sm, std::uint32_t slot, const Transaction& t,
              std::uint64_t clock, L2Request*& out, Effect& effect) {
    *out++ = request(t, RequestKind::kDemandFill, t.l2_sectors, slot, sm, kNoCell, clock, k);
    ++effect.pending;
    ++effect.misses;
    if constexpr (kPrefetching) {
      on_access(sm, slot, t, false, clock, out, effect);
    }
  }

  /// Places `line` in the SM's L1 through the layer (PrivateCaches::View::fill, its victim
  /// chosen by the layer; `prefetch`: for a prefetch); with a prefetcher, a prefetched line that
  /// leaves unused is an early eviction of the load that asked for it, and the prefetcher's
  /// on_fill (if it has one) hears of the fill.
  MEMCARLO_HOT std::size_t fill_l1(const L1View& l1, std::uint32_t sm, std::uint32_t set,
                                   std::uint32_t line, Holder holder, Role role, bool prefetch) {
    if constexpr (kPrefetching) {
      WayFlags evicted{};
      const std::size_t at = layer_.template fill<true>(l1, sm, set, line, holder,
                                                        streams_.l1_replacement, role, &evicted);
      const bool replaced_unused = at != kNoCell && (bits_of(evicted) & kPrefetchedWay) != 0;
      if (replaced_unused) {
        ++prefetch_count(prefetch_slot_[at], kEarlyEvictions);
        unused_prefetch_left(sm);
      }
      if ((hooks_ & prefetch::AnyPrefetcher::kSeesFills) != 0) {
        if (at != kNoCell) {
          const std::size_t row = l1.row(sm, set);
          boxed_->on_fill(prefetch::L1Fill{
              {SmIndex{sm}, l1.policy_set(sm, set), static_cast<std::uint32_t>(at - row)},
              prefetch,
              replaced_unused});
        }
      }
      return at;
    } else {
      (void)prefetch;
      return layer_.template fill<false>(l1, sm, set, line, holder, streams_.l1_replacement, role,
                                         nullptr);
    }
  }

  // ---- GPU prefetching (compiled only with a prefetcher) ------------------------------------

  static constexpr std::uint32_t kIssued = kPrefetchGroup.index_of("issued");
  static constexpr std::uint32_t kUseful = kPrefetchGroup.index_of("useful");
  static constexpr std::uint32_t kLate = kPrefetchGroup.index_of("late");
  static constexpr std::uint32_t kUntraced = kPrefetchGroup.index_of("untraced_lines");
  static constexpr std::uint32_t kDropped = kPrefetchGroup.index_of("dropped");
  static constexpr std::uint32_t kRedundant = kPrefetchGroup.index_of("redundant");
  static constexpr std::uint32_t kCovered = kPrefetchGroup.index_of("covered");
  static constexpr std::uint32_t kCoveredLate = kPrefetchGroup.index_of("covered_late");
  static constexpr std::uint32_t kEarlyEvictions = kPrefetchGroup.index_of("early_evictions");

  /// The prefetch counter `counter` of slot `slot` (the load whose access it concerns).
  std::uint64_t& prefetch_count(std::uint32_t slot, std::uint32_t counter) {
    return prefetch_rows_[std::size_t{slot} * kPrefetchGroup.width() + counter];
  }

  /// A demand access of slot `slot` found way `at`: if a prefetch filled it, the access is
  /// covered, and the prefetch (counted to the load that triggered it) was useful, and late if
  /// its data has not arrived.
  MEMCARLO_HOT void used_prefetched_way(const L1View& l1, std::uint32_t sm, std::size_t at,
                                        std::uint32_t slot, std::uint64_t clock) {
    if ((bits_of(l1.flags[at]) & kPrefetchedWay) != 0) {
      unused_prefetch_left(sm);
      if ((hooks_ & prefetch::AnyPrefetcher::kSeesPrefetchUse) != 0) {
        boxed_->on_prefetch_used(way_of(l1, sm, at));
      }
      const bool late = l1.fill_time[at] > clock;
      const std::uint32_t trigger = prefetch_slot_[at];
      ++prefetch_count(slot, kCovered);
      prefetch_count(slot, kCoveredLate) += late ? 1 : 0;
      ++prefetch_count(trigger, kUseful);
      prefetch_count(trigger, kLate) += late ? 1 : 0;
      l1.flags[at] = way_flags(bits_of(l1.flags[at]) & ~kPrefetchedWay);
    }
  }

  /// The L1 way of cell `cell` of SM `sm`, as the prefetcher's hooks see it.
  [[nodiscard]] static prefetch::L1Way way_of(const L1View& l1, std::uint32_t sm,
                                              std::size_t cell) {
    return {SmIndex{sm}, static_cast<std::uint32_t>(cell / l1.row_stride),
            static_cast<std::uint32_t>(cell % l1.row_stride)};
  }

  /// Before a fill of SM `sm`'s set `set` (`demand`: a demand fill, else a prefetch) at
  /// `clock`: the prefetcher's victim choice, if it has one (before_fill).
  void before_fill(const L1View& l1, std::uint32_t sm, std::uint32_t set, bool demand,
                   std::uint64_t clock) {
    if constexpr (kPrefetching) {
      if ((hooks_ & prefetch::AnyPrefetcher::kChoosesVictims) != 0) {
        const std::uint32_t global_set = l1.policy_set(sm, set);
        const prefetch::L1Set view{SmIndex{sm},
                                   global_set,
                                   l1_ways_,
                                   l1_way_mask_ & ~l1.masks[global_set].invalid,
                                   l1.masks[global_set].pinned,
                                   Cycles{clock},
                                   demand};
        Evict evict{{&Evict::free_ways}, *this, l1, sm, set};
        boxed_->before_fill(view, evict);
      }
    } else {
      (void)l1, (void)sm, (void)set, (void)demand, (void)clock;
    }
  }

  /// What before_fill's evict(allowed, count) does: free_ways.
  struct Evict : prefetch::AnyEvict {
    SmL1& side;
    const L1View& l1;
    std::uint32_t sm;
    std::uint32_t set;
    static void free_ways(prefetch::AnyEvict& self, std::uint64_t allowed, std::uint32_t count) {
      auto& e = static_cast<Evict&>(self);
      e.side.free_ways(e.l1, e.sm, e.set, allowed, count);
    }
  };

  /// Invalidates up to `count` of the ways in `allowed` (by the replacement order), for the
  /// prefetcher's victim choice; an unused prefetched line among them is an early eviction.
  void free_ways(const L1View& l1, std::uint32_t sm, std::uint32_t set, std::uint64_t allowed,
                 std::uint32_t count) {
    const std::uint32_t global_set = l1.policy_set(sm, set);
    const std::size_t row = l1.row(sm, set);
    for (std::uint32_t i = 0; i < count && allowed != 0; ++i) {
      const std::uint32_t way =
          l1.policy.replace_excluding(global_set, ~allowed, streams_.l1_replacement);
      if (way == kNoWay) {
        return;
      }
      const std::size_t cell = row + way;
      const bool unused_prefetch = (bits_of(l1.flags[cell]) & kPrefetchedWay) != 0;
      if (unused_prefetch) {
        ++prefetch_count(prefetch_slot_[cell], kEarlyEvictions);
        unused_prefetch_left(sm);
      }
      l1.invalidate_way(sm, set, way);
      if ((hooks_ & prefetch::AnyPrefetcher::kSeesEvictions) != 0) {
        boxed_->on_evict(prefetch::L1Way{SmIndex{sm}, global_set, way}, unused_prefetch);
      }
      allowed &= ~(std::uint64_t{1} << way);
    }
  }

  /// An unused prefetched line of SM `sm` was used, evicted or invalidated.
  void unused_prefetch_left(std::uint32_t sm) {
    std::uint32_t& count = prefetched_lines_[sm];
    count -= count > 0 ? 1 : 0;  // an L2 back-invalidation is not seen here: never below 0
  }

  /// Where the prefetcher's requests go: each one a way in the SM's L1 and a request to the L2.
  struct Sink : prefetch::AnySink {
    SmL1& side;
    std::uint32_t sm;
    std::uint32_t counter;
    std::uint64_t clock;
    L2Request*& out;
    Effect& effect;

    static void issue(prefetch::AnySink& self, ByteAddress address) {
      auto& s = static_cast<Sink&>(self);
      s.side.issue_prefetch(s.sm, s.counter, value_of(address), s.clock, s.out, s.effect);
    }
  };

  /// After every L1 access of a load: the boxed prefetcher's on_access (which builds the
  /// L1Access fields it reads: any_prefetcher.hpp).
  void on_access(std::uint32_t sm, std::uint32_t slot, const Transaction& t, bool hit,
                 std::uint64_t clock, L2Request*& out, Effect& effect) {
    l2_reads_[sm] += hit ? 0 : 1;
    const prefetch::AccessEvent event{
        &t, sm, slot, hit, clock, prefetched_lines_[sm], l1_lines_, l2_reads_[sm]};
    Sink sink{{&Sink::issue}, *this, sm, t.slot(), clock, out, effect};
    boxed_->on_access(event, sink);
  }

  void issue_prefetch(std::uint32_t sm, std::uint32_t counter, std::uint64_t address,
                      std::uint64_t clock, L2Request*& out, Effect& effect) {
    const L1View l1 = l1_.view();
    const std::uint64_t seen_before = s_.line_space.untraced_seen();
    const std::uint32_t line =
        value_of(s_.line_space.id_of(ByteAddress{address}, trial_epoch_, [&](std::uint32_t id) {
          return !l1.held_anywhere(id) && s_.lines.l2_free(id);
        }));
    const std::uint64_t untraced = s_.line_space.untraced_seen() - seen_before;
    prefetch_count(counter, kUntraced) += untraced;
    if (line == kNoLine || !k_.l1_enabled) {
      ++prefetch_count(counter, kDropped);
      return;
    }
    const Holder holder = L1View::holder(sm);
    if (l1.holds(holder, line)) {
      ++prefetch_count(counter, kRedundant);
      return;
    }
    const std::uint32_t set = s_.line_space.view().l1_set[line];
    const Role role = layer_.admit(l1, sm, line, clock);
    if (Layer::bypasses(role)) {  // bypassed data gets no way, prefetched or not
      ++prefetch_count(counter, kDropped);
      return;
    }
    before_fill(l1, sm, set, false, clock);
    const std::size_t at = fill_l1(l1, sm, set, line, holder, role, true);
    if (at == kNoCell) {
      ++prefetch_count(counter, kDropped);
      return;
    }
    prefetch_slot_[at] = counter;
    l1.valid[at] = sector_mask(k_.all_l1_sectors);
    l1.fill_time[at] = kPendingFill;
    l1.flags[at] = way_flags(kPrefetchedWay);
    ++prefetched_lines_[sm];
    ++l2_reads_[sm];
    *out++ = {clock,
              k_.t2,
              line,
              counter,
              static_cast<std::uint32_t>(at),
              kNoWaiter,
              static_cast<std::uint16_t>(sm),
              RequestKind::kPrefetch,
              sector_mask(k_.all_chunks),
              0};
    ++effect.misses;
    ++prefetch_count(counter, kIssued);
  }

  const CompiledTrace& trace_;
  const HierarchyConfig& config_;
  LaunchStreams& streams_;
  TrialWorkspace::State& s_;
  Residency& residency_;
  PrivateCaches<L1Policy>& l1_;
  Constants k_{};
  std::array<std::uint8_t, 256> chunks_of_{};
  std::array<std::uint8_t, 256> l1_sectors_of_{};  // L1 sectors touched, by Transaction::l2_sectors
  std::uint64_t trial_epoch_ = 0;

  // The prefetcher (none: an empty member) and its bookkeeping (empty without a prefetcher).
  [[no_unique_address]] Prefetcher prefetcher_;
  prefetch::AnyPrefetcher* boxed_ = nullptr;
  std::uint8_t hooks_ = 0;                       // boxed_->hooks()
  std::size_t requests_per_transaction_ = 2;     // 2 + boxed_->max_requests()
  std::uint64_t* prefetch_rows_ = nullptr;       // the prefetch counter group
  std::vector<std::uint32_t> prefetch_slot_;     // per L1 cell: the slot whose prefetch filled it
  std::vector<std::uint32_t> prefetched_lines_;  // per SM: unused prefetched lines in its L1
  std::vector<std::uint64_t> l2_reads_;          // per SM: lines its L1 read from the L2
  std::uint32_t l1_lines_ = 0;                   // lines per SM's L1 in this launch
  std::uint32_t l1_ways_ = 0;                    // ways per set in this launch
  std::uint64_t l1_way_mask_ = 0;  // the launch's ways (a prefetcher's victim choice only)

  // The L1 layer (NoL1Layer: empty).
  [[no_unique_address]] Layer layer_;
};

}  // namespace memcarlo::sim
