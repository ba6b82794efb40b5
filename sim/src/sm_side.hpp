// The SM side of an epoch (paper §3.2.2), templated on the L1 replacement policy and the GPU
// prefetcher so that their per-access hooks inline: each SM issues bulks from its warps up to the
// epoch's end (weighted round-robin, bulk sequences, barriers, MSHR limit), loads probe the L1
// (hits, in-flight hits, misses that allocate), and L1 misses, stores, atomics and prefetches
// become the epoch's requests to the L2. Everything the access loop needs is copied into locals
// first, so that the compiler keeps it in registers across the loop's stores.
#pragma once

#include <array>
#include <bit>
#include <type_traits>

#include "ldesc/l1_roles.hpp"
#include "memcarlo/sim/counters.hpp"
#include "memcarlo/sim/policy_registry.hpp"
#include "memcarlo/sim/prefetch/prefetcher.hpp"
#include "memcarlo/tracebuf/model.hpp"
#include "residency.hpp"
#include "trial_state.hpp"

namespace memcarlo::sim {

/// The SM side as the (policy-free) replay sees it: one virtual call per SM and epoch.
class SmSide {
 public:
  virtual ~SmSide() = default;
  /// Before `launch`: the launch's L1 (an adaptive L1 loses the ways its carveout takes).
  virtual void begin_launch(const LaunchTrace& launch) = 0;
  /// Issues SM `sm`'s warps from epoch_start to epoch_end; `epoch` counts the trial's epochs.
  virtual void run_sm(std::uint32_t sm, std::uint64_t epoch_start, std::uint64_t epoch_end,
                      std::uint64_t epoch_index, std::uint64_t trial_epoch) = 0;
  /// Whether a warp issued anything since the last call.
  virtual bool take_issued() = 0;
  /// The policy-free view of the launch's L1s (valid after begin_launch).
  virtual PrivateCacheView l1_view() = 0;
};

/// Without ldesc.cache: no L1 priorities (an empty member).
struct NoL1Priorities {
  explicit NoL1Priorities(const HierarchyConfig& /*config*/) {}
};

/// Whether an SM side has the Locality Descriptors' bypass and pinning in the L1
/// (ldesc/l1_roles.hpp), a layer over the replacement policy:
///   kOff       never: the layer is not compiled and the replay does not even test a line's role
///              (the `none` replay, trial.cpp);
///   kOn        always (trial_ldesc_cache.cpp: `none` with ldesc.cache);
///   kPerTrial  when the trial needs it (detail::uses_ldesc_cache), one test of a member per
///              access otherwise (the prefetching SM sides, trial_prefetching.cpp): so the
///              prefetchers' SM sides are not compiled twice.
enum class L1Admission : std::uint8_t { kOff, kOn, kPerTrial };

template <class L1Policy, class Prefetcher, L1Admission kAdmission = L1Admission::kOff>
class SmSideOf final : public SmSide {
  using L1View = typename PrivateCaches<L1Policy>::View;
  // The prefetcher's optional L1 storage hooks (prefetch/prefetcher.hpp): absent, not called.
  static constexpr bool kChoosesVictims = prefetch::ChoosesVictims<Prefetcher>;
  static constexpr bool kSeesFills = prefetch::SeesFills<Prefetcher>;
  static constexpr bool kSeesEvictions = prefetch::SeesEvictions<Prefetcher>;
  static constexpr bool kSeesPrefetchUse = prefetch::SeesPrefetchUse<Prefetcher>;
  static constexpr bool kLdescCache = kAdmission != L1Admission::kOff;
  using Priorities = std::conditional_t<kLdescCache, ldesc::L1Priorities, NoL1Priorities>;

