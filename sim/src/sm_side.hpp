// The SM side of an epoch (paper §3.2.2): the issue loop. Each SM issues bulks from its warps up
// to the epoch's end (weighted round-robin, bulk sequences, barriers, MSHR limit), and each bulk's
// transactions go to the L1 (sm_l1.hpp: loads, stores and atomics in the L1, the L1 layer, the
// prefetcher's hooks), which turns misses, stores, atomics and prefetches into the epoch's
// requests to the L2. Templated on the L1 replacement policy, the prefetcher (prefetch::None or
// prefetch::Any) and the L1 layer (l1_layer.hpp), so that their per-access hooks inline.
// Everything the access loop needs is copied into locals first, so that the compiler keeps it
// in registers across the loop's stores.
#pragma once

#include <algorithm>
#include <cstdint>

#include "sm_l1.hpp"

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

template <class L1Policy, class Prefetcher, class Layer = NoL1Layer>
class SmSideOf final : public SmSide, private SmL1<L1Policy, Prefetcher, Layer> {
  using L1 = SmL1<L1Policy, Prefetcher, Layer>;
  using typename L1::Constants;
  using typename L1::Effect;
  using typename L1::L1View;

 public:
  SmSideOf(const CompiledTrace& trace, const HierarchyConfig& config, LaunchStreams& streams,
           TrialWorkspace::State& state, Residency& residency, PrivateCaches<L1Policy>& l1,
           Prefetcher prefetcher, Layer layer)
      : L1(trace, config, streams, state, residency, l1, std::move(prefetcher), std::move(layer)) {}

  void begin_launch(const LaunchTrace& launch) override { this->begin_l1_launch(launch); }

  PrivateCacheView l1_view() override { return this->l1_.view(); }

  bool take_issued() override {
    const bool issued = issued_;
    issued_ = false;
    return issued;
  }

  void run_sm(std::uint32_t sm, std::uint64_t epoch_start, std::uint64_t epoch_end,
              std::uint64_t epoch_index, std::uint64_t trial_epoch) override {
    this->streams_.restart_sm(epoch_index, sm);
    this->trial_epoch_ = trial_epoch;
    SmState& m = this->s_.sms[sm];
    m.misses.advance_to(epoch_index);
    std::uint64_t clock = std::max(m.clock, epoch_start);
    const std::uint32_t slots = this->residency_.slots();
    while (clock < epoch_end) {
      std::uint64_t earliest = kPendingFill;
      const std::uint32_t chosen = this->residency_.pick(sm, m.round_robin, clock, earliest);
      if (chosen == kNoWarp) {
        clock = earliest < epoch_end ? earliest : epoch_end;
        continue;
      }
      clock = issue_warp(sm, chosen, clock, epoch_end);
      this->residency_.refresh(sm, chosen);
      m.round_robin = chosen + 1 == slots ? 0 : chosen + 1;
    }
    m.clock = clock;
  }

 private:
  static constexpr std::ptrdiff_t kLoadAhead = 8;  // transactions ahead the CPU is asked for

  /// Issues up to warp_quantum bulks of one warp; returns the SM clock after them.
  std::uint64_t issue_warp(std::uint32_t sm, std::uint32_t slot, std::uint64_t clock,
                           std::uint64_t epoch_end) {
    SmState& m = this->s_.sms[sm];
    WarpSlot& w = this->residency_.warp(sm, slot);
    for (std::uint32_t q = 0; q < this->config_.sm.warp_quantum; ++q) {
      const Bulk& bulk = this->trace_.bulks[w.bulk];
      if (bulk.barriers > 0 && w.barrier_bulk != w.bulk) {
        w.barrier_target = w.barriers_passed + bulk.barriers;
        this->residency_.release_barriers(sm, w.block_slot, clock);
        if (w.barrier_target != w.barriers_passed) {
          return clock;  // waits for the rest of its block
        }
      }
      if (bulk.has_loads && this->k_.l1_enabled &&
          m.misses.outstanding() >= this->config_.l1.mshrs) {
        return epoch_end;  // MSHRs full: the SM stalls until fills retire (next epoch)
      }
      issued_ = true;
      clock = issue_bulk(bulk, sm, slot, w, m.misses, clock);
      ++w.bulk;
      if (w.bulk == w.bulk_end) {
        w.live = false;
        this->residency_.warp_finished(sm, w.block_slot, clock);
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
    const Constants k = this->k_;
    const L1View l1 = this->l1_.view();
    const Holder holder = L1View::holder(sm);
    AccessCounters* const counters = this->s_.slot_counters.data();
    L2Request* out = this->s_.requests.open_tail(this->requests_per_transaction() *
                                                 std::size_t{bulk.transaction_count});
    Effect effect{w.ready_time, 0, 0};
    const Transaction* t = this->trace_.transactions.data() + bulk.first_transaction;
    const Transaction* const end = t + bulk.transaction_count;
    for (; t != end; ++t, clock += k.issue_cycles) {
      load_ahead(l1.holders +
                 std::size_t{std::min(t + kLoadAhead, end - 1)->line} * l1.line_stride);
      switch (t->kind()) {
        case tracebuf::AccessKind::kRead:
          this->load(k, l1, holder, counters, sm, slot, *t, clock, out, effect);
          break;
        case tracebuf::AccessKind::kWrite:
          this->store(k, l1, holder, counters, sm, *t, clock, out);
          break;
        case tracebuf::AccessKind::kReadModifyWrite:
          this->load(k, l1, holder, counters, sm, slot, *t, clock, out, effect);
          this->store(k, l1, holder, counters, sm, *t, clock, out);
          break;
        case tracebuf::AccessKind::kAtomic:
          this->atomic(k, counters, sm, slot, *t, clock, out, effect);
          break;
      }
    }
    this->s_.requests.close_tail(out);
    w.ready_time = effect.ready_time;
    w.pending += effect.pending;
    misses.add_unresolved(effect.misses);
    return clock;
  }

  bool issued_ = false;
};

}  // namespace memcarlo::sim
