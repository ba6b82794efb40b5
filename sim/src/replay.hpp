// The replay of one launch in one trial (paper §3.2), templated on the L1 and L2 replacement
// policies so that their hooks inline. Time advances in epochs: every SM issues bulks from its
// warps up to the epoch's end (weighted round-robin, bulk sequences, barriers, MSHR limit; the
// L1 side of a bulk is sm_issue.hpp); then the L2 drains the SM queues in a weighted random
// order, the DRAM serves the L2 misses in random batches (l2_drain.hpp), and fill times flow back
// to the L1s and the waiting warps (resolve).
#pragma once

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "l2_drain.hpp"
#include "memcarlo/tracebuf/model.hpp"
#include "sm_issue.hpp"
#include "trial_state.hpp"

namespace memcarlo::sim {

template <class L1Policy, class L2Policy>
class Replay {
  using L1View = typename PrivateCaches<L1Policy>::View;

 public:
  Replay(const CompiledTrace& trace, const HierarchyConfig& config, TrialRandom& random,
         TrialWorkspace::State& state, PrivateCaches<L1Policy>& l1, SharedCache<L2Policy>& l2,
         TrialResult& result)
      : trace_(trace), config_(config), random_(random), s_(state), l1_(l1), l2_(l2),
        result_(result), sm_issue_(trace, config, random, state, l1),
        l2_drain_(trace, config, random, state, l1, l2, result) {
    sm_count_ = config.sm.count;
    l1_enabled_ = config.l1.enabled;
    t1_ = config.l1.latency;
    epoch_cycles_ = config.interconnect.epoch_cycles;
    epoch_shift_ = std::has_single_bit(epoch_cycles_)
                       ? static_cast<std::uint32_t>(std::countr_zero(epoch_cycles_))
                       : kNoShift;
  }

  /// Replays `launch`. With `keep_l2`, the L2 (and its dirty lines) is left as the previous
  /// launch left it; the L1s always start empty (the driver invalidates them between grids).
  void run_launch(const LaunchTrace& launch, bool keep_l2) {
    setup(launch, keep_l2);
    std::uint64_t epoch_start = 0;
    const std::uint64_t epoch = config_.interconnect.epoch_cycles;
    while (live_blocks_ > 0 || next_block_ < launch.blocks.size()) {
      const std::uint64_t epoch_end = epoch_start + epoch;
      issued_ = false;
      s_.requests.clear();
      for (std::uint32_t sm = 0; sm < sm_count_; ++sm) {
        s_.request_begin[sm] = static_cast<std::uint32_t>(s_.requests.size());
        run_sm(sm, epoch_start, epoch_end);
      }
      s_.request_begin[sm_count_] = static_cast<std::uint32_t>(s_.requests.size());
      if (!s_.requests.empty() || !s_.waits.empty()) {
        l2_drain_.run();
        resolve(epoch_end);
      }
      dispatch(launch);
      epoch_start = epoch_end;
      if (!issued_ && live_blocks_ > 0) {
        const std::uint64_t next = next_event();
        if (next == kPendingFill) {
          throw std::logic_error("replay made no progress: every live warp is blocked");
        }
        if (next > epoch_start) {
          epoch_start += (next - epoch_start) / epoch * epoch;
        }
      }
    }
    std::uint64_t last = 0;
    for (const SmState& m : s_.sms) {
      last = std::max(last, m.clock);
    }
    result_.cycles += last;
  }

 private:
  // ---- setup and block scheduling ----------------------------------------------------------