 public:
  SmSideOf(const CompiledTrace& trace, const HierarchyConfig& config, LaunchStreams& streams,
           TrialWorkspace::State& state, Residency& residency, PrivateCaches<L1Policy>& l1,
           Prefetcher prefetcher, TrialResult& result, bool ldesc_cache = false)
      : trace_(trace),
        config_(config),
        streams_(streams),
        s_(state),
        residency_(residency),
        l1_(l1),
        prefetcher_(std::move(prefetcher)),
        result_(result),
        ldesc_cache_(kAdmission == L1Admission::kOn ||
                     (kAdmission == L1Admission::kPerTrial && ldesc_cache)),
        priorities_(config) {
    if constexpr (Prefetcher::kMaxRequests > 0) {
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

  void begin_launch(const LaunchTrace& launch) override {
    if (k_.l1_enabled) {
      l1_.reset(config_.sm.count, config_.l1.sets(), launch.occupancy.l1_ways, s_.lines);
      if constexpr (kLdescCache) {
        if (ldesc_active()) {
          priorities_.begin_launch(trace_, launch, config_.sm.count, config_.l1.sets(),
                                   launch.occupancy.l1_ways);
        }
      }
    }
    if constexpr (Prefetcher::kMaxRequests > 0) {
      prefetch_slot_.assign(l1_.cells(), 0);
      prefetched_lines_.assign(config_.sm.count, 0);
      l2_reads_.assign(config_.sm.count, 0);
      l1_lines_ = static_cast<std::uint32_t>(l1_.cells() / std::max(config_.sm.count, 1u));
      l1_ways_ = launch.occupancy.l1_ways;
      if constexpr (kChoosesVictims) {
        l1_way_mask_ = l1_ways_ >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << l1_ways_) - 1;
      }
    }
    if constexpr (requires { prefetcher_.begin_launch(config_.sm.count, launch); }) {
      prefetcher_.begin_launch(config_.sm.count, launch);  // a prefetcher that reads the launch
    } else {
      prefetcher_.begin_launch(config_.sm.count);
    }
  }

  PrivateCacheView l1_view() override { return l1_.view(); }

  bool take_issued() override {
    const bool issued = issued_;
    issued_ = false;
    return issued;
  }

  void run_sm(std::uint32_t sm, std::uint64_t epoch_start, std::uint64_t epoch_end,
              std::uint64_t epoch_index, std::uint64_t trial_epoch) override {
    streams_.restart_sm(epoch_index, sm);
    trial_epoch_ = trial_epoch;
    SmState& m = s_.sms[sm];
    m.misses.advance_to(epoch_index);
    std::uint64_t clock = std::max(m.clock, epoch_start);
    const std::uint32_t slots = residency_.slots();
    while (clock < epoch_end) {
      std::uint64_t earliest = kPendingFill;
      const std::uint32_t chosen = residency_.pick(sm, m.round_robin, clock, earliest);
      if (chosen == kNoWarp) {
        clock = earliest < epoch_end ? earliest : epoch_end;
        continue;
      }
      clock = issue_warp(sm, chosen, clock, epoch_end);
      residency_.refresh(sm, chosen);
      m.round_robin = chosen + 1 == slots ? 0 : chosen + 1;
    }
    m.clock = clock;
  }

 private:
  enum class StorePolicy : std::uint8_t { kInvalidate, kUpdate, kAllocate };
  static constexpr std::ptrdiff_t kLoadAhead = 8;  // transactions ahead the CPU is asked for
  // Requests one transaction may emit: a read-modify-write's load and store, and the prefetches
  // after its load. The epoch's request buffer reserves this much per transaction.
  static constexpr std::size_t kRequestsPerTransaction = 2 + Prefetcher::kMaxRequests;

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

  /// Issues up to warp_quantum bulks of one warp; returns the SM clock after them.
  std::uint64_t issue_warp(std::uint32_t sm, std::uint32_t slot, std::uint64_t clock,
                           std::uint64_t epoch_end) {
    SmState& m = s_.sms[sm];
    WarpSlot& w = residency_.warp(sm, slot);
    for (std::uint32_t q = 0; q < config_.sm.warp_quantum; ++q) {
      const Bulk& bulk = trace_.bulks[w.bulk];
      if (bulk.barriers > 0 && w.barrier_bulk != w.bulk) {
        w.barrier_target = w.barriers_passed + bulk.barriers;
        residency_.release_barriers(sm, w.block_slot, clock);
        if (w.barrier_target != w.barriers_passed) {
          return clock;  // waits for the rest of its block
        }
      }
      if (bulk.has_loads && k_.l1_enabled && m.misses.outstanding() >= config_.l1.mshrs) {
        return epoch_end;  // MSHRs full: the SM stalls until fills retire (next epoch)
      }
      issued_ = true;
      clock = issue_bulk(bulk, sm, slot, w, m.misses, clock);
      ++w.bulk;
      if (w.bulk == w.bulk_end) {
        w.live = false;
        residency_.warp_finished(sm, w.block_slot, clock);
        return clock;
      }
      if (bulk.has_loads || w.pending != 0 || w.ready_time > clock) {
        return clock;
      }
    }
    return clock;
  }

  /// Issues `bulk` for warp `slot` (state `w`) of SM `sm` from `clock` on; returns the clock
  /// after its transactions.
  std::uint64_t issue_bulk(const Bulk& bulk, std::uint32_t sm, std::uint32_t slot, WarpSlot& w,
                           MissTracker& misses, std::uint64_t clock) {
    // Constants and views in locals: members reached through `this` would be reloaded after
    // every store the compiler cannot tell apart from them.
    const Constants k = k_;
    const L1View l1 = l1_.view();
    const Holder holder = L1View::holder(sm);
    AccessCounters* const counters = s_.slot_counters.data();
    L2Request* out =
        s_.requests.open_tail(kRequestsPerTransaction * std::size_t{bulk.transaction_count});
    Effect effect{w.ready_time, 0, 0};
    const Transaction* t = trace_.transactions.data() + bulk.first_transaction;
    const Transaction* const end = t + bulk.transaction_count;
    for (; t != end; ++t, clock += k.issue_cycles) {
      load_ahead(l1.holders +
                 std::size_t{std::min(t + kLoadAhead, end - 1)->line} * l1.line_stride);
      switch (t->kind()) {
        case tracebuf::AccessKind::kRead:
          load(k, l1, holder, counters, sm, slot, *t, clock, out, effect);
          break;
        case tracebuf::AccessKind::kWrite:
          store(k, l1, holder, counters, sm, *t, clock, out);
          break;
        case tracebuf::AccessKind::kReadModifyWrite:
          load(k, l1, holder, counters, sm, slot, *t, clock, out, effect);
          store(k, l1, holder, counters, sm, *t, clock, out);
          break;
        case tracebuf::AccessKind::kAtomic:
          if (k.l1_enabled) {
            counters[t->slot()].l1_store_sectors +=
                static_cast<std::uint32_t>(std::popcount(l1_sectors_of_[t->l2_sectors]));
          }
          *out++ = request(*t, RequestKind::kAtomic, t->l2_sectors, slot, sm, 0, clock, k);
          ++effect.pending;
          break;
      }
    }
    s_.requests.close_tail(out);
    w.ready_time = effect.ready_time;
    w.pending += effect.pending;
    misses.add_unresolved(effect.misses);
    return clock;
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
      if constexpr (Prefetcher::kMaxRequests > 0) {
        used_prefetched_way(l1, sm, at, t.slot(), clock);
      }
      if (missing == 0) {
        ++c.l1_hits;
        c.l1_sector_hits += requested;
        const std::uint64_t fill_time = l1.fill_time[at];
        if constexpr (Prefetcher::kMaxRequests > 0) {
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
      const ldesc::L1Role role = admit(l1, sm, t.line, clock);
      if (role == ldesc::L1Role::kBypass) {  // never true without ldesc.cache (compiled away)
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
    if constexpr (Prefetcher::kMaxRequests > 0) {
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
          if constexpr (Prefetcher::kMaxRequests > 0) {
            if ((bits_of(l1.flags[row + way]) & kPrefetchedWay) != 0) {
              unused_prefetch_left(sm);
            }
          }
          l1.invalidate_way(sm, t.l1_set, way);
        } else {
          l1.valid[row + way] |= t.l1_full_sectors;
        }
      } else if (k.store == StorePolicy::kAllocate) {
        const ldesc::L1Role role = admit(l1, sm, t.line, clock);
        if (role != ldesc::L1Role::kBypass) {  // always true without ldesc.cache
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

  // ---- Locality Descriptors in the L1 (compiled only with kLdescCache) ---------------------

  /// Whether this trial has the L1 priorities: a constant unless kPerTrial.
  [[nodiscard]] MEMCARLO_HOT bool ldesc_active() const {
    if constexpr (kAdmission == L1Admission::kOff) {
      return false;
    } else if constexpr (kAdmission == L1Admission::kOn) {
      return true;
    } else {
      return ldesc_cache_;
    }
  }

  /// The role of `line` in SM `sm`'s L1 at `clock`, after the unpinning timer had its say;
  /// kNormal, a constant, without ldesc.cache.
  MEMCARLO_HOT ldesc::L1Role admit(const L1View& l1, std::uint32_t sm, std::uint32_t line,
                                   std::uint64_t clock) {
    if constexpr (kLdescCache) {
      if (!ldesc_active()) {
        return ldesc::L1Role::kNormal;
      }
      priorities_.tick(l1, sm, clock);
      return line < trace_.l1_line_count()
                 ? priorities_.traced_role(line)
                 : priorities_.untraced_role(value_of(s_.line_space.address_of(LineId{line})));
    } else {
      (void)l1, (void)sm, (void)line, (void)clock;
      return ldesc::L1Role::kNormal;
    }
  }

  /// A load's miss on NO-REUSE data: the L2 serves the sectors it touches, as with the L1 off,
  /// and no way is allocated (an MSHR is, until the data arrives). The prefetcher sees a miss.
  void bypass(const Constants& k, std::uint32_t sm, std::uint32_t slot, const Transaction& t,
              std::uint64_t clock, L2Request*& out, Effect& effect) {
    *out++ = request(t, RequestKind::kDemandFill, t.l2_sectors, slot, sm, kNoCell, clock, k);
    ++effect.pending;
    ++effect.misses;
    if constexpr (Prefetcher::kMaxRequests > 0) {
      on_access(sm, slot, t, false, clock, out, effect);
    }
  }

  /// Places `line` in the SM's L1: by the cache's replacement, or with ldesc.cache by the
  /// priorities of the lines' roles.
  template <bool kNoteEvicted>
  MEMCARLO_HOT std::size_t place(const L1View& l1, std::uint32_t sm, std::uint32_t set,
                                 std::uint32_t line, Holder holder, ldesc::L1Role role,
                                 WayFlags* evicted) {
    if constexpr (kLdescCache) {
      if (ldesc_active()) {
        return priorities_.template fill<kNoteEvicted>(l1, sm, set, line, holder,
                                                       streams_.l1_replacement, role, evicted);
      }
    }
    (void)role;
    return l1.template fill<kNoteEvicted>(sm, set, line, holder, streams_.l1_replacement, evicted);
  }

  // ---- GPU prefetching (compiled only for a prefetcher that may ask for lines) ------------

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
  void used_prefetched_way(const L1View& l1, std::uint32_t sm, std::size_t at, std::uint32_t slot,
                           std::uint64_t clock) {
    if ((bits_of(l1.flags[at]) & kPrefetchedWay) != 0) {
      unused_prefetch_left(sm);
      if constexpr (kSeesPrefetchUse) {
        prefetcher_.on_prefetch_used(way_of(l1, sm, at));
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

  /// Places `line` in the SM's L1 (PrivateCaches::View::fill; `prefetch`: for a prefetch);
  /// with a prefetcher, a prefetched line that leaves unused is an early eviction of the load
  /// that asked for it, and the prefetcher's on_fill (if it has one) hears of the fill.
  MEMCARLO_HOT std::size_t fill_l1(const L1View& l1, std::uint32_t sm, std::uint32_t set,
                                   std::uint32_t line, Holder holder, ldesc::L1Role role,
                                   bool prefetch) {
    if constexpr (Prefetcher::kMaxRequests > 0) {
      WayFlags evicted{};
      const std::size_t at = place<true>(l1, sm, set, line, holder, role, &evicted);
      const bool replaced_unused = at != kNoCell && (bits_of(evicted) & kPrefetchedWay) != 0;
      if (replaced_unused) {
        ++prefetch_count(prefetch_slot_[at], kEarlyEvictions);
        unused_prefetch_left(sm);
      }
      if constexpr (kSeesFills) {
        if (at != kNoCell) {
          const std::size_t row = l1.row(sm, set);
          prefetcher_.on_fill(prefetch::L1Fill{
              {SmIndex{sm}, l1.policy_set(sm, set), static_cast<std::uint32_t>(at - row)},
              prefetch,
              replaced_unused});
        }
      }
      return at;
    } else {
      (void)prefetch;
      return place<false>(l1, sm, set, line, holder, role, nullptr);
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
    if constexpr (kChoosesVictims) {
      const std::uint32_t global_set = l1.policy_set(sm, set);
      const prefetch::L1Set view{SmIndex{sm},
                                 global_set,
                                 l1_ways_,
                                 l1_way_mask_ & ~l1.masks[global_set].invalid,
                                 l1.masks[global_set].pinned,
                                 Cycles{clock},
                                 demand};
      Evict evict{*this, l1, sm, set};
      prefetcher_.before_fill(view, evict);
    } else {
      (void)l1, (void)sm, (void)set, (void)demand, (void)clock;
    }
  }

  /// What before_fill's evict(allowed, count) does: free_ways.
  struct Evict {
    SmSideOf& side;
    const L1View& l1;
    std::uint32_t sm;
    std::uint32_t set;
    void operator()(std::uint64_t allowed, std::uint32_t count) {
      side.free_ways(l1, sm, set, allowed, count);
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
      if constexpr (kSeesEvictions) {
        prefetcher_.on_evict(prefetch::L1Way{SmIndex{sm}, global_set, way}, unused_prefetch);
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
  struct Sink {
    SmSideOf& side;
    std::uint32_t sm;
    std::uint32_t counter;
    std::uint64_t clock;
    L2Request*& out;
    Effect& effect;
    std::uint32_t left;

    void prefetch(ByteAddress address) {
      if (left == 0) {
        return;  // the prefetcher asked for more than its kMaxRequests: the rest are ignored
      }
      --left;
      side.issue_prefetch(sm, counter, value_of(address), clock, out, effect);
    }
  };

  void on_access(std::uint32_t sm, std::uint32_t slot, const Transaction& t, bool hit,
                 std::uint64_t clock, L2Request*& out, Effect& effect) {
    const std::uint64_t line_at = line_address(t.line);
    // A trace compiled without access sites (for `none`) shows each access as its own
    // instruction at its line's first byte, with no known stride.
    const auto index = static_cast<std::size_t>(&t - trace_.transactions.data());
    const AccessSite site = index < trace_.access_sites.size()
                                ? trace_.access_sites[index]
                                : AccessSite{line_at, 0, AccessSite::kFirstOfInstruction, {}};
    const BlockSlot& block = residency_.block(sm, residency_.warp(sm, slot).block_slot);
    l2_reads_[sm] += hit ? 0 : 1;
    const prefetch::L1Access access{SmIndex{sm},
                                    ResidentWarp{static_cast<std::uint16_t>(slot)},
                                    StaticLoadId{trace_.slots[t.slot()].load},
                                    ByteAddress{line_at},
                                    ByteAddress{site.base_address},
                                    site.stride,
                                    (site.flags & AccessSite::kUniformStride) != 0,
                                    (site.flags & AccessSite::kFirstOfInstruction) != 0,
                                    hit,
                                    BlockId{block.block_id},
                                    slot - block.first_warp_slot,
                                    residency_.warps_per_block(),
                                    Cycles{clock},
                                    prefetched_lines_[sm],
                                    l1_lines_,
                                    l2_reads_[sm],
                                    streams_.prefetch};
    Sink sink{*this, sm, t.slot(), clock, out, effect, Prefetcher::kMaxRequests};
    prefetcher_.on_access(access, sink);
  }

  [[nodiscard]] std::uint64_t line_address(std::uint32_t line) const {
    return line < trace_.l1_line_count() ? trace_.l1_line_address[line]
                                         : value_of(s_.line_space.address_of(LineId{line}));
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
    const ldesc::L1Role role = admit(l1, sm, line, clock);
    if (role == ldesc::L1Role::kBypass) {  // NO-REUSE data: no way for it, prefetched or not
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
  Prefetcher prefetcher_;
  TrialResult& result_;
  Constants k_{};
  std::array<std::uint8_t, 256> chunks_of_{};
  std::array<std::uint8_t, 256> l1_sectors_of_{};  // L1 sectors touched, by Transaction::l2_sectors
  bool issued_ = false;
  std::uint64_t trial_epoch_ = 0;
  std::uint64_t* prefetch_rows_ = nullptr;       // the prefetch counter group (prefetchers only)
  std::vector<std::uint32_t> prefetch_slot_;     // per L1 cell: the slot whose prefetch filled it
  std::vector<std::uint32_t> prefetched_lines_;  // per SM: unused prefetched lines in its L1
  std::vector<std::uint64_t> l2_reads_;          // per SM: lines its L1 read from the L2
  std::uint32_t l1_lines_ = 0;                   // lines per SM's L1 in this launch
  std::uint32_t l1_ways_ = 0;                    // ways per set in this launch
  std::uint64_t l1_way_mask_ = 0;  // the launch's ways (a prefetcher's victim choice only)

  // ldesc.cache: on in this trial (kPerTrial; kOn: always), and the lines' roles, the soft pins
  // and the unpinning timer (empty with kOff).
  bool ldesc_cache_ = false;
  [[no_unique_address]] Priorities priorities_;
};

}  // namespace memcarlo::sim
