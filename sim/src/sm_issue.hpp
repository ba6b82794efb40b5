// The SM side of an epoch: one bulk of one warp through its SM's L1 (paper §3.2.2). Loads probe
// the L1 (hits, in-flight hits, misses that allocate); L1 misses, stores and atomics become the
// epoch's requests to the L2. Everything the loop needs is copied into locals first, so that the
// compiler keeps it in registers across the loop's stores.
#pragma once

#include <array>
#include <bit>

#include "memcarlo/tracebuf/model.hpp"
#include "trial_state.hpp"

namespace memcarlo::sim {

template <class L1Policy>
class SmIssue {
  using L1View = typename PrivateCaches<L1Policy>::View;

 public:
  SmIssue(const CompiledTrace& trace, const HierarchyConfig& config, TrialRandom& random,
          TrialWorkspace::State& state, PrivateCaches<L1Policy>& l1)
      : trace_(trace), random_(random), s_(state), l1_(l1) {
    k_.l1_enabled = config.l1.enabled;
    k_.sectored = config.l1.sector < config.l1.line;
    k_.t1 = config.l1.latency;
    k_.t2 = config.l2.latency;
    k_.issue_cycles = config.sm.issue_cycles;
    k_.all_chunks = static_cast<std::uint8_t>((1u << (config.l1.line / config.l2.sector)) - 1);
    k_.all_l1_sectors = static_cast<std::uint8_t>((1u << config.l1.sectors_per_line()) - 1);
    const std::string& policy = config.l1.store_policy;
    k_.store = policy == "no_allocate_invalidate" ? StorePolicy::kInvalidate
               : policy == "allocate"             ? StorePolicy::kAllocate
                                                  : StorePolicy::kUpdate;
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

  /// Issues `bulk` for warp `slot` (state `w`) of SM `sm` from `clock` on; returns the clock
  /// after its transactions.
  std::uint64_t issue(const Bulk& bulk, std::uint32_t sm, std::uint32_t slot, WarpSlot& w,
                      MissTracker& misses, std::uint64_t clock) {
    const Constants k = k_;
    const L1View l1 = l1_.view();
    const Holder holder = L1View::holder(sm);
    AccessCounters* const counters = s_.slot_counters.data();
    L2Request* out = s_.requests.open_tail(2 * std::size_t{bulk.transaction_count});
    Effect effect{w.ready_time, 0, 0};
    const Transaction* t = trace_.transactions.data() + bulk.first_transaction;
    const Transaction* const end = t + bulk.transaction_count;
    for (; t != end; ++t, clock += k.issue_cycles) {
      prefetch(l1.holders + std::size_t{std::min(t + kPrefetchAhead, end - 1)->line} *
                                l1.line_stride);
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
          *out++ = request(*t, tracebuf::AccessKind::kAtomic, t->l2_sectors, slot, sm, 0, clock, k);
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

 private:
  enum class StorePolicy : std::uint8_t { kInvalidate, kUpdate, kAllocate };
  static constexpr std::ptrdiff_t kPrefetchAhead = 8;

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

  MEMCARLO_HOT static L2Request request(const Transaction& t, tracebuf::AccessKind kind,
                                        std::uint32_t sectors, std::uint32_t warp,
                                        std::uint32_t sm, std::size_t l1_at, std::uint64_t clock,
                                        const Constants& k) {
    return {clock,
            k.t2,
            t.line,
            t.slot(),
            static_cast<std::uint32_t>(l1_at),
            static_cast<std::uint16_t>(warp),
            static_cast<std::uint16_t>(sm),
            kind,
            sector_mask(sectors),
            0};
  }

  MEMCARLO_HOT void load(const Constants& k, const L1View& l1, Holder holder,
                         AccessCounters* counters, std::uint32_t sm, std::uint32_t slot,
                         const Transaction& t, std::uint64_t clock, L2Request*& out,
                         Effect& effect) {
    if (!k.l1_enabled) {
      *out++ = request(t, tracebuf::AccessKind::kRead, t.l2_sectors, slot, sm, 0, clock, k);
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
      if (missing == 0) {
        ++c.l1_hits;
        c.l1_sector_hits += requested;
        const std::uint64_t fill_time = l1.fill_time[at];
        if (fill_time > clock) {
          ++c.l1_inflight_hits;
          if (fill_time == kPendingFill) {
            s_.waits.push_back({t.line, static_cast<std::uint32_t>(at),
                                static_cast<std::uint16_t>(sm), static_cast<std::uint16_t>(slot)});
            ++effect.pending;
            return;
          }
        }
        effect.ready_time = std::max(effect.ready_time, std::max(fill_time, clock + k.t1));
        return;
      }
      c.l1_sector_hits += requested - static_cast<std::uint32_t>(std::popcount(missing));
      l1.valid[at] |= missing;
    } else {
      at = l1.fill(sm, t.l1_set, t.line, holder, random_);
      missing = k.sectored ? l1_sectors : k.all_l1_sectors;
      l1.valid[at] = sector_mask(missing);
    }
    l1.fill_time[at] = kPendingFill;
    *out++ = request(t, tracebuf::AccessKind::kRead,
                     k.sectored ? chunks_of_[missing] : k.all_chunks, slot, sm, at, clock, k);
    ++effect.pending;
    ++effect.misses;
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
          l1.invalidate_way(sm, t.l1_set, way);
        } else {
          l1.valid[row + way] |= t.l1_full_sectors;
        }
      } else if (k.store == StorePolicy::kAllocate) {
        const std::size_t at = l1.fill(sm, t.l1_set, t.line, holder, random_);
        l1.valid[at] = sector_mask(t.l1_full_sectors);
        l1.fill_time[at] = clock;
      }
    }
    *out++ = request(t, tracebuf::AccessKind::kWrite, t.l2_sectors, kNoWarp, sm, 0, clock, k);
  }

  const CompiledTrace& trace_;
  TrialRandom& random_;
  TrialWorkspace::State& s_;
  PrivateCaches<L1Policy>& l1_;
  Constants k_{};
  std::array<std::uint8_t, 256> chunks_of_{};
  std::array<std::uint8_t, 256> l1_sectors_of_{};  // L1 sectors touched, by Transaction::l2_sectors
};

}  // namespace memcarlo::sim