  void setup(const LaunchTrace& launch, bool keep_l2) {
    launch_ = &launch;
    blocks_per_sm_ = launch.resident_blocks_per_sm;
    warps_per_block_ = launch.warps_per_block;
    slots_ = blocks_per_sm_ * warps_per_block_;
    if (slots_ >= kNoWarp) {
      throw std::invalid_argument("launch " + launch.kernel + ": more than 65534 resident warps");
    }
    s_.sms.resize(sm_count_);
    for (SmState& m : s_.sms) {
      m.clock = 0;
      m.round_robin = random_.below(slots_);
      m.misses.reset();
    }
    s_.request_begin.assign(sm_count_ + 1, 0);
    s_.warps.assign(std::size_t{sm_count_} * slots_, WarpSlot{});
    schedulable_words_ = (slots_ + 63) / 64;
    s_.schedulable.assign(std::size_t{sm_count_} * schedulable_words_, 0);
    s_.blocks.assign(std::size_t{sm_count_} * blocks_per_sm_, BlockSlot{});
    s_.freed.clear();
    s_.waits.clear();
    const std::uint32_t holder_words =
        l1_enabled_ ? PrivateCaches<L1Policy>::holder_words(sm_count_) : 0;
    if (keep_l2) {
      s_.lines.clear_holders();
    } else {
      s_.lines.reset(trace_.l1_line_count(), holder_words, trace_.l2_lines_per_l1_line,
                     static_cast<std::uint16_t>(kNoWay));
      l2_.reset(config_.l2.sets(), config_.l2.associativity, s_.lines,
                static_cast<std::uint32_t>(std::countr_zero(trace_.l2_lines_per_l1_line)),
                L2Policy{});
    }
    if (l1_enabled_) {
      // The launch's own L1: an adaptive L1 loses the ways its shared-memory carveout takes.
      l1_.reset(sm_count_, config_.l1.sets(), launch.occupancy.l1_ways, s_.lines, L1Policy{});
    }
    s_.dram->reset();
    live_blocks_ = 0;
    next_block_ = 0;

    // Random start alignment (§3.2.1): each SM's first blocks start after a random delay of up
    // to start_jitter x the issue time of one block.
    const double block_cycles =
        launch.blocks.empty() ? 0.0
                              : static_cast<double>(launch.transactions) /
                                    static_cast<double>(launch.blocks.size()) *
                                    config_.sm.issue_cycles;
    const double jitter = config_.schedule.start_jitter * block_cycles;
    for (std::uint32_t sm = 0; sm < sm_count_; ++sm) {
      s_.sms[sm].clock = static_cast<std::uint64_t>(random_.uniform() * jitter);
    }
    // Round-robin assignment with occupancy: block i goes to SM i mod S, slot i div S.
    const std::uint64_t initial =
        std::min<std::uint64_t>(launch.blocks.size(), std::uint64_t{sm_count_} * blocks_per_sm_);
    for (std::uint64_t i = 0; i < initial; ++i) {
      const auto sm = static_cast<std::uint32_t>(i % sm_count_);
      place(sm, static_cast<std::uint32_t>(i / sm_count_), s_.sms[sm].clock);
    }
    dispatch(launch);  // blocks with no records finish at once
  }

  void place(std::uint32_t sm, std::uint32_t block_slot, std::uint64_t time) {
    const BlockTrace& block = launch_->blocks[next_block_++];
    BlockSlot& b = s_.blocks[std::size_t{sm} * blocks_per_sm_ + block_slot];
    b.occupied = true;
    b.first_warp_slot = block_slot * warps_per_block_;
    b.warp_count = block.warp_count;
    b.live_warps = 0;
    for (std::uint32_t w = 0; w < block.warp_count; ++w) {
      const WarpTrace& trace = trace_.warps[block.first_warp + w];
      WarpSlot& slot = warp(sm, b.first_warp_slot + w);
      slot = WarpSlot{};
      slot.bulk = trace.first_bulk;
      slot.bulk_end = trace.first_bulk + trace.bulk_count;
      slot.ready_time = time;
      slot.block_slot = block_slot;
      slot.live = trace.bulk_count > 0;
      b.live_warps += slot.live ? 1 : 0;
      refresh(sm, b.first_warp_slot + w);
    }
    ++live_blocks_;
    if (b.live_warps == 0) {
      finish_block(sm, block_slot, time);
    }
  }

  void finish_block(std::uint32_t sm, std::uint32_t block_slot, std::uint64_t time) {
    s_.blocks[std::size_t{sm} * blocks_per_sm_ + block_slot].occupied = false;
    --live_blocks_;
    s_.freed.push_back({time, random_.next_u32(), static_cast<std::uint16_t>(sm), block_slot});
  }

  /// Back-to-back blocks: freed slots take the next blocks in the order they freed up.
  void dispatch(const LaunchTrace& launch) {
    while (!s_.freed.empty() && next_block_ < launch.blocks.size()) {
      std::sort(s_.freed.begin(), s_.freed.end(), [](const FreedBlock& a, const FreedBlock& b) {
        return a.time != b.time ? a.time < b.time : a.random_key < b.random_key;
      });
      std::vector<FreedBlock>& batch = freed_scratch_;
      batch.clear();
      batch.swap(s_.freed);  // place() may free more blocks into s_.freed
      std::size_t i = 0;
      for (; i < batch.size() && next_block_ < launch.blocks.size(); ++i) {
        place(batch[i].sm, batch[i].block_slot, batch[i].time);
      }
      s_.freed.insert(s_.freed.end(), batch.begin() + static_cast<std::ptrdiff_t>(i), batch.end());
    }
    if (next_block_ >= launch.blocks.size()) {
      s_.freed.clear();
    }
  }

  [[nodiscard]] std::uint64_t next_event() const {
    std::uint64_t next = kPendingFill;
    for (const WarpSlot& w : s_.warps) {
      if (w.live && w.pending == 0 && w.barrier_target == w.barriers_passed) {
        next = std::min(next, w.ready_time);
      }
    }
    return next;
  }

  WarpSlot& warp(std::uint32_t sm, std::uint32_t slot) {
    return s_.warps[std::size_t{sm} * slots_ + slot];
  }

  /// Keeps the SM's schedulable bit of a warp in step with its state.
  void refresh(std::uint32_t sm, std::uint32_t slot) {
    const WarpSlot& w = warp(sm, slot);
    std::uint64_t& word = s_.schedulable[std::size_t{sm} * schedulable_words_ + slot / 64];
    const std::uint64_t bit = std::uint64_t{1} << (slot % 64);
    if (w.live && w.pending == 0 && w.barrier_target == w.barriers_passed) {
      word |= bit;
    } else {
      word &= ~bit;
    }
  }

  [[nodiscard]] std::uint64_t epoch_of(std::uint64_t time) const {
    return epoch_shift_ != kNoShift ? time >> epoch_shift_ : time / epoch_cycles_;
  }

  // ---- the SM: warp scheduling and L1 --------------------------------------------------------

  void run_sm(std::uint32_t sm, std::uint64_t epoch_start, std::uint64_t epoch_end) {
    SmState& m = s_.sms[sm];
    m.misses.advance_to(epoch_of(epoch_start));
    std::uint64_t clock = std::max(m.clock, epoch_start);
    while (clock < epoch_end) {
      std::uint64_t earliest = kPendingFill;
      const std::uint32_t chosen = pick(sm, m.round_robin, clock, earliest);
      if (chosen == kNoWarp) {
        clock = earliest < epoch_end ? earliest : epoch_end;
        continue;
      }
      clock = issue(sm, chosen, clock, epoch_end);
      refresh(sm, chosen);
      m.round_robin = chosen + 1 == slots_ ? 0 : chosen + 1;
    }
    m.clock = clock;
  }

  /// Weighted round-robin: the first schedulable warp from `first` on (circularly) that is ready
  /// at `clock`, or kNoWarp with `earliest` = when the first schedulable one will be.
  std::uint32_t pick(std::uint32_t sm, std::uint32_t first, std::uint64_t clock,
                     std::uint64_t& earliest) {
    const std::uint64_t* words = s_.schedulable.data() + std::size_t{sm} * schedulable_words_;
    const std::uint32_t first_word = first / 64;
    const std::uint64_t from_first = ~std::uint64_t{0} << (first % 64);
    for (std::uint32_t k = 0; k <= schedulable_words_; ++k) {
      std::uint32_t index = first_word + k;
      index = index >= schedulable_words_ ? index - schedulable_words_ : index;
      std::uint64_t bits = words[index];
      bits &= k == 0 ? from_first : k == schedulable_words_ ? ~from_first : ~std::uint64_t{0};
      for (; bits != 0; bits &= bits - 1) {
        const std::uint32_t slot = index * 64 + static_cast<std::uint32_t>(std::countr_zero(bits));
        const std::uint64_t ready = warp(sm, slot).ready_time;
        if (ready <= clock) {
          return slot;
        }
        earliest = std::min(earliest, ready);
      }
    }
    return kNoWarp;
  }

  /// Issues up to warp_quantum bulks of one warp; returns the SM clock after them.
  std::uint64_t issue(std::uint32_t sm, std::uint32_t slot, std::uint64_t clock,
                      std::uint64_t epoch_end) {
    SmState& m = s_.sms[sm];
    WarpSlot& w = warp(sm, slot);
    for (std::uint32_t q = 0; q < config_.sm.warp_quantum; ++q) {
      const Bulk& bulk = trace_.bulks[w.bulk];
      if (bulk.barriers > 0 && w.barrier_bulk != w.bulk) {
        w.barrier_target = w.barriers_passed + bulk.barriers;
        release_barriers(sm, w.block_slot, clock);
        if (w.barrier_target != w.barriers_passed) {
          return clock;  // waits for the rest of its block
        }
      }
      if (bulk.has_loads && l1_enabled_ && m.misses.outstanding() >= config_.l1.mshrs) {
        return epoch_end;  // MSHRs full: the SM stalls until fills retire (next epoch)
      }
      issued_ = true;
      clock = sm_issue_.issue(bulk, sm, slot, w, m.misses, clock);
      ++w.bulk;
      if (w.bulk == w.bulk_end) {
        w.live = false;
        BlockSlot& b = s_.blocks[std::size_t{sm} * blocks_per_sm_ + w.block_slot];
        --b.live_warps;
        if (b.live_warps == 0) {
          finish_block(sm, w.block_slot, clock);
        } else {
          release_barriers(sm, w.block_slot, clock);  // an exited warp no longer holds them
        }
        return clock;
      }
      if (bulk.has_loads || w.pending != 0 || w.ready_time > clock) {
        return clock;
      }
    }
    return clock;
  }

  /// Releases the warps of a block whose barrier every live warp of the block has reached.
  void release_barriers(std::uint32_t sm, std::uint32_t block_slot, std::uint64_t now) {
    const BlockSlot& b = s_.blocks[std::size_t{sm} * blocks_per_sm_ + block_slot];
    std::uint32_t reached = 0xFFFFFFFF;
    for (std::uint32_t i = 0; i < b.warp_count; ++i) {
      const WarpSlot& w = warp(sm, b.first_warp_slot + i);
      if (w.live) {
        reached = std::min(reached, w.barrier_target);
      }
    }
    for (std::uint32_t i = 0; i < b.warp_count; ++i) {
      WarpSlot& w = warp(sm, b.first_warp_slot + i);
      if (w.live && w.barrier_target > w.barriers_passed && w.barrier_target <= reached) {
        w.barriers_passed = w.barrier_target;
        w.barrier_bulk = w.bulk;
        w.ready_time = std::max(w.ready_time, now);
        refresh(sm, b.first_warp_slot + i);
      }
    }
  }

  // ---- the way back ------------------------------------------------------------------------

  /// Where `line` sits in `sm`'s L1 now: `at` if that way still holds it, else wherever it went
  /// (a line evicted and fetched again within the epoch), or kNoSlot.
  [[nodiscard]] std::size_t l1_slot(const L1View& l1, std::uint32_t sm, std::uint32_t line,
                                    std::size_t at) const {
    if (l1.tags[at] == line) {
      return at;
    }
    const std::uint32_t set = trace_.l1_set[line];
    const std::uint32_t way = l1.lookup(sm, set, line);
    return way == kNoWay ? kNoSlot : l1.row(sm, set) + way;
  }

  /// Fill times are known now: hand them to the L1 lines and the warps waiting for them. Every
  /// update is a max or a count, so the order of the requests does not matter.
  void resolve(std::uint64_t epoch_end) {
    const L1View l1 = l1_.view();
    for (const L2Request& r : s_.requests) {
      if (r.warp == kNoWarp) {
        continue;
      }
      const std::uint64_t fill = r.issue_time + r.fill_delay;
      if (r.kind == tracebuf::AccessKind::kRead && l1_enabled_) {
        const std::size_t at = l1_slot(l1, r.sm, r.line, r.l1_at);
        if (at != kNoSlot) {
          std::uint64_t& fill_time = l1.fill_time[at];
          fill_time = fill_time == kPendingFill ? fill : std::max(fill_time, fill);
        }
        s_.sms[r.sm].misses.resolve(epoch_of(fill));
      }
      WarpSlot& w = warp(r.sm, r.warp);
      w.ready_time = std::max(w.ready_time, fill);
      if (--w.pending == 0) {
        refresh(r.sm, r.warp);
      }
    }
    for (const FillWait& wait : s_.waits) {
      std::uint64_t fill = epoch_end + t1_;
      const std::size_t at = l1_slot(l1, wait.sm, wait.line, wait.l1_at);
      if (at != kNoSlot && l1.fill_time[at] != kPendingFill) {
        fill = l1.fill_time[at];
      }
      WarpSlot& w = warp(wait.sm, wait.warp);
      w.ready_time = std::max(w.ready_time, fill);
      if (--w.pending == 0) {
        refresh(wait.sm, wait.warp);
      }
    }
    s_.waits.clear();
  }

  static constexpr std::size_t kNoSlot = ~std::size_t{0};
  static constexpr std::uint32_t kNoShift = 0xFFFFFFFF;

  const CompiledTrace& trace_;
  const HierarchyConfig& config_;
  TrialRandom& random_;
  TrialWorkspace::State& s_;
  PrivateCaches<L1Policy>& l1_;
  SharedCache<L2Policy>& l2_;
  TrialResult& result_;
  SmIssue<L1Policy> sm_issue_;
  L2Drain<L1Policy, L2Policy> l2_drain_;
  const LaunchTrace* launch_ = nullptr;
  std::uint32_t sm_count_ = 0;
  std::uint32_t blocks_per_sm_ = 0;
  std::uint32_t warps_per_block_ = 0;
  std::uint32_t slots_ = 0;
  std::uint32_t schedulable_words_ = 1;
  std::uint64_t live_blocks_ = 0;
  std::size_t next_block_ = 0;
  bool issued_ = false;
  bool l1_enabled_ = true;
  std::uint64_t t1_ = 0;
  std::uint64_t epoch_cycles_ = 64;
  std::uint32_t epoch_shift_ = kNoShift;
  std::vector<FreedBlock> freed_scratch_;
};

}  // namespace memcarlo::sim
